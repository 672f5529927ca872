import Foundation
import Testing
@testable import TopRegionsFlickr
@testable import TopRegionsRecords
@testable import TopRegionsSupport

/// What the record reader accepts and refuses at its edges (issue 13.7), the times --since
/// reads (issue 12.2), and what --verbose hides (issue 12.5).
@Suite struct InputEdgeTests {
    // MARK: Numbers as RFC 8259 writes them

    /// RFC 8259 §6: number = [ minus ] int [ frac ] [ exp ]; int = zero / ( digit1-9 *DIGIT ).
    static let numbers = ["0", "-0", "7", "10", "123456789012345678901", "1.5", "-0.25", "0.0", "1e5", "1E5", "1e+5", "1e-5", "-1.5E-10", "0e0"]
    static let notNumbers = [
        "", "-", "+1", "01", "-01", "00", "1.", ".5", "-.5", "1e", "1e+", "1E-", "0x1F", "0x1p4", "1p4", "inf", "-inf", "Infinity",
        "nan", "NaN", "1_000", "1,5", "1.5.2", "1e5x", "١٢", "１", "0b1", "1 2", "--1", "1ee5",
    ]

    @Test func isNumberFollowsTheGrammarAndAgreesWithTheParser() throws {
        for text in Self.numbers {
            #expect(JSONParser.isNumber(text), "\(text)")
            #expect(try JSONParser.parse(text) == .number(text), "\(text)")
        }
        for text in Self.notNumbers {
            #expect(!JSONParser.isNumber(text), "\(text)")
            // The parser refuses the same text as a value (or reads something else: "1 2").
            let parsed = try? JSONParser.parse(text)
            if case .number(let read) = parsed { #expect(read != text, "\(text)") }
        }
        // Surrounding whitespace is the parser's business, not the number's.
        #expect(!JSONParser.isNumber(" 1"))
        #expect(try JSONParser.parse(" 1 ") == .number("1"))
    }

    func decode(_ line: String) throws(InputError) -> [PhotoRecord] {
        let bytes = Array(line.utf8)
        let result: Result<[PhotoRecord], InputError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(InputError) { return .success(try RecordDecoder.decode(line: buffer, number: 3, source: "in")) }
            catch { return .failure(error) }
        }
        return try result.get()
    }

    @Test(arguments: ["0x1F", "0x1p4", "inf", "nan", "1_000", "+5", "1e", "Infinity", " 0x1F "])
    func numericStringsMustBeDecimalNumberText(_ text: String) {
        for field in ["latitude", "longitude"] {
            #expect(throws: InputError(source: "in", line: 3, column: 27, message: "field \"\(field)\" must be a number, not \"\(text)\"")) {
                _ = try decode(#"{"id":"1","owner":"a@N01","\#(field)":"\#(text)"}"#)
            }
        }
        for field in ["uploaded", "dateupload"] {
            #expect(throws: InputError(source: "in", line: 3, column: 27, message: "field \"\(field)\" must be a whole number, not \"\(text)\"")) {
                _ = try decode(#"{"id":"1","owner":"a@N01","\#(field)":"\#(text)"}"#)
            }
        }
    }

    @Test func numericStringsThatAreNumbersStillRead() throws {
        let record = try decode(#"{"id":"1","owner":"a@N01","latitude":" -12.5 ","longitude":"1e2","uploaded":"1700000000","dateupload":"1"}"#)[0]
        #expect(record.latitude == -12.5)
        #expect(record.longitude == 100)
        #expect(record.uploaded == 1_700_000_000)
    }

    @Test func negativeUploadTimesAreRefused() {
        for value in ["-1", "\"-5\"", "-1e3"] {
            #expect(throws: InputError(source: "in", line: 3, column: 27, message: "field \"uploaded\" is \(value == "-1e3" ? -1000 : value == "-1" ? -1 : -5), before 1970: an upload time is Unix seconds")) {
                _ = try decode(#"{"id":"1","owner":"a@N01","uploaded":\#(value)}"#)
            }
        }
        #expect(throws: InputError.self) { _ = try decode(#"{"id":"1","owner":"a@N01","dateupload":"-7"}"#) }
    }

    @Test func photoIDsAreDecimalDigitsOfBoundedLength() throws {
        #expect(try decode(#"{"id":"53120987654","owner":"a@N01"}"#)[0].id == "53120987654")
        #expect(try decode(#"{"id":53120987654,"owner":"a@N01"}"#)[0].id == "53120987654")
        #expect(try decode(#"{"id":"\#(String(repeating: "9", count: 32))","owner":"a@N01"}"#)[0].id.count == 32)
        for id in ["../../etc/x", "12a", "1.5", "abc", "١٢", "-1"] {
            #expect(throws: InputError(source: "in", line: 3, column: 2, message: "field \"id\" must be a photo id: decimal digits only, not \"\(id)\"")) {
                _ = try decode(#"{"id":"\#(id)","owner":"a@N01"}"#)
            }
        }
        // A number that is not digits alone says so (it said the id "must be a string, not a
        // number", though numbers of digits are taken).
        for id in ["1e5", "12.0", "-1"] {
            #expect(throws: InputError(source: "in", line: 3, column: 2, message: "field \"id\" is \(id): give it as a string, or a number of digits alone (no sign, fraction or exponent)")) {
                _ = try decode(#"{"id":\#(id),"owner":"a@N01"}"#)
            }
        }
        let long = String(repeating: "7", count: 33)
        #expect(throws: InputError(source: "in", line: 3, column: 2, message: "field \"id\" is 33 bytes long; at most 32 are accepted")) {
            _ = try decode(#"{"id":"\#(long)","owner":"a@N01"}"#)
        }
        // Owners and places: bounded, no spaces or control characters.
        #expect(throws: InputError(source: "in", line: 3, column: 11, message: "field \"owner\" is 256 bytes long; at most 255 are accepted")) {
            _ = try decode(#"{"id":"1","owner":"\#(String(repeating: "o", count: 256))"}"#)
        }
        #expect(throws: InputError(source: "in", line: 3, column: 27, message: "field \"place_id\" is 129 bytes long; at most 128 are accepted")) {
            _ = try decode(#"{"id":"1","owner":"a@N01","place_id":"\#(String(repeating: "p", count: 129))"}"#)
        }
        #expect(throws: InputError.self) { _ = try decode(#"{"id":"1","owner":"a@N01","region_id":"a\tb","region":"x"}"#) }
    }

    // MARK: A byte order mark

    func lines(_ bytes: [UInt8]) throws -> [(Int, String)] {
        var seen: [(Int, String)] = []
        try LineReader.forEachLine(in: .bytes("in", bytes)) { number, line in
            seen.append((number, String(decoding: line, as: UTF8.self)))
        }
        return seen
    }

    @Test func aByteOrderMarkStartingTheStreamIsSkippedAndNowhereElse() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let first = try lines(bom + Array("{\"a\":1}\r\n{\"b\":2}\n".utf8))
        #expect(first.map(\.0) == [1, 2])
        #expect(first.map(\.1) == ["{\"a\":1}", "{\"b\":2}"])
        let second = try lines(Array("{\"a\":1}\n".utf8) + bom + Array("{\"b\":2}\n".utf8))
        #expect(second[1].1.utf8.starts(with: bom), "a mark after the start is data (and a JSON error)")
        #expect(try lines(bom) .map(\.1) == [""], "a stream of just the mark is one empty line")
        #expect(throws: InputError.self) { _ = try decode(String(decoding: bom, as: UTF8.self) + #"{"id":"1","owner":"a@N01"}"#) }
    }

    // MARK: --since

    static let newYork = TimeZone(identifier: "America/New_York")!
    static let utc = TimeZone(identifier: "UTC")!

    @Test(arguments: [
        ("2025-11-22", 1_763_787_600),  // local midnight: 05:00 UTC in New York (EST)
        ("2025-11-22T06:00", 1_763_809_200),  // local 06:00 = 11:00 UTC
        ("2025-11-22 06:00", 1_763_809_200),
        ("2025-11-22t06:00", 1_763_809_200),
        ("2025-11-22T06:00:30", 1_763_809_230),
        ("2025-11-22T06:00:30.75", 1_763_809_230),
        ("2025-11-22 06:00:30,5", 1_763_809_230),
        ("2025-11-22T06:00Z", 1_763_791_200),
        ("2025-11-22T06:00:00z", 1_763_791_200),
        ("2025-11-22T06:00+01:00", 1_763_787_600),
        ("2025-11-22T06:00+0100", 1_763_787_600),
        ("2025-11-22T06:00-05", 1_763_809_200),
        ("2025-07-01T12:00", 1_751_385_600),  // summer: EDT, -04:00
        ("1763800000", 1_763_800_000),
        ("  2025-11-22T06:00Z  ", 1_763_791_200),
    ])
    func sinceReadsISO8601FullyInTheLocalTimeZone(_ text: String, _ expected: Int64) {
        #expect(Units.parseTime(text, now: 0, timeZone: Self.newYork) == expected)
    }

    @Test func aZoneLessTimeFollowsTheGivenZoneAndAZoneWins() {
        #expect(Units.parseTime("2025-11-22T06:00", now: 0, timeZone: Self.utc) == 1_763_791_200)
        #expect(Units.parseTime("2025-11-22", now: 0, timeZone: Self.utc) == 1_763_769_600)
        #expect(Units.parseTime("2025-11-22T06:00Z", now: 0, timeZone: Self.utc) == Units.parseTime("2025-11-22T06:00Z", now: 0, timeZone: Self.newYork))
        #expect(Units.localTimeZone(environment: ["TZ": "America/New_York"]) == Self.newYork)
        #expect(Units.localTimeZone(environment: ["TZ": ":Europe/Paris"]).identifier == "Europe/Paris")
        #expect(Units.localTimeZone(environment: ["TZ": ""]).secondsFromGMT() == 0)
    }

    @Test(arguments: [
        "2025-11-22garbage", "2025-11-22T25:00", "2025-02-30", "2025-11-31", "2025-13-01", "2025-11-22T06", "2025-11-22T06:60",
        "2025-11-22T06:00:61", "2025-11-22T06:00+25:00", "2025-11-22T06:00+01:", "2025-11-22T06:00 Z", "2025-11-22T", "2025-11-22  06:00",
        "25-11-22", "2025-1-22", "2025/11/22", "22.11.2025", "2025-11-22T06:00:00.", "2025-11-22T06:00:00.1234567890", "yesterday",
        "2x", "-2h", "",
    ])
    func sinceRefusesEverythingElse(_ text: String) {
        #expect(Units.parseTime(text, now: 10_000, timeZone: Self.newYork) == nil, "\(text)")
    }

    @Test func agesAndUnixSecondsStay() {
        #expect(Units.parseTime("2h", now: 10_000, timeZone: Self.newYork) == 2_800)
        #expect(Units.parseTime("90m", now: 10_000, timeZone: Self.newYork) == 4_600)
        #expect(Units.parseTime("0", now: 10_000, timeZone: Self.newYork) == 0)
    }

    // MARK: Hiding the key

    @Test func theKeyIsHiddenAsAParameterValueOrAWholeWordNotAsText() {
        let key = FlickrAPIKey(value: "k")
        #expect(key.redact("GET http://x/services/rest/?method=flickr.photos.search&format=json&api_key=k → 200")
            == "GET http://x/services/rest/?method=flickr.photos.search&format=json&api_key=[API key] → 200")
        #expect(key.redact("the key k was refused") == "the key [API key] was refused")
        #expect(key.redact("api_key=k&x=1 (k) k, kk k-1") == "api_key=[API key]&x=1 ([API key]) [API key], kk k-1")
        #expect(key.redact("api_key=[API%20key]") == "api_key=[API%20key]")
        let real = FlickrAPIKey(value: "0123abcd4567ef89")
        #expect(!real.redact("GET /rest?api_key=0123abcd4567ef89&method=x; key 0123abcd4567ef89.").contains("0123abcd4567ef89"))
        // A key as long as a real one goes wherever it stands, glued to a host name or an
        // escaped '=' too.
        #expect(real.redact("Could not resolve host: x-0123abcd4567ef89-y.invalid; next=%3Fapi%5Fkey%3D0123abcd4567ef89")
            == "Could not resolve host: x-[API key]-y.invalid; next=%3Fapi%5Fkey%3D[API key]")
        // Any value of the parameter goes, even one that is not the key.
        #expect(real.redact("?api_key=other&y") == "?api_key=[API key]&y")
    }
}
