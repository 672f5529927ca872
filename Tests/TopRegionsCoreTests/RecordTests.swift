import Testing
@testable import TopRegionsRecords
@testable import TopRegionsSupport

@Suite struct RecordDecodingTests {
    func decode(_ line: String) throws(InputError) -> [PhotoRecord] {
        let bytes = Array(line.utf8)
        let result: Result<[PhotoRecord], InputError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(InputError) { return .success(try RecordDecoder.decode(line: buffer, number: 7, source: "in.ndjson")) }
            catch { return .failure(error) }
        }
        return try result.get()
    }

    @Test func normalizedRecordRoundTripsByteForByte() throws {
        let line = #"{"id":"53120987654","owner":"98765432@N04","owner_name":"Jane","title":"Harbour","description":"Two\nlines","latitude":44.637512,"longitude":-63.571234,"place_id":"Xk3.9fRTUbzqAbCd","uploaded":1700000123,"thumb_url":"https://live.staticflickr.com/65535/53120987654_a1b2c3d4e5_s.jpg","photo_url":"https://live.staticflickr.com/65535/53120987654_a1b2c3d4e5_b.jpg","region_id":"tT7f0cVTUb4pLmNo","region":"Nova Scotia, Canada","zeta":{"keep":[1,2.50]},"alpha":null}"#
        let records = try decode(line)
        #expect(records.count == 1)
        #expect(String(decoding: records[0].ndjsonLine(), as: UTF8.self) == line + "\n")
    }

    @Test func acceptsFlickrRawPhotoWithMixedTypes() throws {
        let raw = #"{"id":"50000000002","owner":"22222222@N02","secret":"cccccccccc","server":"65535","farm":66,"title":"","ispublic":1,"description":{"_content":""},"dateupload":"1700000002","ownername":"Ann","latitude":"44.2","longitude":-63.3,"accuracy":"15","place_id":"PLACE_nbh_A2","woeid":"1002"}"#
        var record = try decode(raw)[0]
        #expect(record.id == "50000000002")
        #expect(record.ownerName == "Ann")
        #expect(record.uploaded == 1_700_000_002)
        #expect(record.latitude == 44.2)
        #expect(record.longitude == -63.3)
        #expect(record.placeID == "PLACE_nbh_A2")
        #expect(record.thumbURL == nil)
        record.fillImageURLs(staticBase: "https://live.staticflickr.com")
        #expect(record.thumbURL == "https://live.staticflickr.com/65535/50000000002_cccccccccc_s.jpg")
        #expect(record.photoURL == "https://live.staticflickr.com/65535/50000000002_cccccccccc_b.jpg")
        // Flickr's own names are normalized away; what the record does not know stays.
        #expect(record.extra.members.map(\.key) == ["secret", "server", "farm", "ispublic", "accuracy", "woeid"])
        #expect(record.extra["accuracy"] == .string("15"))
    }

    @Test func urlExtrasWinOverBuiltURLs() throws {
        var record = try decode(#"{"id":"1","owner":"o@N01","server":"1","secret":"s","url_sq":"http://127.0.0.1:9/1/1_s_s.jpg"}"#)[0]
        record.fillImageURLs(staticBase: "https://example.invalid")
        #expect(record.thumbURL == "http://127.0.0.1:9/1/1_s_s.jpg")
        #expect(record.photoURL == "https://example.invalid/1/1_s_b.jpg")
    }

    @Test func aSavedSearchPageYieldsItsPhotos() throws {
        let page = #"jsonFlickrApi({"photos":{"page":1,"pages":1,"perpage":100,"total":"2","photo":[{"id":"1","owner":"a@N01"},{"id":"2","owner":"b@N01","latitude":0}]},"stat":"ok"})"#
        let records = try decode(page)
        #expect(records.map(\.id) == ["1", "2"])
        #expect(records[1].latitude == 0)
    }

    @Test(arguments: [
        (#"{"id":"1"}"#, 1, "missing field \"owner\" (the photographer's NSID)"),
        (#"{"owner":"a@N01"}"#, 1, "missing field \"id\""),
        (#"{"id":"1","owner":"a@N01","latitude":"north"}"#, 27, "field \"latitude\" must be a number, not \"north\""),
        (#"{"id":"1","owner":"a@N01","latitude":91}"#, 27, "field \"latitude\" is 91, out of range (-90…90)"),
        (#"{"id":"1","owner":"a b"}"#, 11, "field \"owner\" contains whitespace or control characters"),
        (#"{"id":"1","owner":"o","uploaded":"soon"}"#, 23, "field \"uploaded\" must be a whole number, not \"soon\""),
        (#"{"id":[1],"owner":"o"}"#, 2, "field \"id\" must be a string, not an array"),
        (#"{"id":"1","owner":"o","region":"X"}"#, 23, "field \"region\" needs \"region_id\" (the region's place id)"),
        (#"[1]"#, 1, "expected a JSON object (a photo record), found an array"),
        (#"{"stat":"fail","code":100,"message":"Invalid API Key"}"#, 1, "a Flickr error response, not photos: code 100: Invalid API Key"),
        (#"{"id":"é","owner":"o", x}"#, 24, "invalid JSON: unexpected 'x', expected a member name in quotes"),
    ])
    func badRecordsNameLineColumnAndReason(line: String, column: Int, message: String) {
        do {
            _ = try decode(line)
            Issue.record("decoded a bad line")
        } catch {
            #expect(error.description == "in.ndjson: line 7, column \(column): \(message)")
        }
    }

    @Test func blankLinesAreNotRecords() throws {
        #expect(try decode("   ").isEmpty)
        #expect(try decode("").isEmpty)
    }

    @Test func additionalFieldsReplaceUnknownOnesOfTheSameName() throws {
        let record = try decode(#"{"id":"1","owner":"o","thumb_path":"old","k":1}"#)[0]
        let line = String(decoding: record.ndjsonLine(additional: [("thumb_path", .string("new"))]), as: UTF8.self)
        #expect(line == #"{"id":"1","owner":"o","owner_name":"","title":"","description":"","k":1,"thumb_path":"new"}"# + "\n")
    }
}

@Suite struct UnitsTests {
    @Test func durations() {
        #expect(Units.parseDuration("90") == nil)  // a number without a unit is refused
        #expect(Units.parseDuration("7") == nil)
        #expect(Units.parseDuration("90s") == 90)
        #expect(Units.parseDuration("1.5h") == 5_400)
        #expect(Units.parseDuration("1e3s") == nil)
        #expect(Units.parseDuration("infd") == nil)
        #expect(Units.durationProblem("7").contains("has no unit"))
        #expect(Units.parseDuration("15m") == 900)
        #expect(Units.parseDuration("12h") == 43_200)
        #expect(Units.parseDuration("7d") == 604_800)
        #expect(Units.parseDuration("2w") == 1_209_600)
        #expect(Units.parseDuration("soon") == nil)
        #expect(Units.parseDuration("-1d") == nil)
    }

    @Test func sizes() {
        #expect(Units.parseSize("10M") == 10_485_760)
        #expect(Units.parseSize("10MB") == 10_485_760)
        #expect(Units.parseSize("10MiB") == 10_485_760)
        #expect(Units.parseSize("512k") == 524_288)
        #expect(Units.parseSize("1234") == 1234)
        #expect(Units.parseSize("1.5G") == 1_610_612_736)
        #expect(Units.parseSize("lots") == nil)
        #expect(Units.formatSize(1536) == "1.5K")
        #expect(Units.formatSize(10_485_760) == "10M")
    }
}
