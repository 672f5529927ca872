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
/// VALUES ('rebuild')` makes the index again from the photos.
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
    static func remove(_ db: Database, photosWhere condition: String, arguments: StatementArguments = []) throws {
        try db.executeCached(sql: """
            INSERT INTO photo_fts (photo_fts, rowid, \(columns))
                SELECT 'delete', rowid, \(columns) FROM photo WHERE \(condition)
            """, arguments: arguments)
    }

    /// Puts the photos that `condition` (over `photo`) selects into the index, as they are
    /// now.
    static func add(_ db: Database, photosWhere condition: String, arguments: StatementArguments = []) throws {
        try db.executeCached(sql: """
            INSERT INTO photo_fts (rowid, \(columns))
                SELECT rowid, \(columns) FROM photo WHERE \(condition)
            """, arguments: arguments)
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
