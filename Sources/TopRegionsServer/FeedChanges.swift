import Foundation

/// When each served feed, and each entry of the rising feed, last changed as this server has
/// seen it: what Last-Modified and an entry's `<updated>` say. A region feed's own
/// `<updated>` is its newest photo's upload, which a delete, a new title or a photo uploaded
/// earlier arriving late does not move, and the rising list's window ends at the present
/// minute: neither says when what a reader holds went out of date.
///
/// A content is known by its hash; the first time this server serves a new one is its time.
/// After a restart every feed is new once (a reader fetches it whole once more), and a
/// second change within the same second takes the next second, so that a reader holding the
/// first is never told 304; such a time, still ahead of the clock, is not sent.
final class FeedChanges: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [String: (content: UInt64, since: Int64)] = [:]
    /// At most this many feeds and entries remembered (about 100 bytes each): past it all are
    /// forgotten, and each is new once more.
    static let most = 8_192

    /// When `key`'s content (`content`, its hash) was first seen, `now` if it is new.
    func since(_ key: String, content: UInt64, now: Int64) -> Int64 {
        lock.withLock {
            if let known = seen[key], known.content == content { return known.since }
            let earlier = seen[key]?.since
            if seen.count >= Self.most { seen.removeAll(keepingCapacity: true) }
            let since = max(now, earlier.map { $0 + 1 } ?? now)
            seen[key] = (content, since)
            return since
        }
    }
}
