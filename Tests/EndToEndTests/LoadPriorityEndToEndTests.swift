import Foundation
import Testing
import TopRegionsTestSupport

/// Issue 35.3 through the built binary: regions-load reads its records on a thread of the
/// least priority (nice 19) and writes them on one of the priority it was started with, so
/// that a server's pages beside a cron load get the second core first.
@Suite struct LoadPriorityEndToEndTests {
    /// Whether this kernel groups sessions (CONFIG_SCHED_AUTOGROUP): without, a load has no
    /// session weight to lower, and does not.
    static let hasAutogroups = FileManager.default.fileExists(atPath: "/proc/self/autogroup")

    /// (name, nice value) of each of `pid`'s threads, the main one first.
    static func threads(of pid: pid_t) -> [(name: String, nice: Int)] {
        let tids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []).compactMap(pid_t.init).sorted()
        return tids.compactMap { tid in
            // Field 19 of stat (nice).
            guard let name = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/comm", encoding: .utf8),
                  let fields = Processes.statFields("/proc/\(pid)/task/\(tid)/stat"),
                  fields.count > 16, let nice = Int(fields[16])
            else { return nil }
            return (name.trimmingCharacters(in: .newlines), nice)
        }
    }

    /// A FIFO for a load's input, and its write end, open. Not blocking: the FIFO has a reader
    /// and a writer at once. Close-on-exec: a process another test starts meanwhile would
    /// otherwise hold the write end open, and the load would not see its input end until that
    /// process did.
    static func heldOpenFIFO(in scratch: TemporaryDirectory) throws -> (path: String, writeEnd: Int32) {
        let fifo = scratch.file("records.ndjson")
        try #require(mkfifo(fifo, 0o600) == 0)
        let writeEnd = open(fifo, O_RDWR | O_CLOEXEC)
        try #require(writeEnd >= 0)
        return (fifo, writeEnd)
    }

    static func writeRecord(to writeEnd: Int32) {
        let record = Array(#"{"id":"1","owner":"a@N01","owner_name":"A"}"#.utf8 + [UInt8(ascii: "\n")])
        #expect(record.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) } == record.count)
    }

    /// The load reads from a FIFO the test holds open: its decoder waits in the middle of the
    /// input, one record read, while the test looks at the threads.
    @Test func theDecoderRunsAtTheLeastPriorityAndTheWriterAtTheLoads() throws {
        let scratch = TemporaryDirectory()
        let (fifo, writeEnd) = try Self.heldOpenFIFO(in: scratch)
        Self.writeRecord(to: writeEnd)

        let db = scratch.file("photos.db")
        let load = try Tools.start("regions-load", ["--db", db, fifo], environment: Tools.environment(home: scratch.path))
        var seen: [(name: String, nice: Int)] = []
        #expect(Processes.within(30) {
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

    /// Without a terminal (as from cron: a session of its own, none controlling it) the load
    /// lowers its session's CPU weight to nice 19 while it runs, and puts it back as it ends:
    /// the shell that started it, of the same session, reads nice 0 again after it.
    @Test(.enabled(if: Self.hasAutogroups, "no /proc/self/autogroup: the kernel has no autogroup scheduling"))
    func withoutATerminalTheLoadLowersItsSessionsWeightWhileItRuns() throws {
        let scratch = TemporaryDirectory()
        let (fifo, writeEnd) = try Self.heldOpenFIFO(in: scratch)
        let pidFile = scratch.file("load.pid")
        var environment = Tools.environment(home: scratch.path)
        environment["LOAD"] = Tools.path("regions-load")
        environment["DB"] = scratch.file("photos.db")
        environment["FIFO"] = fifo
        environment["PIDFILE"] = pidFile
        // setsid -w: a new session, with no terminal, whose end it waits for.
        let session = try Tools.start("/usr/bin/setsid", ["-w", "/bin/sh", "-c", #"""
            cat /proc/self/autogroup
            "$LOAD" -v --db "$DB" "$FIFO" & echo $! > "$PIDFILE"; wait $!; status=$?
            cat /proc/self/autogroup; exit $status
            """#], environment: environment)
        var during = ""
        #expect(Processes.within(30) {
            // Once its decoder runs, the load has lowered the weight (before it opens its input).
            guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8), let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)),
                  Self.threads(of: pid).contains(where: { $0.name == "decoder" })
            else { return false }
            during = (try? String(contentsOfFile: "/proc/\(pid)/autogroup", encoding: .utf8)) ?? ""
            return true
        }, "the load did not start")
        #expect(during.hasSuffix(" nice 19\n"), "\(during)")
        Self.writeRecord(to: writeEnd)
        close(writeEnd)

        let answer = try session.wait()
        #expect(answer.status == 0, "\(answer.stderr)")
        #expect(answer.stdout.split(separator: "\n").map { $0.split(separator: " ").dropFirst().joined(separator: " ") } == ["nice 0", "nice 0"], "\(answer.stdout)")
        #expect(answer.stderr.hasPrefix("regions-load: no terminal: the session's CPU weight lowered from nice 0 to 19 while loading\n"), "\(answer.stderr)")
    }

    /// With a terminal (a person waiting at it) the session's weight is left as it is.
    @Test func inATerminalTheSessionsWeightIsLeftAlone() throws {
        let scratch = TemporaryDirectory()
        var environment = Tools.environment(home: scratch.path)
        environment["LOAD"] = Tools.path("regions-load")
        environment["DB"] = scratch.file("photos.db")
        // script: a new session whose controlling terminal is a pseudo-terminal.
        let answer = try Tools.run("/usr/bin/script", ["-qec", #""$LOAD" -v --db "$DB" < /dev/null"#, "/dev/null"], environment: environment)
        #expect(answer.status == 0, "\(answer.stdout)")
        #expect(answer.stdout.replacingOccurrences(of: "\r\n", with: "\n") == "regions-load: database \(scratch.file("photos.db"))\nregions-load: read 0, new 0, updated 0, already stored 0\n")
    }

    /// regions-serve's refresh starts its stages each in a session of its own (the server runs
    /// without a terminal, as a service does): the load lowers its own session's weight, not
    /// the server's, whose pages are to come first. Flickr's answers held back, so that the
    /// load waits for its input while the test looks.
    @Test(.enabled(if: Self.hasAutogroups, "no /proc/self/autogroup: the kernel has no autogroup scheduling"))
    func aServersRefreshLowersTheLoadsSessionNotTheServers() throws {
        let scratch = TemporaryDirectory()
        let fake = try FakeFlickrProcess(RefreshWhenEmptyEndToEndTests.world + ["--latency-ms", "10000"], scratch: scratch)
        let environment = fake.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        try Tools.makeEmptyDatabase(db, environment: environment)
        let server = try ServerProcess(["--db", db, "--cache-dir", scratch.file("cache"), "--port", "0", "-q"], environment: environment, scratch: scratch)
        defer { _ = server.stop() }
        // The first visit to a database without photos starts the refresh.
        _ = try HTTPExchange.request(server.base + "/", scratch: scratch)

        var load: pid_t?
        #expect(Processes.within(30) {
            load = Processes.children(of: server.process.processIdentifier).first { pid in
                (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) == "regions-load\n"
                    && Self.threads(of: pid).contains { $0.name == "decoder" }
            }
            return load != nil
        }, "no regions-load under the server")
        let pid = try #require(load)
        let session = { (pid: pid_t) in Processes.statFields("/proc/\(pid)/stat").map { String($0[3]) } }
        let autogroup = { (pid: pid_t) in (try? String(contentsOfFile: "/proc/\(pid)/autogroup", encoding: .utf8)) ?? "" }
        #expect(session(pid) == "\(pid)", "the load leads a session of its own")
        #expect(session(server.process.processIdentifier) != session(pid))
        #expect(autogroup(pid).hasSuffix(" nice 19\n"), "\(autogroup(pid))")
        let group = { (text: String) in text.split(separator: " ").first.map(String.init) }
        #expect(group(autogroup(server.process.processIdentifier)) != group(autogroup(pid)))
    }
}
