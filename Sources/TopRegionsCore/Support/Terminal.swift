/// Text from Flickr or from input can hold escape sequences; what the tools show a person
/// never passes them on.
public enum Terminal {
    /// `text` with C0 and C1 control characters and DEL replaced by U+FFFD (line breaks and
    /// tabs kept when asked).
    public static func printable(_ text: String, keepingLineBreaks: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0, keepingLineBreaks) }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            result.append(isControl(scalar, keepingLineBreaks) ? "\u{FFFD}" : scalar)
        }
        return String(result)
    }

    private static func isControl(_ scalar: Unicode.Scalar, _ keepingLineBreaks: Bool) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: !keepingLineBreaks
        case 0x00..<0x20, 0x7F..<0xA0: true
        default: false
        }
    }
}
