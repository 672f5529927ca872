/// An amount of time a person typed, such as `15m` or `7d`: parsed once, where the option
/// is read, and carried as seconds with the words it was given in.
public struct Age: Sendable, Equatable, CustomStringConvertible {
    public let seconds: Double
    /// As typed, for messages and --help's default.
    public let description: String

    /// Throws the problem in words ("'7' has no unit: ...") when `text` is not an age, or
    /// is zero where `positive` asks for more. `unit`: the option's usual unit, which the
    /// example of a number without one takes.
    public init(_ text: String, positive: Bool = false, unit: Character = "d") throws(QuantityProblem) {
        guard let seconds = Units.parseDuration(text) else { throw QuantityProblem(Units.durationProblem(text, unit: unit)) }
        if positive && seconds == 0 { throw QuantityProblem("'\(text)' is no time at all: give more than 0 (e.g. 30s, 2m)") }
        self.seconds = seconds
        self.description = text
    }

    /// A default written in the source, known to be an age.
    public static func literal(_ text: String) -> Age {
        guard let age = try? Age(text) else { preconditionFailure("not an age: \(text)") }
        return age
    }
}

/// A number of bytes a person typed, such as `10M` or `512K`. A number without a unit is
/// refused (is `10` ten bytes or ten megabytes?), except 0, which is the same in every unit.
public struct ByteSize: Sendable, Equatable, CustomStringConvertible {
    public let bytes: Int64
    /// As typed, for messages and --help's default.
    public let description: String

    /// Throws the problem in words when `text` is not a size of at least `minimum` bytes.
    public init(_ text: String, minimum: Int64 = 0) throws(QuantityProblem) {
        let trimmed = text.trimmingSpaces()
        if !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), Double(trimmed) != 0 {
            throw QuantityProblem("'\(text)' has no unit: write it with one of \(Units.sizeUnits) (e.g. \(trimmed)M for megabytes)")
        }
        guard let bytes = Units.parseSize(text), bytes >= minimum else {
            let least = minimum > 0 ? " of at least \(minimum) bytes" : ""
            throw QuantityProblem("cannot read '\(text)' as a size\(least): a number and a unit, one of \(Units.sizeUnits) (e.g. 512K, 10M, 1G)")
        }
        self.bytes = bytes
        self.description = text
    }

    /// A default written in the source, known to be a size.
    public static func literal(_ text: String) -> ByteSize {
        guard let size = try? ByteSize(text) else { preconditionFailure("not a size: \(text)") }
        return size
    }
}

/// Why a typed quantity cannot be read, in words.
public struct QuantityProblem: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
