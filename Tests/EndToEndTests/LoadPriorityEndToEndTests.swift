import Foundation
import Testing
import TopRegionsTestSupport

/// Issue 35.3 through the built binary: regions-load reads its records on a thread of the
/// least priority (nice 19) and writes them on one of the priority it was started with, so
/// that a server's pages beside a cron load get the second core first.
@Suite struct LoadPriorityEndToEndTests {
    /// (name, nice value) of each of `pid`'s threads, the main one first.
    static func threads(of pid: pid_t) -> [(name: String, nice: Int)] {
        let tids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []).compactMap(pid_t.init).sorted()
        return tids.compactMap { tid in
            // Field 19 of stat (nice).
            guard let name = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/comm", encoding: .utf8),
                  let fields = RefreshKilledEndToEndTests.statFields("/proc/\(pid)/task/\(tid)/stat"),
                  fields.count > 16, let nice = Int(fields[16])
            else { return nil }
            return (name.trimmingCharacters(in: .newlines), nice)
        }
    }

    /// The load reads from a FIFO the test holds open: its decoder waits in the middle of the
    /// input, one record read, while the test looks at the threads.
    @Test func theDecoderRunsAtTheLeastPriorityAndTheWriterAtTheLoads() throws {
        let scratch = TemporaryDirectory()
        let fifo = scratch.file("records.ndjson")
        try #require(mkfifo(fifo, 0o600) == 0)
        // Not blocking: the FIFO has a reader and a writer at once. Close-on-exec: a process
        // another test starts meanwhile would otherwise hold the write end open, and the load
        // would not see its input end until that process did.
        let writeEnd = open(fifo, O_RDWR | O_CLOEXEC)
        try #require(writeEnd >= 0)
        let record = Array(#"{"id":"1","owner":"a@N01","owner_name":"A"}"#.utf8 + [UInt8(ascii: "\n")])
        #expect(record.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) } == record.count)

        let db = scratch.file("photos.db")
        let load = try Tools.start("regions-load", ["--db", db, fifo], environment: Tools.environment(home: scratch.path))
        var seen: [(name: String, nice: Int)] = []
        #expect(RefreshKilledEndToEndTests.within(30) {
            // Named once its priority is lowered.
            seen = Self.threads(of: load.pid)
            return seen.contains { $0.name == "decoder" }
        }, "no decoder thread: \(seen)")
        // The main thread writes, at the priority the load was started with (this test's).
        #expect((seen.first?.nice ?? 19) < 19, "the main thread: \(seen)")
        #expect(seen.filter { $0.name == "decoder" }.map(\.nice) == [19], "\(seen)")
        close(writeEnd)

        let answer = try load.wait()
        #expect(answer.status == 0)
        #expect(answer.stderr == "regions-load: read 1, new 1, updated 0, already stored 0\n")
    }
}
