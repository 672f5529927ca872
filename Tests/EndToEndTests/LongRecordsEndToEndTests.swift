import Foundation
import Testing
import TopRegionsTestSupport

/// Issue 26.2: every stage's work on a line is linear in its bytes, however many members
/// one record has. A record of 80,000 unknown members (1.2 MB) took regions-load minutes
/// when each member was looked up among those before it; linear, it takes well under a
/// second. Each run has a minute (`timeout`), far more than the linear work needs and far
/// less than the quadratic one took, so the test asserts no timing, only that the run ends
/// with exactly the output it must.
@Suite struct LongRecordsEndToEndTests {
    static let members = 80_000

    /// `{"u0":0,"u1":1,…}`'s members, as JSONWriter writes them (no spaces).
    static let unknownMembers = (0..<members).map { "\"u\($0)\":\($0)" }.joined(separator: ",")

    static func record(id: String, extra: String) -> String {
        #"{"id":"\#(id)","owner":"1@N01","latitude":1.5,"longitude":2.5,"thumb_url":"http://x/s.jpg","photo_url":"http://x/b.jpg",\#(extra)}"#
    }

    /// A stage under a time limit it only reaches when its work is not linear.
    static func withinAMinute(_ tool: String, _ arguments: [String], input: [UInt8], environment: [String: String]) throws -> RunResult {
        try Tools.run("/usr/bin/timeout", ["-s", "KILL", "60", Tools.path(tool)] + arguments, input: input, environment: environment)
    }

    @Test func aRecordWithEightyThousandMembersGoesThroughEveryStage() throws {
        let scratch = TemporaryDirectory()
        let env = Tools.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        // The first line takes the loader's fast way; the second repeats a member name, which
        // the record decoder reads (the name keeps its first place and takes its last value).
        let plain = Self.record(id: "1", extra: Self.unknownMembers)
        let repeated = Self.record(id: "2", extra: Self.unknownMembers + #","u5":"again""#)
        let input = Array((plain + "\n" + repeated + "\n").utf8)
        let expectedExtra = Self.unknownMembers.replacingOccurrences(of: #""u5":5,"#, with: #""u5":"again","#)

        let load = try Self.withinAMinute("regions-load", ["--db", db], input: input, environment: env)
        #expect(load.status == 0 && load.stderr == "regions-load: read 2, new 2, updated 0, already stored 0\n", "\(load.status) \(load.stderr)")
        #expect(try sqlite(db, "SELECT extra FROM photo WHERE id = '1'") == "{\(Self.unknownMembers)}")
        #expect(try sqlite(db, "SELECT extra FROM photo WHERE id = '2'") == "{\(expectedExtra)}")

        // place-resolve passes records on: these have no place, so nothing is looked up.
        let resolve = try Self.withinAMinute("place-resolve", ["-q", "--db", db], input: input, environment: env)
        #expect(resolve.status == 0, "\(resolve.status) \(resolve.stderr)")
        let known = #"{"id":"ID","owner":"1@N01","owner_name":"","title":"","description":"","latitude":1.5,"longitude":2.5,"thumb_url":"http://x/s.jpg","photo_url":"http://x/b.jpg","#
        let expected = known.replacingOccurrences(of: "ID", with: "1") + Self.unknownMembers + "}\n"
            + known.replacingOccurrences(of: "ID", with: "2") + expectedExtra + "}\n"
        #expect(resolve.stdout == expected)
    }
}
