import TopRegionsSupport

/// How many workers `--parallel` really gets: as many as asked, unless the descriptors
/// left under `ulimit -n` cannot hold them; then fewer (said once on stderr), and when not
/// even one fits, a one-line error (71) instead of a crash halfway through.
struct ParallelLimit {
    /// Descriptors one worker may hold at once. A libcurl handle alone holds three (its
    /// connection and the socket pair its internal multi handle wakes up with), and two more
    /// while a resolver thread looks a host name up.
    var perWorker: Int
    /// What one worker does, for messages ("downloads", "lookups").
    var work: String
    /// Descriptors kept free for the rest of the process: database connections opened
    /// later, output files, libcurl's certificate store.
    var reserve = 4

    func workers(_ wanted: Int, _ context: ToolContext) throws -> Int {
        Descriptors.adviseParallel()
        let affordable = Descriptors.workers(wanted: wanted, perWorker: perWorker, reserve: reserve)
        if affordable == wanted { return wanted }
        guard affordable >= 1 else { throw tooFew() }
        let noun = affordable == 1 ? String(work.dropLast()) : work
        context.diagnose("only \(Self.free) file descriptors free (ulimit -n \(Self.limit)): \(affordable) \(noun) at a time instead of \(wanted) (--parallel)")
        return affordable
    }

    /// For a tool with one worker and no --parallel (flickr-recent's one connection): fails
    /// unless the descriptors free hold it. Decided by that count, the same at every limit,
    /// not by whichever descriptor libcurl happens to miss first (it does without its
    /// wake-up pair when that fails, so a run one descriptor short of it failed while runs
    /// two short succeeded).
    func requireOne() throws {
        if Descriptors.workers(wanted: 1, perWorker: perWorker, reserve: reserve) < 1 { throw tooFew() }
    }

    private func tooFew() -> ToolError {
        ToolError(.osResource, "out of file descriptors (limit \(Self.limit)): \(Self.free) free, and one \(work.dropLast()) needs \(perWorker) with \(reserve) to spare; raise ulimit -n")
    }

    private static var limit: String { Descriptors.limit.map(String.init) ?? "?" }
    private static var free: String { Descriptors.free().map { String(max(0, $0)) } ?? "?" }
}
