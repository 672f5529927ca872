import Foundation
import GRDB
import TopRegionsSupport

/// How the store's failures read: the kind (and so the exit status) and the words a user
/// gets for an SQLite error, naming the database.
extension Store {
    /// The error a user reads when the database could not be opened.
    static func openingError(_ error: any Error, _ file: DatabaseFile) -> any Error {
        guard let databaseError = error as? DatabaseError else { return error }
        switch databaseError.resultCode {
        case .SQLITE_NOTADB:
            return Failure(.invalidData, "\(file.path) is not an SQLite database")
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
            if let resource = describe(databaseError, path: file.path) { return resource }
            if file.isOnReadOnlyFileSystem, file.hasUncheckpointedChanges {
                return Failure(.cannotCreate, "cannot read the database \(file.path): \(file.realPath)-wal holds changes not yet in the file, and the filesystem is read-only, so they cannot be read (SQLite needs \(file.realPath)-shm); copy the database with its -wal somewhere writable, or let a writing tool close it cleanly before it is made read-only")
            }
            if !file.isWritableHere, !FileManager.default.fileExists(atPath: file.realPath + "-shm") {
                return Failure(.cannotCreate, "cannot read the database \(file.path) without write access to its directory: SQLite needs \(file.realPath)-shm, which is missing (a writing tool of this toolkit leaves it; run one once as a user who may write the database)")
            }
            return Failure(.cannotCreate, "cannot open database \(file.path): \(databaseError.message ?? "\(databaseError)")")
        default:
            return describe(databaseError, path: file.path)
                ?? Failure(.cannotCreate, "cannot open database \(file.path): \(databaseError.message ?? "\(databaseError)")")
        }
    }

    /// The kind and words for an SQLite failure that is about the machine (descriptors,
    /// memory, disk) or about another process (busy), or about damaged data; nil for
    /// anything else.
    static func describe(_ error: DatabaseError, path: String?) -> Failure? {
        let detail = error.message ?? "\(error)"
        let database = path.map { "the database \($0)" } ?? "the database"
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return Failure(.temporary, "\(database) is busy (another process holds it): \(detail)")
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return Failure(.invalidData, "\(database) is damaged or not a database: \(detail)")
        case .SQLITE_FULL:
            return Failure(.inputOutput, "cannot write \(database): the disk is full")
        case .SQLITE_IOERR:
            if error.extendedResultCode == .SQLITE_IOERR_NOMEM { return Failure(.resourceExhausted, "out of memory using \(database)") }
            return Failure(.inputOutput, "input/output error on \(database): \(detail)")
        case .SQLITE_NOMEM:
            return Failure(.resourceExhausted, "out of memory using \(database)")
        case .SQLITE_CANTOPEN:
            // SQLite does not say why; a process at its descriptor limit is the usual reason.
            if let free = Descriptors.free(), free < 8 {
                return Failure(.resourceExhausted, "cannot open \(database): \(Descriptors.exhausted)")
            }
            return nil
        default:
            return nil
        }
    }

    /// An SQLite error from any database, as the user reads it (its kind and words): what
    /// `describe` says of the machine, another process or damaged data, else its result code's
    /// kind (a read-only file or one that cannot be opened cannot be created there; anything
    /// else is a bug). Nil for an error that is not SQLite's, so callers need not know GRDB.
    public static func failure(ifDatabaseError error: any Error) -> Failure? {
        guard let error = error as? DatabaseError else { return nil }
        if let described = describe(error, path: nil) { return described }
        let message = "database error: \(error.message ?? "\(error.resultCode)")"
        switch error.resultCode {
        case .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM: return Failure(.cannotCreate, message)
        default: return Failure(.internalError, message)
        }
    }

    /// Any error from using the store, as the user reads it (its kind and words).
    public func failure(describing error: any Error) -> Failure {
        Self.failure(describing: error, path: path)
    }

    /// Any error from using the database at `path`, as the user reads it.
    static func failure(describing error: any Error, path: String) -> Failure {
        if let error = error as? Failure { return error }
        if let error = error as? DatabaseError {
            return describe(error, path: path) ?? Failure(.internalError, "database error: \(error.message ?? "\(error)")")
        }
        return Failure(.internalError, "\(error)")
    }

    /// Runs `body`; its database errors come out as `failure(describing:)` says them (naming this
    /// database, with the kind their cause is).
    public func naming<T>(_ body: () throws -> T) throws -> T {
        try Self.naming(path, body)
    }

    /// `naming` for the database at `path`, open or not.
    static func naming<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw failure(describing: error, path: path)
        }
    }
}
