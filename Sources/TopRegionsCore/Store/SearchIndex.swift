import GRDB

/// The full-text index of photos: `photo_fts`, an FTS5 table over each photo's title,
/// description, photographer's name and region's name, shaped as sqlite-utils'
/// `enable-fts` makes it (`content=[photo]`), so that Datasette offers a search box on the
/// photo table and `sqlite3` users can `SELECT ... FROM photo_fts WHERE photo_fts MATCH`.
///
/// An external-content index keeps no copy of the text: it reads the columns it needs
/// from `photo` by name (hence `photo.owner_name` and `photo.region_name`), and taking a
/// photo out of it needs the exact values it was indexed with. So whoever changes an
/// indexed column, or deletes a photo, first `remove`s the photos from the index (while
/// they still hold their old values), changes them, then `add`s them back: always in the
/// writer's transaction, one statement per set of photos, never one per photo.
///
/// The index is keyed by `photo.rowid`. Nothing in the toolkit renumbers rows (SQLite's
/// VACUUM keeps them); after anything that might, `INSERT INTO photo_fts (photo_fts)
/// VALUES ('rebuild')` makes the index again from the photos (and `unindexed_photo` is
/// emptied).
///
/// A photo may wait to be indexed: every photo is either in the index or listed in
/// `unindexed_photo`, never both. A load holds back the new photos of a photographer whose
/// records rename them (`PendingRenames`) until it writes the rename, at its end: indexed
/// then, once, with the name they end with. Indexed as they came, each would be taken out
/// and put back by the rename: most of the time a load of renamed records took over the
/// same records without renames (issue 35.13). `remove` and `add` leave the waiting photos
/// alone (they are indexed as they are when their turn comes); whoever deletes photos
/// `forget`s them. Waiting photos are found by a search only once indexed: a load indexes
/// them before it ends, and one killed before that leaves them for the next transaction of
/// any writer that holds none back (`BatchGroup.finish`).
enum SearchIndex {
    /// The indexed columns of `photo`, in the index's order.
    static let columns = "title, description, owner_name, region_name"

    /// Words are Unicode letters and digits, compared without case or diacritics:
    /// "ile" finds "Île-de-France".
    static let createSQL = """
        CREATE VIRTUAL TABLE photo_fts USING fts5(
            \(columns),
            content=[photo], tokenize='unicode61 remove_diacritics 2'
        )
        """

    /// Takes the photos that `condition` (over `photo`) selects out of the index. Call it
    /// before they change or go: it needs the values they were indexed with.
    /// Photos waiting to be indexed are left alone.
    static func remove(_ db: Database, photosWhere condition: String, arguments: StatementArguments = []) throws {
        try db.executeCached(sql: """
            INSERT INTO photo_fts (photo_fts, rowid, \(columns))
                SELECT 'delete', rowid, \(columns) FROM photo WHERE (\(condition)) AND \(indexed)
            """, arguments: arguments)
    }

    /// Puts the photos that `condition` (over `photo`) selects into the index, as they are
    /// now; photos waiting to be indexed are left to wait.
    static func add(_ db: Database, photosWhere condition: String, arguments: StatementArguments = []) throws {
        try db.executeCached(sql: """
            INSERT INTO photo_fts (rowid, \(columns))
                SELECT rowid, \(columns) FROM photo WHERE (\(condition)) AND \(indexed)
            """, arguments: arguments)
    }

    /// A photo (`photo.rowid`) not waiting to be indexed.
    private static let indexed = "rowid NOT IN (SELECT photo FROM unindexed_photo)"

    /// Takes the photos that `condition` selects out of the index, or off the list of those
    /// waiting for it: call it before deleting them (a row id may be taken again by a new
    /// photo, which must not find itself listed).
    static func forget(_ db: Database, photosWhere condition: String, arguments: StatementArguments = []) throws {
        try remove(db, photosWhere: condition, arguments: arguments)
        try db.executeCached(sql: """
            DELETE FROM unindexed_photo WHERE photo IN (SELECT rowid FROM photo WHERE \(condition))
            """, arguments: arguments)
    }

    /// Indexes the photos inserted after row id `lastStored` (`lastRowID`), but for those
    /// of the photographers in `temp.held_back_photographer` when `holdingBack`: they wait
    /// in `unindexed_photo`. New photos are never listed there (`forget`), so no check.
    static func addNew(_ db: Database, after lastStored: Int64, holdingBack: Bool) throws {
        guard holdingBack else {
            try db.executeCached(sql: """
                INSERT INTO photo_fts (rowid, \(columns)) SELECT rowid, \(columns) FROM photo WHERE rowid > ?
                """, arguments: [lastStored])
            return
        }
        try db.executeCached(sql: """
            INSERT INTO unindexed_photo (photo)
                SELECT rowid FROM photo WHERE rowid > ? AND photographer IN (SELECT id FROM held_back_photographer)
            """, arguments: [lastStored])
        try db.executeCached(sql: """
            INSERT INTO photo_fts (rowid, \(columns))
                SELECT rowid, \(columns) FROM photo WHERE rowid > ? AND photographer NOT IN (SELECT id FROM held_back_photographer)
            """, arguments: [lastStored])
    }

    /// Photos indexed per statement, at most: a statement's changes to the index wait in
    /// memory until it ends (65k photos at once peaked 5 MB above a load).
    static let photosPerStatement = 4_000

    /// Whether any photo waits to be indexed.
    static func hasWaiting(_ db: Database) throws -> Bool {
        try Bool.fetchOneCached(db, sql: "SELECT EXISTS (SELECT 1 FROM unindexed_photo)")!
    }

    /// Indexes every photo waiting for it, as it is now.
    static func indexWaiting(_ db: Database) throws {
        try inChunks(of: "unindexed_photo", db) { chunk in
            try db.executeCached(sql: """
                INSERT INTO photo_fts (rowid, \(columns)) SELECT rowid, \(columns) FROM photo WHERE rowid IN (\(chunk))
                """, arguments: chunk.arguments)
        }
        try db.executeCached(sql: "DELETE FROM unindexed_photo")
    }

    /// The photos listed in `table` (row ids in its `photo` column, its key), at most
    /// `photosPerStatement` at a time, in row id order: `body` gets each set as a subquery
    /// (`chunk`'s text, with `chunk.arguments` to bind, `?1` and `?2`).
    static func inChunks(of table: String, _ db: Database, _ body: (_ chunk: Chunk) throws -> Void) throws {
        var after: Int64 = 0
        while let last = try Int64.fetchOneCached(
            db, sql: "SELECT MAX(photo) FROM (SELECT photo FROM \(table) WHERE photo > ? ORDER BY photo LIMIT ?)",
            arguments: [after, photosPerStatement])
        {
            try body(Chunk(table: table, after: after, last: last))
            after = last
        }
    }

    /// A set of `inChunks`: the photos of `table` after row id `after`, up to `last`.
    struct Chunk: CustomStringConvertible {
        let table: String
        let after: Int64, last: Int64
        var description: String { "SELECT photo FROM \(table) WHERE photo > ?1 AND photo <= ?2" }
        var arguments: StatementArguments { [after, last] }
    }

    /// Runs `change` on the photos that `condition` selects between taking them out of the
    /// index (with the values they were indexed with) and putting them back as they are then.
    /// `condition` must select the same photos before and after the change.
    static func reindexing<T>(
        _ db: Database, photosWhere condition: String, arguments: StatementArguments = [], _ change: () throws -> T
    ) throws -> T {
        try remove(db, photosWhere: condition, arguments: arguments)
        let result = try change()
        try add(db, photosWhere: condition, arguments: arguments)
        return result
    }

    /// The largest row id in `photo` (0 when empty): a photo inserted after this call gets
    /// a larger one (SQLite takes the largest plus one until row ids run out at 2^63, which
    /// nothing here comes near), so `add(photosWhere: "rowid > ?")` indexes exactly the
    /// photos inserted since.
    static func lastRowID(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(rowid), 0) FROM photo")!
    }
}
