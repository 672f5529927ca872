import Foundation
import GRDB

extension ThumbnailStore {
    /// The stored thumbnails of `photoIDs` (photos without one are left out), in one query
    /// per 500 ids; nil when the database has no thumbnail table at all (a file from an older
    /// toolkit opened read-only, or one someone trimmed), so a page can still be drawn.
    package func bytes(of photoIDs: [String]) throws -> [String: [UInt8]]? {
        try store.read { db in
            guard try db.tableExists("thumbnail") else { return nil }
            var found: [String: [UInt8]] = [:]
            try Queries.inChunks(photoIDs) { marks, chunk in
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT photo_id, bytes FROM thumbnail WHERE photo_id IN (\(marks))",
                    arguments: StatementArguments(chunk))
                while let row = try rows.next() {
                    // Whatever is stored is handed over; a value that is not bytes comes out
                    // as bytes that are no image, and the page shows a placeholder for it.
                    let value: DatabaseValue = row[1]
                    switch value.storage {
                    case .blob(let data): found[row[0]] = [UInt8](data)
                    case .string(let text): found[row[0]] = Array(text.utf8)
                    default: found[row[0]] = []
                    }
                }
            }
            return found
        }
    }
}
