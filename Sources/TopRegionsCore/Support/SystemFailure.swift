import Foundation
import Synchronization

/// Turns a failed system call's errno into the error a user reads: the resource that ran out
/// (descriptors, memory, disk) named in words, with its kind (so a tool can end with the
/// status scripts act on). A
/// resource failure is never reported as a missing file, and never ends in a trap.
public enum SystemFailure {
    /// `what` says what failed and where ("cannot open the lock file /x/.lock"); `otherwise`
    /// is the kind for errno values that are not about resources (e.g. `.cannotCreate` when
    /// a file cannot be created because of its permissions).
    public static func error(_ code: Int32, _ what: String, otherwise: Failure.Kind) -> Failure {
        if let resource = resourceProblem(code) {
            return Failure(resource.kind, "\(what): \(resource.reason)")
        }
        return Failure(otherwise, "\(what): \(String(cString: strerror(code)))")
    }

    /// What ran out, for errno values that mean a resource ran out; nil otherwise.
    public static func resourceProblem(_ code: Int32) -> (kind: Failure.Kind, reason: String)? {
        switch code {
        case EMFILE:
            return (.resourceExhausted, Descriptors.exhausted)
        case ENFILE:
            return (.resourceExhausted, "the system is out of file descriptors (ENFILE); close other programs or raise fs.file-max")
        case ENOMEM:
            return (.resourceExhausted, "out of memory")
        case EAGAIN:
            return (.resourceExhausted, "a resource is temporarily unavailable (EAGAIN: processes or threads, ulimit -u)")
        case ENOLCK:
            return (.resourceExhausted, "out of file locks (ENOLCK)")
        case ENOSPC:
            return (.inputOutput, "no space left on the device")
        case EDQUOT:
            return (.inputOutput, "disk quota exceeded")
        case EIO:
            return (.inputOutput, "input/output error (EIO)")
        case EFBIG:
            return (.inputOutput, "file too large (EFBIG: ulimit -f or the file system's limit)")
        default:
            return nil
        }
    }

    /// Whether `code` says a resource ran out (as opposed to a file that is missing or
    /// forbidden).
    public static func isResourceProblem(_ code: Int32) -> Bool {
        resourceProblem(code) != nil
    }
}

/// The process's file descriptors: how many it may have, how many are open, and how many
/// workers of a given appetite fit in what is left.
public enum Descriptors {
    /// The soft limit on open descriptors (`ulimit -n`); nil when unlimited or unknown.
    public static var limit: Int? {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0, limits.rlim_cur != rlim_t.max else { return nil }
        return Int(clamping: limits.rlim_cur)
    }

    /// Descriptors open in this process now (from /proc/self/fd); nil when it cannot tell.
    public static func openCount() -> Int? {
        guard let directory = opendir("/proc/self/fd") else {
            // Not even one left to list them with: all are open.
            return errno == EMFILE ? limit : nil
        }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = entry.pointee.d_name
            let isDot = withUnsafeBytes(of: name) { $0.first == UInt8(ascii: ".") }
            if !isDot { count += 1 }
        }
        // The directory being listed is open too, but only while listing.
        return max(0, count - 1)
    }

    /// Descriptors that can still be opened; nil when there is no limit (or it is unknown).
    public static func free() -> Int? {
        guard let limit else { return nil }
        // Without /proc, assume every descriptor below the highest open one is taken.
        return limit - (openCount() ?? limit / 2)
    }

    /// Starts libdispatch's event loop now, while descriptors are free. It opens three, and
    /// traps if it cannot: its manager thread's epoll and eventfd when the first worker thread
    /// starts, and a timerfd when it first arms a timer, which it does on its own time for its
    /// thread pool's monitor (a tool that used its last descriptors first would die of SIGILL
    /// halfway through, or finish just before, as the race went). Returns the error to end
    /// with when not even those three are free.
    public static func prepareDispatch() -> Failure? {
        if let free = free(), free < 4 {
            let limit = limit.map { " (limit \($0))" } ?? ""
            return Failure(.resourceExhausted, "out of file descriptors\(limit) before starting; raise ulimit -n")
        }
        let ran = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { ran.signal() }
        ran.wait()
        // A timer of ours fires after the manager has programmed the timers it holds, the
        // monitor's among them; rarely, late, it finds ours due and programs the rest after.
        var rounds = 0
        while rounds < 100 && !timerOpen() {
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(1)) { ran.signal() }
            ran.wait()
            rounds += 1
        }
        return nil
    }

    /// Whether one of this process's descriptors is a timerfd (libdispatch's); true when it
    /// cannot tell.
    static func timerOpen() -> Bool {
        guard let directory = opendir("/proc/self/fd") else { return true }
        defer { closedir(directory) }
        var target = [CChar](repeating: 0, count: 64)
        while let entry = readdir(directory) {
            let length = withUnsafeBytes(of: entry.pointee.d_name) { name in
                name.withMemoryRebound(to: CChar.self) { name in
                    readlinkat(dirfd(directory), name.baseAddress!, &target, target.count - 1)
                }
            }
            if length > 0, String(decoding: target.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) == "anon_inode:[timerfd]" {
                return true
            }
        }
        return false
    }

    /// What to do about running out: tools with --parallel say so (`adviseParallel`).
    private static let advice = Mutex("raise ulimit -n")

    /// From now on, running out of descriptors suggests lowering --parallel too.
    public static func adviseParallel() {
        advice.withLock { $0 = "lower --parallel or raise ulimit -n" }
    }

    /// "out of file descriptors (limit 64); lower --parallel or raise ulimit -n"
    public static var exhausted: String {
        let limit = limit.map { " (limit \($0))" } ?? ""
        return "out of file descriptors\(limit); \(advice.withLock { $0 })"
    }

    /// How many workers fit: each takes `perWorker` descriptors, and `reserve` stay free for
    /// the rest of the process (database connections opened later, files written at the
    /// end). At most `wanted`; 0 when not even one fits.
    public static func workers(wanted: Int, perWorker: Int, reserve: Int) -> Int {
        guard let free = free() else { return wanted }
        return max(0, min(wanted, (free - reserve) / perWorker))
    }
}
