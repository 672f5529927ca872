import Foundation

/// What /proc says of a running process, and waiting for a condition on it: for end-to-end
/// tests that look at a tool while it runs (its children, its threads, whether it has ended).
public enum Processes {
    /// The processes whose parent is `pid`.
    public static func children(of pid: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(pid_t.init).filter { parent(of: $0) == pid }.sorted()
    }

    /// The fields of a /proc `stat` file (a process's or a thread's) after the command name
    /// in parentheses, which may hold spaces: the first is field 3 (the state); nil when the
    /// file is gone.
    public static func statFields(_ path: String) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: path, encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ")
    }

    /// Field 4 of /proc/PID/stat.
    public static func parent(of pid: pid_t) -> pid_t? {
        guard let fields = statFields("/proc/\(pid)/stat"), fields.count > 1 else { return nil }
        return pid_t(fields[1])
    }

    /// Whether `pid` has ended: gone, or a zombie nobody has reaped yet.
    public static func hasEnded(_ pid: pid_t) -> Bool {
        guard let fields = statFields("/proc/\(pid)/stat") else { return true }
        return fields.first == "Z"
    }

    /// Asks `condition` until it holds or `seconds` have passed; says whether it held.
    public static func within(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(10_000)
        }
        return try condition()
    }
}
