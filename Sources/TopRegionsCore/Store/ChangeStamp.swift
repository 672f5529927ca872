import Foundation
import GRDB

/// What a page computed from the whole store (the map of all 15,000 photos of a region, a
/// search's ranked matches) depends on, so a server can keep it until that changes instead of
/// computing it again for every request: the content (photos, their places, regions and
/// photographers), and for Recents the views too.
///
/// The content version is a counter in `store_state` that every write transaction that may
/// change what lists hold adds one to (`Store.write`, by any process); writes that change
/// nothing a list shows besides Recents (a view, a thumbnail, the Flickr call ledger) leave it
/// alone. A file's size and time, which this stamp was before, change with every commit:
/// each view and each thumbnail a person's browsing stored threw every kept map away.
///
/// Read it before the data it stamps: a commit between the two makes the stamp older than
/// the data, which only costs one more computation later, never a stale answer.
public struct ChangeStamp: Sendable, Equatable, Hashable {
    let content: Int64
    /// The Recents sequence, for what Recents shows; nil for everything else.
    let views: Int64?
}

extension Store {
    /// The stamp of what lists show; `views`: of Recents too.
    public func changeStamp(views: Bool = false) throws -> ChangeStamp {
        try readStatement { db in
            let rows = try Row.fetchAllCached(db, sql: "SELECT key, value FROM store_state WHERE key IN ('content_version', 'view_seq')")
            var stamp = (content: Int64(0), views: Int64(0))
            for row in rows {
                if row[0] as String == "content_version" { stamp.content = row[1] ?? 0 } else { stamp.views = row[1] ?? 0 }
            }
            return ChangeStamp(content: stamp.content, views: views ? stamp.views : nil)
        }
    }

    /// Adds one to the content version, in the transaction under way.
    static func contentChanged(_ db: Database) throws {
        try db.executeCached(sql: """
            INSERT INTO store_state (key, value) VALUES ('content_version', 1)
            ON CONFLICT (key) DO UPDATE SET value = value + 1
            """)
    }
}
