import CSupport

/// A thread's share of the CPU beside the others (Linux: each thread has a nice value of
/// its own).
public enum ThreadPriority {
    /// The least priority: nice 19.
    public static let least: Int32 = 19

    /// Sets the calling thread's nice value. Whether it could: a failure (a system that
    /// refuses) leaves the thread as it was, which costs only what the lower priority would
    /// have spared others. (Raising a priority may need privileges; lowering one never does.)
    @discardableResult
    public static func setThisThread(nice: Int32) -> Bool {
        tr_nice_this_thread(nice) == 0
    }
}
