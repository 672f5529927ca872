import Foundation
import Testing
@testable import TopRegionsIngest
@testable import TopRegionsRecords
@testable import TopRegionsStore

/// The loader's fast reader (`RecordScanner`) must never disagree with `RecordDecoder`: a line
/// it accepts is one the decoder makes exactly one record of, with the same values; every
/// other line it leaves alone (nothing appended), for the decoder to read or refuse.
@Suite struct RecordScannerTests {
    static let plain = #"{"id":"53100000301","owner":"52557877@N06","owner_name":"Zoë Müller","title":"IMG Street 日落","description":"Line one\nline \"two\" \u00e9\ud83d\ude00 \/ end","latitude":42.654041,"longitude":-70.312969,"place_id":"5V_5hoJtSaHWvKzC","uploaded":1700000012,"thumb_url":"https://live.staticflickr.com/65535/53100000301_6af192fb1a_s.jpg","photo_url":"https://live.staticflickr.com/65535/53100000301_6af192fb1a_b.jpg","license":"4","region_id":"1CHtRQRhjyzWLd.A","region":"Buenos Aires, Argentina"}"#

    /// What the scanner makes of `line`: its spans' values, or nil; checks that a refused line
    /// leaves the buffer as it was.
    func scanned(_ line: String) -> (spans: RecordSpans, bytes: [UInt8])? {
        let prefix: [UInt8] = Array("earlier bytes".utf8)
        var bytes = prefix
        let spans = Array(line.utf8).withUnsafeBufferPointer { RecordScanner.scan($0, into: &bytes) }
        if spans == nil { #expect(bytes == prefix, "a refused line left bytes behind: \(line)") }
        return spans.map { ($0, bytes) }
    }

    func decoded(_ line: String) -> [PhotoRecord]? {
        Array(line.utf8).withUnsafeBufferPointer { buffer in
            try? RecordDecoder.decode(line: buffer, number: 1, source: "test")
        }
    }

    struct Values: Equatable {
        var texts: [String?]
        var latitude: Double?, longitude: Double?
        var uploaded: Int64?
    }

    func values(_ spans: RecordSpans, _ bytes: [UInt8]) -> Values {
        let plain = PhotoRecord.plainFields.indices.map { spans.plain[$0] }
        let texts = ([spans.id, spans.owner, spans.ownerName, spans.placeID, spans.regionID, spans.region, spans.extra] + plain).map { span -> String? in
            span.isNone ? nil : String(decoding: bytes[Int(span.start)..<Int(span.start + span.count)], as: UTF8.self)
        }
        return Values(texts: texts, latitude: spans.latitude, longitude: spans.longitude, uploaded: spans.uploaded)
    }

    /// The invariant, for one line; returns whether the scanner took it.
    @discardableResult
    func checkAgreement(_ line: String) -> Bool {
        guard let (spans, bytes) = scanned(line) else { return false }
        guard let records = decoded(line), records.count == 1 else {
            Issue.record("the scanner took a line the decoder does not make one record of: \(line)")
            return true
        }
        var record = records[0]
        record.fillImageURLs(staticBase: "https://live.staticflickr.com")
        var expected: [UInt8] = []
        let fromRecord = RecordSpans(record, into: &expected)
        #expect(values(spans, bytes) == values(fromRecord, expected), "\(line)")
        return true
    }

    @Test func takesPlainRecordsWithTheDecodersValues() {
        #expect(checkAgreement(Self.plain))
        let variants = [
            // numbers where strings may be, nulls, Flickr's names, unknown members, spaces
            #"{"id":53100000301,"owner":123,"title":42,"description":null,"latitude":-0,"longitude":1.5e2,"place_id":"","uploaded":0,"region_id":null}"#,
            #" { "id" : "1" , "owner" : "a@N01" , "ownername" : "Ann" , "dateupload" : 5 , "url_sq" : "s" , "url_l" : "l" } "#,
            #"{"id":"2","owner":"b","owner_name":null,"ownername":"Bo","url_sq":"x","thumb_url":"","photo_url":"p","zeta":{"keep":[1,2.50,"\u0041"]},"alpha":null,"n":-1.0E+3}"#,
            #"{"id":"3","owner":"c","region_id":"R","title":"\t\"q\"","description":"\u0000"}"#,
            #"{"id":"4","owner":"é@N01","owner_name":"","region_id":"R","region":"","thumb_url":"t","photo_url":"p","server":"1","secret":"s"}"#,
            // the license: Flickr's string, a number, absent as null or ""
            #"{"id":"5","owner":"d","license":4}"#, #"{"id":"6","owner":"d","license":""}"#, #"{"id":"7","owner":"d","license":null}"#,
            #"{"id":"8","owner":"d","license":"cc-by-4.0"}"#,
        ]
        for line in variants { #expect(checkAgreement(line), "\(line)") }
    }

    @Test func leavesEverythingElseToTheDecoder() {
        let others = [
            "", "   ", "[]", "null", #"{}"#, #"{"id":"1"}"#, #"{"owner":"a"}"#,
            #"{"id":"1","owner":"a","id":"2"}"#,                       // repeated member
            #"{"id":"1","owner":"a","x":1,"x":2}"#,
            #"{"id":"1a","owner":"a"}"#, #"{"id":"","owner":"a"}"#, #"{"id":-1,"owner":"a"}"#, #"{"id":1.0,"owner":"a"}"#,
            #"{"id":"1","owner":""}"#, #"{"id":"1","owner":"a b"}"#, #"{"id":"1","owner":"a\u0020b"}"#,
            #"{"id":"1","owner":"a","place_id":"a\u007fb"}"#, #"{"id":"1","owner":"a","place_id":1.5}"#,
            #"{"id":"1","owner":"a","latitude":91}"#, #"{"id":"1","owner":"a","longitude":"10"}"#, #"{"id":"1","owner":"a","latitude":1e999}"#,
            #"{"id":"1","owner":"a","uploaded":-1}"#, #"{"id":"1","owner":"a","uploaded":1.0}"#, #"{"id":"1","owner":"a","uploaded":"5"}"#,
            #"{"id":"1","owner":"a","uploaded":99999999999999999999}"#,
            #"{"id":"1","owner":"a","title":true}"#, #"{"id":"1","owner":"a","description":{"_content":"x"}}"#,
            #"{"id":"1","owner":"a","region":"R"}"#,                   // a region without its id
            #"{"id":"1","owner":"a","license":"4 5"}"#, #"{"id":"1","owner":"a","license":4.5}"#, #"{"id":"1","owner":"a","license":true}"#,
            #"{"id":"1","owner":"a","license":"123456789012345678901234567890123"}"#,  // longer than a code may be
            #"{"id":"1","owner":"a","server":"1","secret":"s"}"#,     // image URLs to fill in
            #"{"photos":{"photo":[]},"stat":"ok"}"#, #"{"stat":"fail","code":100}"#,
            #"jsonFlickrApi({"id":"1","owner":"a"})"#,
            #"{"id":"1","owner":"a","title":"\ud800"}"#, #"{"id":"1","owner":"a","title":"\x"}"#,
            #"{"id":"1","owner":"a","title":"x"#, #"{"id":"1","owner":"a",}"#, #"{"id":"1","owner":"a"} x"#,
            #"{"id":"1","owner":"a","é":1}"#, #"{"id":"1","owner":"a","k\"":1}"#, #"{"id":"1","owner":"a","n":01}"#,
        ]
        for line in others { #expect(scanned(line) == nil, "\(line)") }
        // Bytes that are not UTF-8, and a control character inside a string.
        for bad: [UInt8] in [[0xC3, 0x28], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], [0x01]] {
            var bytes: [UInt8] = []
            let line = Array(#"{"id":"1","owner":"a","title":""#.utf8) + bad + Array(#""}"#.utf8)
            #expect(line.withUnsafeBufferPointer { RecordScanner.scan($0, into: &bytes) } == nil)
            #expect(bytes.isEmpty)
        }
    }

    /// Every one-byte change of a record (deleted, or replaced by a byte that matters to JSON):
    /// whatever the scanner takes, the decoder reads the same way.
    @Test func agreesOnEveryOneByteChange() {
        let base = Array(Self.plain.utf8)
        let replacements: [UInt8] = Array(#" "\,:{}[]0-.eun/x"#.utf8) + [0x01, 0x7F, 0xC3, 0xA9, 0xFF]
        var taken = 0, lines = 0
        for position in base.indices {
            var variants = [base[..<position] + base[(position + 1)...]]
            for byte in replacements { var changed = base; changed[position] = byte; variants.append(changed[...]) }
            for variant in variants {
                lines += 1
                // Not valid UTF-8 as a whole cannot be a String; the byte-level checks above cover it.
                guard let line = String(validating: Array(variant), as: UTF8.self) else { continue }
                if checkAgreement(line) { taken += 1 }
            }
        }
        #expect(taken > 1000, "the scanner took \(taken) of \(lines) changed lines")
    }

    @Test func theFixtureLinesAgree() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/photos.ndjson")
        let lines = try String(contentsOf: fixture, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(!lines.isEmpty)
        for line in lines { checkAgreement(line) }
    }

    /// A batch read through the scanner is laid out as the same records decoded one by one.
    @Test func aBatchReadFromLinesMatchesOneFromRecords() {
        let lines = [
            Self.plain,
            #"{"id":"2","owner":"52557877@N06","owner_name":"","place_id":"P","region_id":"R2","region":"Two"}"#,
            #"{"id":"3","owner":"x@N01","owner_name":"X","place_id":"P","thumb_url":"t","photo_url":"p","zeta":[1]}"#,
            #"{"id":"2","owner":"52557877@N06","owner_name":"Renamed","place_id":"P2"}"#,  // a repeat: the last wins
        ]
        var buffer = BatchBuffer()
        for line in lines {
            let took = Array(line.utf8).withUnsafeBufferPointer { buffer.append(line: $0, uploadedAtMost: .max) }
            #expect(took)
        }
        let fromLines = PreparedBatch(buffer)
        let fromRecords = PreparedBatch(lines.compactMap { decoded($0)?.first })
        #expect(fromLines.photoCount == 3 && fromLines.duplicates == 1)
        #expect(fromLines.photographers.map { "\($0.nsid)=\($0.name)" } == ["52557877@N06=Renamed", "x@N01=X"])
        #expect(fromLines.photographers.map { "\($0.nsid)=\($0.name)" } == fromRecords.photographers.map { "\($0.nsid)=\($0.name)" })
        #expect(fromLines.regions == fromRecords.regions)
        #expect(fromLines.places.map { "\($0.placeID) \($0.regionPlaceID ?? "-") \($0.answered)" }
                == fromRecords.places.map { "\($0.placeID) \($0.regionPlaceID ?? "-") \($0.answered)" })
        #expect(fromLines.idsJSON == #"["53100000301","3","2"]"# && fromLines.idsJSON == fromRecords.idsJSON)
        #expect(fromLines.firstID == "2" && fromLines.lastID == "53100000301")
        #expect(fromLines.uploaded == fromRecords.uploaded && fromLines.latitude == fromRecords.latitude)
        #expect(fromLines.photographerIndex == fromRecords.photographerIndex && fromLines.placeIndex == fromRecords.placeIndex)
    }

    @Test func aFutureUploadIsLeftToTheDecoder() {
        var buffer = BatchBuffer()
        let line = #"{"id":"1","owner":"a","uploaded":2000000000}"#
        #expect(!Array(line.utf8).withUnsafeBufferPointer { buffer.append(line: $0, uploadedAtMost: 1_999_999_999) })
        #expect(buffer.isEmpty && buffer.byteCount == 0)
        #expect(Array(line.utf8).withUnsafeBufferPointer { buffer.append(line: $0, uploadedAtMost: 2_000_000_000) })
    }
}
