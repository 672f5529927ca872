/// A number kept as a count of 10^-places units, written with at most `places` decimals and
/// no trailing zeros ("-1.25", "12", "0.5"; ".5" without the leading zero): the same count
/// always gives the same text. What page coordinates, map paths and map boxes are written as.
public enum FixedPoint {
    public static func text(_ units: Int64, places: Int, leadingZero: Bool = true) -> String {
        let scale = (0..<places).reduce(UInt64(1)) { value, _ in value * 10 }
        let sign = units < 0 ? "-" : ""
        let whole = units.magnitude / scale
        var fraction = String(units.magnitude % scale)
        fraction = String(repeating: "0", count: max(0, places - fraction.count)) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        guard !fraction.isEmpty else { return sign + String(whole) }
        return sign + (whole == 0 && !leadingZero ? "" : String(whole)) + "." + fraction
    }

    /// `value` rounded to `places` decimals, as `text` writes it.
    public static func text(_ value: Double, places: Int) -> String {
        let scale = (0..<places).reduce(1.0) { value, _ in value * 10 }
        return text(Int64((value * scale).rounded()), places: places)
    }
}
