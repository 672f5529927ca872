/// A box of longitudes and latitudes a list of photos keeps to: what a zoomed map shows, and
/// the photos listed beside it ("photos in this view"). Written as GeoJSON writes a bbox,
/// `west,south,east,north` in decimal degrees (`bbox=-64,44,-62.5,45` in a served page's
/// address). Edges included. It does not cross the antimeridian (west < east).
public struct GeoBox: Sendable, Equatable, Hashable {
    public let west: Double
    public let south: Double
    public let east: Double
    public let north: Double

    /// The smallest box a map zooms to: 0.01 degree (about 1 km) of latitude, ten times
    /// the 3 decimals a region's map places its photos to.
    public static let smallest = 0.01

    /// A problem with a box as written, in words that say what would work.
    public struct Problem: Error, Equatable, Sendable {
        public let message: String
    }

    public init(west: Double, south: Double, east: Double, north: Double) throws(Problem) {
        guard [west, south, east, north].allSatisfy(\.isFinite) else { throw Self.problem("its four numbers are not all finite") }
        guard -180 <= west, west < east, east <= 180 else {
            throw Self.problem("west must be less than east, both between -180 and 180")
        }
        guard -90 <= south, south < north, north <= 90 else {
            throw Self.problem("south must be less than north, both between -90 and 90")
        }
        guard north - south >= Self.smallest * 0.999 else {
            throw Self.problem("it is less than \(Self.smallest) degree from south to north, closer than a map shows")
        }
        (self.west, self.south, self.east, self.north) = (west, south, east, north)
    }

    /// `west,south,east,north`, as `text` writes it.
    public init(parsing text: String) throws(Problem) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { part -> Double? in
            // Plain decimals only: no "nan", "inf", hex or exponents.
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }) else { return nil }
            return Double(part)
        }
        guard parts.count == 4, numbers.count == 4 else {
            throw Self.problem("\(text.count > 60 ? String(text.prefix(60)) + "…" : text) is not four decimal numbers")
        }
        try self.init(west: numbers[0], south: numbers[1], east: numbers[2], north: numbers[3])
    }

    private static func problem(_ what: String) -> Problem {
        Problem(message: "bbox: \(what); write west,south,east,north in degrees (e.g. bbox=-64,44,-62.5,45)")
    }

    /// `west,south,east,north` to 5 decimals (about 1 m), trailing zeros dropped: the same box
    /// always written the same way (a page's address, a file's name).
    public var text: String {
        Self.text(west, south, east, north)
    }

    /// Four numbers as `text` writes a box: to be parsed into one, the same box every time.
    public static func text(_ west: Double, _ south: Double, _ east: Double, _ north: Double) -> String {
        [west, south, east, north].map { FixedPoint.text($0, places: 5) }.joined(separator: ",")
    }

    /// The box of these edges rounded to 5 decimals, as `text` writes them: the box a page's
    /// address names is the box it was made from (a correctly rounded division of the same
    /// integers is the number the text parses to).
    public init(rounding west: Double, _ south: Double, _ east: Double, _ north: Double) throws(Problem) {
        func rounded(_ value: Double) -> Double { (value * 100_000).rounded() / 100_000 }
        try self.init(west: rounded(west), south: rounded(south), east: rounded(east), north: rounded(north))
    }


    public func contains(latitude: Double, longitude: Double) -> Bool {
        latitude >= south && latitude <= north && longitude >= west && longitude <= east
    }
}
