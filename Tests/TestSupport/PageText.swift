/// Reading a page's HTML as the tests do: plain text searches, no HTML parser (what a page
/// must hold is asserted as the exact text it writes; Chromium checks the rest).
public enum PageText {
    /// The values of `attribute` in `html`, in order.
    public static func attributes(_ attribute: String, in html: String) -> [String] {
        html.components(separatedBy: " \(attribute)=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    /// How many times `needle` is in `text`.
    public static func occurrences(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// The form token a served page carries.
    public static func token(in html: String) -> String? {
        field("token", in: html)
    }

    /// The value of the first form field named `name` (a hidden input) in `html`.
    public static func field(_ name: String, in html: String) -> String? {
        html.components(separatedBy: "name=\"\(name)\" value=\"").dropFirst().first.map { String($0.prefix { $0 != "\"" }) }
    }
}
