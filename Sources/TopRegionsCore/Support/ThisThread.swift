import CSupport

/// The calling thread's priority and name, as the system sees them (Linux: each thread has a
/// nice value and a name of its own, as `top -H` and /proc show them).
public enum ThisThread {
    /// The least priority: nice 19.
    public static let leastPriority: Int32 = 19

    /// Sets the calling thread's nice value. Whether it could: a failure (a system that
    /// refuses) leaves the thread as it was, which costs only what the lower priority would
    /// have spared others. (Raising a priority may need privileges; lowering one never does.)
    @discardableResult
    public static func setNice(_ nice: Int32) -> Bool {
        tr_nice_this_thread(nice) == 0
    }

    /// Names the calling thread (15 bytes at most are kept). Foundation's `Thread.name` names
    /// the system's thread only when the thread object already knows its thread, which a
    /// thread just started may run before (a test saw the name missing under load).
    public static func setName(_ name: String) {
        _ = tr_name_this_thread(name)
    }
}
