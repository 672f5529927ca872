import CSupport

/// A thread's share of the CPU beside the others (Linux: each thread has a nice value of
/// its own).
public enum ThreadPriority {
    /// Makes the calling thread `increment` nicer (up to 19, the least priority). Whether
    /// it could: a failure (a system that refuses) leaves the thread as it was, which costs
    /// only what the lower priority would have spared others.
    @discardableResult
    public static func lowerThisThread(by increment: Int32) -> Bool {
        tr_nice_this_thread(increment) == 0
    }
}
