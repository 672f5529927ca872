import Foundation
import GRDB

/// Square thumbnails kept in the database, one per photo (deleted with it).
package struct ThumbnailStore: Sendable {
    package let store: Store

    package init(store: Store) {
        self.store = store
    }

    static func bytes(of photoID: String, _ db: Database) throws -> [UInt8]? {
        let select = try db.cachedStatement(sql: "SELECT bytes FROM thumbnail WHERE photo_id = ?")
        return try Data.fetchOne(select, arguments: [photoID]).map { [UInt8]($0) }
    }

    /// A connection for one thread to ask, photo after photo, whether a thumbnail is stored.
    package func lookup() throws -> Lookup {
        Lookup(store: store, reader: try store.separateReader())
    }

    /// Asks on a read-only connection of its own: a downloader asks once per photo, inside
    /// the photo's lock, and through the store's shared readers the downloaders queued for
    /// each other (a sixth of a cold thumb-get's time).
    package final class Lookup {
        private let store: Store
        private let reader: DatabaseQueue

        fileprivate init(store: Store, reader: DatabaseQueue) {
            self.store = store
            self.reader = reader
        }

        package func bytes(of photoID: String) throws -> [UInt8]? {
            // One statement, so its own read transaction: it sees every commit made before it.
            try store.naming { try reader.inDatabase { db in try ThumbnailStore.bytes(of: photoID, db) } }
        }
    }

    /// Keeps thumbnails of several photos in one transaction (one commit, one sync of the
    /// WAL): all of them are stored, or none. The first thumbnail stored for a photo stays;
    /// a later one is ignored.
    package func keep(_ thumbnails: [(photoID: String, bytes: [UInt8], fetchedAt: Int64)]) throws {
        guard !thumbnails.isEmpty else { return }
        try store.write(changesContent: false) { db in
            let insert = try db.cachedStatement(
                sql: "INSERT INTO thumbnail (photo_id, bytes, fetched_at) VALUES (?, ?, ?) ON CONFLICT (photo_id) DO NOTHING")
            for thumbnail in thumbnails {
                try insert.execute(arguments: [thumbnail.photoID, Data(thumbnail.bytes), thumbnail.fetchedAt])
            }
        }
    }
}
