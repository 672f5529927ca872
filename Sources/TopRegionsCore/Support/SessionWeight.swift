#if canImport(Glibc)
import Glibc
#endif

/// The share of the CPU the calling process's session gets beside other sessions.
///
/// Linux shares the CPU between sessions first (autogroup scheduling: a cron job, a terminal,
/// a server started on its own are each a group of their own) and only then between a
/// session's processes by their nice values; so `nice` on a cron load changes nothing for a
/// server in another session. A session's own weight is a nice value too, read and set through
/// /proc/self/autogroup; lowering it needs no privilege. Where there is no autogroup (another
/// system, the scheduling switched off, or a process in a cgroup of its own, where the
/// autogroup is ignored), lowering it changes nothing and costs nothing.
public struct SessionWeight: Sendable, Equatable {
    /// The session's nice value before it was lowered.
    public let before: Int32
    /// The nice value it was lowered to.
    public let lowered: Int32

    static let file = "/proc/self/autogroup"

    /// Lowers the session's weight to that of `nice` when the process has no controlling
    /// terminal (a cron job, a service, a script started with setsid: nobody waits at a
    /// keyboard for it) and the session's weight is above it. What it did, for `restore()`;
    /// nil when it changed nothing (a terminal, no autogroup, already as low, or refused).
    public static func lowerWithoutTerminal(to nice: Int32) -> SessionWeight? {
        guard let stat = read("/proc/self/stat"), !hasTerminal(stat: stat),
              let text = read(file), let before = niceValue(autogroup: text), before < nice,
              write(nice)
        else { return nil }
        return SessionWeight(before: before, lowered: nice)
    }

    /// Puts the session's weight back to what it was, unless something else changed it since
    /// (another process of the session, a person): then that stays.
    public func restore() {
        guard let text = Self.read(Self.file), Self.niceValue(autogroup: text) == lowered else { return }
        _ = Self.write(before)
    }

    /// Whether /proc/PID/stat's text names a controlling terminal (its seventh field, tty_nr,
    /// is not 0). The fields are counted after the command's name, which may hold spaces and
    /// parentheses: it ends at the last ')'.
    static func hasTerminal(stat: String) -> Bool {
        guard let close = stat.lastIndex(of: ")") else { return false }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // state, ppid, pgrp, session, tty_nr
        guard fields.count > 4, let terminal = Int64(fields[4]) else { return false }
        return terminal != 0
    }

    /// The nice value in /proc/PID/autogroup's text ("/autogroup-2149 nice 0").
    static func niceValue(autogroup text: String) -> Int32? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard words.count == 3, words[1] == "nice" else { return nil }
        return Int32(words[2])
    }

    private static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// Writes `nice` as the session's weight. The kernel takes such a change from an
    /// unprivileged process at most every 100 ms, machine-wide (EAGAIN before): tried again for
    /// up to about half a second, so that two loads starting together both get theirs.
    private static func write(_ nice: Int32) -> Bool {
        let text = Array("\(nice)\n".utf8)
        for attempt in 0..<20 {
            if attempt > 0 { usleep(25_000) }
            let fd = open(file, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { return false }
            let written = text.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            let failure = errno
            close(fd)
            if written == text.count { return true }
            guard written < 0, failure == EAGAIN else { return false }
        }
        return false
    }
}
