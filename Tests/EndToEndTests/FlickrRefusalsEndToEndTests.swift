import Foundation
import Testing
import TopRegionsTestSupport

/// Issue 26.8: a failure retrying cannot mend ends flickr-recent and place-resolve alike,
/// with 69 and the same words (place-resolve said 75, as if a later run could do better,
/// and went on asking every other place); and a lookup holds at most its own small answer
/// in memory, however endless the body.
@Suite struct FlickrRefusalsEndToEndTests {
    /// The fault, and what both tools say about it after "<method>: ".
    static let refusals: [(fault: String, message: String, placeMessage: String)] = [
        ("status=400", "HTTP 400", "HTTP 400"),
        ("status=404", "HTTP 404", "HTTP 404"),
        ("redirect=ftp%3A%2F%2F127.0.0.1%2Fservices%2Frest%2F", "only http and https URLs are fetched", "only http and https URLs are fetched"),
        ("body_fault=endless-html", "larger than the 16M limit", "larger than the 1M limit"),
        ("body_fault=huge-length", "larger than the 16M limit (Content-Length 10737418240 bytes)", "larger than the 1M limit (Content-Length 10737418240 bytes)"),
    ]

    @Test func aRefusalEndsBothToolsWith69AndStopsTheLookups() throws {
        let setup = try NetworkEndToEndTests.Setup()
        let recent = try Tools.run("flickr-recent", ["-q", "--db", setup.scratch.file("scratch.db"), "--pages", "1"], environment: setup.environment)
        #expect(recent.status == 0, "\(recent.stderr)")
        let records = recent.stdoutBytes
        let pendingDB = setup.scratch.file("pending.db")
        #expect(try Tools.run("regions-load", ["-q", "--db", pendingDB], input: records, environment: setup.environment).status == 0)

        for (index, refusal) in Self.refusals.enumerated() {
            try setup.fake.control("/_fake/faults?faults_on=rest&" + refusal.fault)
            let before = try setup.fake.requests().count
            let search = try Tools.run("flickr-recent", ["-q", "--db", setup.scratch.file("recent-\(index).db")], environment: setup.environment)
            #expect(search.status == 69 && search.stderr == "flickr-recent: flickr.photos.search: \(refusal.message)\n", "\(search.status) \(search.stderr)")
            #expect(search.stdout.isEmpty)

            // One lookup at a time: the first refusal is the last request. The records pass
            // through unchanged, without regions.
            let resolve = try Tools.run(
                "place-resolve", ["-q", "--db", setup.scratch.file("resolve-\(index).db"), "--parallel", "1"], input: records, environment: setup.environment)
            // Every record with a place: none is known to this new database.
            let unresolved = String(decoding: records, as: UTF8.self).split(separator: "\n").filter { $0.contains("\"place_id\"") }.count
            #expect(resolve.status == 69 && resolve.stderr == "place-resolve: flickr.places.getInfo: \(refusal.placeMessage); \(unresolved) records passed on without a region (place-resolve --pending gives them one once it can look their places up)\n", "\(resolve.status) \(resolve.stderr)")
            #expect(resolve.stdoutBytes == records)
            let pending = try Tools.run("place-resolve", ["-q", "--db", pendingDB, "--pending", "--parallel", "1"], environment: setup.environment)
            #expect(pending.status == 69 && pending.stderr == "place-resolve: flickr.places.getInfo: \(refusal.placeMessage)\n", "\(pending.status) \(pending.stderr)")
            // Not retried, not asked again: one search, one lookup per place-resolve.
            let asked = try setup.fake.requests().dropFirst(before).map { $0.method ?? "" }
            #expect(asked == ["flickr.photos.search", "flickr.places.getInfo", "flickr.places.getInfo"], "\(refusal.fault): \(asked)")
        }
        #expect(try sqlite(pendingDB, "SELECT COUNT(*) FROM place") == "0", "no refusal was remembered as an answer")
    }

    @Test func thirtyTwoLookupsUnderAnEndlessBodyHoldLittleMemory() throws {
        let setup = try NetworkEndToEndTests.Setup()
        let recent = try Tools.run("flickr-recent", ["-q", "--db", setup.scratch.file("scratch.db"), "--pages", "1"], environment: setup.environment)
        #expect(recent.status == 0, "\(recent.stderr)")
        // 32 records of 32 places: one lookup for each worker.
        var places = Set<String>()
        let records = recent.stdout.split(separator: "\n").filter { line in
            let record = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            guard let place = record["place_id"] as? String, places.count < 32 else { return false }
            return places.insert(place).inserted
        }
        #expect(records.count == 32)
        try setup.fake.control("/_fake/faults?faults_on=rest&body_fault=endless-html")
        // GNU time's maximum resident set size, in KB, on its own last line.
        let run = try Tools.run(
            "/usr/bin/time", ["-f", "%M", Tools.path("place-resolve"), "-q", "--db", setup.db, "--parallel", "32"],
            input: Array(records.map { $0 + "\n" }.joined().utf8), environment: setup.environment)
        let lines = run.stderr.split(separator: "\n")
        #expect(run.status == 69 && lines.first?.hasPrefix("place-resolve: flickr.places.getInfo: larger than the 1M limit; ") == true, "\(run.stderr)")
        // Each of 32 lookups held up to 16 MB (and twice that while its buffer grew): several
        // hundred MB. Now each holds at most 1 MB.
        let kilobytes = Int(lines.last ?? "") ?? .max
        #expect(kilobytes < 160_000, "peak \(kilobytes) KB")
    }
}
