import GRDB
import GRDBSQLite
import TopRegionsSupport

/// The columns of the row a statement has just stepped to, read with SQLite's own
/// accessors: the same conversions GRDB's decoding makes (text as SQLite gives it, NULL as
/// nil), without a copied row or a generic decode per value.
struct ColumnReader {
    let statement: SQLiteStatement

    func isNull(_ index: Int32) -> Bool {
        sqlite3_column_type(statement, index) == SQLITE_NULL
    }

    /// The whole text, by its length: a NUL in it (JSON's `\u0000`, stored as given) is
    /// kept, where reading up to the first NUL (as GRDB's `String` does) cut "abc\u0000def"
    /// to "abc" in every listing.
    func text(_ index: Int32) -> String? {
        guard let text = sqlite3_column_text(statement, index) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    func int(_ index: Int32) -> Int64? {
        isNull(index) ? nil : sqlite3_column_int64(statement, index)
    }

    /// An integer the query guarantees is not NULL (SQLite's own conversion otherwise).
    func requiredInt(_ index: Int32) -> Int64 {
        sqlite3_column_int64(statement, index)
    }

    func double(_ index: Int32) -> Double? {
        isNull(index) ? nil : sqlite3_column_double(statement, index)
    }

    /// A text the schema says is never NULL.
    func required(_ index: Int32) throws -> String {
        guard let text = text(index) else { throw Self.missing(index) }
        return text
    }

    static func missing(_ index: Int32) -> Failure {
        Failure(.invalidData, "the database is damaged: a photo has no value in column \(index + 1) of a listing, which the schema requires")
    }
}
