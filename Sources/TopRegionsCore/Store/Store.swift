import Foundation
import GRDB
import TopRegionsSupport

/// The one SQLite file every stage shares.
///
/// WAL mode (readers never block the writer), a busy timeout (stages scheduled by cron
/// overlap), writes in `BEGIN IMMEDIATE` transactions (a writer takes the lock up front
/// instead of failing halfway through with SQLITE_BUSY), and versioned migrations that
/// whichever stage runs first applies, even when two start at once on a new file.
public final class Store: Sendable {
    public let path: String
    public let pool: DatabasePool
    /// Per-key locks shared by every process using this database ("resolving place X",
    /// "downloading thumbnail Y"), in a `<db>.lock` file next to it.
    public let keyLocks: KeyLockFile

    /// How long a writer waits for another process's write transaction to finish.
    public static let busyTimeout: TimeInterval = 60

    /// Opens the database at `path`, creating it (and its schema) when `create` is true;
    /// tools that only ask questions pass false, so a mistyped path is an error (66), not a
    /// new empty database.
    public static func open(path: String, create: Bool = true) throws -> Store {
        if !create, !FileManager.default.fileExists(atPath: path) {
            throw ToolError(.noInput, "no database at \(path) (photos get there with flickr-recent | place-resolve | regions-load)")
        }
        return try Store(path: path)
    }

    private init(path: String) throws {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            throw ToolError(.cantCreate, "cannot create database \(path): directory \(directory) does not exist")
        }
        keyLocks = try KeyLockFile(path: path + ".lock")

        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.label = "topregions"
        // The schema relies on them; GRDB's default, stated here because it matters.
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in
            // Batches are staged in temporary tables: keep them in memory. A larger page cache
            // keeps the photo indexes of a big store in memory while a batch updates them.
            try db.execute(sql: "PRAGMA temp_store = MEMORY; PRAGMA cache_size = -65536")
        }

        // Creating the file and migrating it happen under an exclusive key lock, so two
        // stages that start at once on a new file do not both try to create the schema
        // (GRDB's migrator checks what is applied outside the migration's transaction).
        do {
            pool = try keyLocks.withLock("schema") {
                let pool = try DatabasePool(path: path, configuration: configuration)
                try Schema.migrator.migrate(pool)
                return pool
            }
        } catch let error as DatabaseError {
            throw ToolError(.cantCreate, "cannot open database \(path): \(error.message ?? "\(error)")")
        }
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction: all of it is committed, or none.
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.writeWithoutTransaction { db in
            var result: T?
            try db.inTransaction(.immediate) {
                result = try body(db)
                return .commit
            }
            return result!
        }
    }

    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.read(body)
    }

    /// Where the database lives: `--db`, else `TOPREGIONS_DB`, else the XDG data directory
    /// (`$XDG_DATA_HOME/topregions/topregions.db`, by default under ~/.local/share).
    public static func resolvePath(option: String?, environment: [String: String]) throws -> String {
        if let option, !option.isEmpty { return option }
        if let fromEnvironment = environment["TOPREGIONS_DB"], !fromEnvironment.isEmpty { return fromEnvironment }
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else if let home = environment["HOME"], !home.isEmpty {
            dataHome = home + "/.local/share"
        } else {
            throw ToolError(.config, "no database given: use --db PATH or set TOPREGIONS_DB (HOME is not set)")
        }
        let directory = dataHome + "/topregions"
        do {
            try FileSystem.createDirectories(directory)
        } catch {
            throw ToolError(.cantCreate, "cannot create the database directory \(directory): \(error.reason)")
        }
        return directory + "/topregions.db"
    }
}
