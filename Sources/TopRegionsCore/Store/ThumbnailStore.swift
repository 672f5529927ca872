import Foundation
import GRDB

/// Square thumbnails kept in the database, one per photo (deleted with it).
package struct ThumbnailStore: Sendable {
    package let store: Store

    package init(store: Store) {
        self.store = store
    }

    package func bytes(of photoID: String) throws -> [UInt8]? {
        try store.read { db in
            try Data.fetchOne(db, sql: "SELECT bytes FROM thumbnail WHERE photo_id = ?", arguments: [photoID]).map { [UInt8]($0) }
        }
    }

    /// Keeps thumbnails of several photos in one transaction (one commit, one sync of the
    /// WAL): all of them are stored, or none. The first thumbnail stored for a photo stays;
    /// a later one is ignored.
    package func keep(_ thumbnails: [(photoID: String, bytes: [UInt8], fetchedAt: Int64)]) throws {
        guard !thumbnails.isEmpty else { return }
        try store.write { db in
            let insert = try db.cachedStatement(
                sql: "INSERT INTO thumbnail (photo_id, bytes, fetched_at) VALUES (?, ?, ?) ON CONFLICT (photo_id) DO NOTHING")
            for thumbnail in thumbnails {
                try insert.execute(arguments: [thumbnail.photoID, Data(thumbnail.bytes), thumbnail.fetchedAt])
            }
        }
    }
}
