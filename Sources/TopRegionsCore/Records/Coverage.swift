/// What one `flickr-recent` run fetched: every photo Flickr had uploaded in `from...to`
/// (Unix seconds, both included). A run that reached its query's last page covered up to when
/// it asked; one cut short (by --pages, a failure, the hourly limit) only up to the second
/// before the newest upload it printed, since photos come oldest first.
public struct RefreshRun: Sendable, Equatable {
    /// When the run asked (its clock).
    public var startedAt: Int64
    public var from: Int64
    public var to: Int64
    /// How many photos Flickr said the run's first query matched (the search's `total`).
    public var flickrTotal: Int?
    /// How many photos the run printed.
    public var photos: Int
    /// Whether it reached its query's last page.
    public var complete: Bool

    public init(startedAt: Int64, from: Int64, to: Int64, flickrTotal: Int?, photos: Int, complete: Bool) {
        self.startedAt = startedAt
        self.from = from
        self.to = to
        self.flickrTotal = flickrTotal
        self.photos = photos
        self.complete = complete
    }
}

/// How far the refreshes recorded in a database cover a window of upload time: the spans no
/// run fetched (gaps, where counts are missing rather than zero), and whether the newest
/// stored photo is older than the window.
///
/// Coverage is known from the first recorded run on: photos stored before runs were
/// recorded (by an older version, or loaded from a file) are not said to be in a gap.
public struct Coverage: Sendable, Equatable {
    /// The runs whose spans touch the span asked about, in any order.
    public var runs: [RefreshRun]
    /// The oldest and newest upload times of the stored photos (nil: none stored).
    public var oldestUpload: Int64?
    public var newestUpload: Int64?
    /// Where recorded coverage starts: the earliest `from` of any run recorded (nil: none).
    public var knownFrom: Int64?

    /// Uncovered spans shorter than this are not gaps: the time between two cron runs (a few
    /// an hour), or since the last one, is not news. A tenth of a shorter window, so that
    /// the last hour does not miss a third of itself in silence; never under 5 minutes.
    public static func tolerance(windowLength: Int64?) -> Int64 {
        max(5 * 60, min(30 * 60, (windowLength ?? Int64.max) / 10))
    }

    public init(runs: [RefreshRun], oldestUpload: Int64?, newestUpload: Int64?, knownFrom: Int64?) {
        self.runs = runs
        self.oldestUpload = oldestUpload
        self.newestUpload = newestUpload
        self.knownFrom = knownFrom
    }

    /// A span of upload time no run covered, both ends included.
    public struct Gap: Sendable, Equatable {
        public var from: Int64
        public var to: Int64
        /// Whether it reaches the window's end: nothing was fetched since `from` (the last
        /// refresh covered up to `from - 1`).
        public var isRecent: Bool

        public init(from: Int64, to: Int64, isRecent: Bool) {
            self.from = from
            self.to = to
            self.isRecent = isRecent
        }
    }

    /// What a window's answer should say of its coverage.
    public enum Finding: Sendable, Equatable {
        /// The newest stored photo was uploaded before the window began: nothing in it,
        /// because nothing was fetched since (`newest`: that photo's upload time).
        case stale(newest: Int64)
        /// The window begins before the first stored photo and the first recorded run:
        /// nothing uploaded before this time was ever fetched.
        case beginsAt(Int64)
        case gap(Gap)
    }

    /// The findings for the photos uploaded in `(start, end]` (`start` nil: from the first
    /// stored photo); `endsNow`: the window ends at the present, so a span since the last run
    /// is the present not yet fetched.
    public func findings(start: Int64?, end: Int64, endsNow: Bool) -> [Finding] {
        guard let newest = newestUpload, let oldest = oldestUpload else { return [] }
        let tolerance = Self.tolerance(windowLength: start.map { end - $0 })
        if let start, newest <= start {
            // Nothing stored in the window. Stale, unless a run fetched up to the window's
            // end and found nothing in it (then the empty answer is the whole truth); a
            // window ending in the past (--until) too.
            let fetchedThrough = runs.map(\.to).max() ?? Int64.min
            return fetchedThrough < end - tolerance ? [.stale(newest: newest)] : []
        }
        var findings: [Finding] = []
        let first = start.map { $0 + 1 } ?? oldest
        if start != nil, first + tolerance <= min(oldest, knownFrom ?? oldest) {
            findings.append(.beginsAt(min(oldest, knownFrom ?? oldest)))
        }
        guard let knownFrom else { return findings }
        return findings + gaps(from: max(first, knownFrom), to: end, endsNow: endsNow, tolerance: tolerance).map(Finding.gap)
    }

    /// Whether nothing was fetched of `(start, end]`, which holds no stored photo: the runs
    /// reached less than a gap's `tolerance` into it (a run's first second is often its
    /// last), and it lies either before the first stored photo or where the runs recorded
    /// say what was fetched. Its zeros are missing counts, not counts: a rising list has
    /// nothing to compare with there.
    public func neverFetched(start: Int64, end: Int64) -> Bool {
        guard let oldest = oldestUpload, end > start else { return false }
        let uncovered = gaps(from: start + 1, to: end, endsNow: false, tolerance: 1).reduce(Int64(0)) { $0 + $1.to - $1.from + 1 }
        if (end - start) - uncovered >= Self.tolerance(windowLength: end - start) { return false }
        if end < oldest { return true }
        guard let knownFrom else { return false }
        return start >= knownFrom
    }

    /// The spans within `from...to` no run covered, at least `tolerance` long, oldest first.
    func gaps(from: Int64, to: Int64, endsNow: Bool, tolerance: Int64) -> [Gap] {
        guard from <= to else { return [] }
        var gaps: [Gap] = []
        var next = from  // the first second not known to be covered
        for run in runs.sorted(by: { ($0.from, $0.to) < ($1.from, $1.to) }) where run.to >= next {
            if run.from > to { break }
            if run.from > next, run.from - next >= tolerance {
                gaps.append(Gap(from: next, to: run.from - 1, isRecent: false))
            }
            next = max(next, run.to + 1)
            if next > to { return gaps }
        }
        if to - next + 1 >= tolerance {
            gaps.append(Gap(from: next, to: to, isRecent: endsNow))
        }
        return gaps
    }
}
