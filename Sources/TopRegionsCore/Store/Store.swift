import CSupport
import Foundation
import GRDB
import GRDBSQLite
import TopRegionsRecords
import TopRegionsSupport

/// The one SQLite file every stage shares.
///
/// WAL mode (readers never block the writer), a busy timeout (stages scheduled by cron
/// overlap), writes in `BEGIN IMMEDIATE` transactions (a writer takes the lock up front
/// instead of failing halfway through with SQLITE_BUSY), and versioned migrations that
/// whichever stage runs first applies, even when two start at once on a new file.
///
/// Tools that only ask questions open the store read-only (`openForReading`): one read-only
/// connection, no pool, no lock file, no migration, nothing written, so a user who may read
/// the database but not write it or its directory can query it, and a query costs little
/// more than the sqlite3 CLI's. For that, writers keep the `-wal` and `-shm` files beside
/// the database when they close (SQLITE_FCNTL_PERSIST_WAL): SQLite lets a reader without
/// write access open a WAL database only when those files exist (or can be created).
public final class Store: Sendable {
    /// The path as the user gave it, for messages.
    public let path: String
    /// The database file itself, symbolic links resolved: every name of one file shares
    /// its lock file and its -wal and -shm.
    public let realPath: String
    /// Writers: a `DatabasePool` (readers beside one writer). Readers: a `DatabaseQueue` on
    /// one read-only connection; a reader asks one question at a time, and a pool would open
    /// a second connection (and parse the schema twice) before the first answer.
    /// `package`, as `write` and `read` are: GRDB's types stay inside Store (and its tests);
    /// the other modules go through Store's queries and writers.
    package let pool: any DatabaseWriter
    /// Opened with `openForReading`: nothing can be written, and there are no key locks.
    public let isReadOnly: Bool
    private let lockFile: KeyLockFile?
    /// Whether the schema had every migration this toolkit knows when opened.
    private let isCurrent: Bool

    /// Per-key locks shared by every process using this database ("resolving place X",
    /// "downloading thumbnail Y"), in a `<real path>.lock` file next to it. A read-only
    /// store has none.
    public var keyLocks: KeyLockFile {
        get throws {
            guard let lockFile else { throw Failure(.internalError, "the database \(path) is open read-only: it takes no locks") }
            return lockFile
        }
    }

    /// How long a writer waits for another process's write transaction to finish.
    public static let busyTimeout: TimeInterval = 60

    /// How long a writer on its way out waits to empty the -wal: for readers in the middle of
    /// a read of it, and another writer's transaction (a load's batch takes well under this).
    static let closingWait: TimeInterval = 5

    /// What SQLite files start with (https://www.sqlite.org/fileformat.html).
    static let header = Array("SQLite format 3\0".utf8)

    /// Opens the database at `path` for reading and writing, creating it (and its schema)
    /// when `create` is true; tools that must not start a new database pass false, so a
    /// mistyped path is an error (66), not a new empty database.
    public static func open(path: String, create: Bool = true) throws -> Store {
        let file = try DatabaseFile.inspect(path)
        if !file.exists && !create {
            throw Failure(.notFound, "no database at \(path) (photos get there with flickr-recent | place-resolve | regions-load)")
        }
        return try Store(writing: file)
    }

    /// Whether this process can write the database at `path` (and create files beside it):
    /// false for a file nobody may write here, or on a read-only filesystem.
    public static func isWritable(path: String) throws -> Bool {
        try DatabaseFile.inspect(path).isWritableHere
    }

    /// Opens an existing database read-only: no lock file, no migration, no write. When
    /// its schema is older than this toolkit's, it is upgraded if this user may write it;
    /// otherwise the error says who can.
    public static func openForReading(path: String) throws -> Store {
        let file = try DatabaseFile.inspect(path)
        guard file.exists else {
            throw Failure(.notFound, "no database at \(path) (photos get there with flickr-recent | place-resolve | regions-load)")
        }
        let reader = try Store(reading: file)
        guard reader.isCurrent else {
            if file.isWritableHere {
                return try Store(writing: file)
            }
            throw Failure(.cannotCreate, "the database \(path) has an older schema than this toolkit and is read-only here; run any writing tool (e.g. regions-load < /dev/null) once as a user who may write it, to upgrade it")
        }
        return reader
    }

    private init(writing file: DatabaseFile) throws {
        path = file.path
        realPath = file.realPath
        isReadOnly = false
        if !file.exists {
            let directory = (file.realPath as NSString).deletingLastPathComponent
            if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
                throw Failure(.cannotCreate, "cannot create database \(path): directory \(directory) does not exist")
            }
        } else {
            try Self.refuseUnlessOurs(file)
        }
        let locks = try Self.keyLocks(file)
        lockFile = locks
        isCurrent = true

        var configuration = Self.configuration()
        configuration.prepareDatabase { db in
            if !db.configuration.readonly {
                // The writer's connection, before GRDB switches the file to WAL: the file is
                // looked at before anything is written to it.
                do {
                    _ = try Self.accept(Schema.standing(db), file)
                } catch {
                    // Not ours: its -wal is neither copied into it nor removed at close.
                    _ = tr_sqlite_no_checkpoint_on_close(UnsafeMutableRawPointer(db.sqliteConnection))
                    throw error
                }
            }
            // Batches are staged in temporary tables: keep them in memory. A larger page cache
            // keeps the photo indexes of a big store in memory while a batch updates them: the
            // writer's alone. The pool's readers keep SQLite's default (2 MB each): at 64 MB
            // each, regions-serve's five readers grew to 400 MB over a 1M-photo database.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA cache_size = -65536") }
            try Self.keepWALFiles(db)
        }

        // Creating the file and migrating it happen under an exclusive key lock, so two
        // stages that start at once on a new file do not both try to create the schema
        // (GRDB's migrator checks what is applied outside the migration's transaction).
        do {
            pool = try locks.withLock("schema") {
                let pool = try DatabasePool(path: file.realPath, configuration: configuration)
                try Schema.migrator.migrate(pool)
                return pool
            }
        } catch {
            // Nothing is left beside a path that did not open as a database.
            if locks.createdFile { locks.removeIfUnused() }
            throw Self.openingError(error, file)
        }
    }

    /// A writer empties the -wal (every page copied into the database file, the log cut to 0
    /// bytes) before its connections close. SQLite does that itself only when the last
    /// connection to the database closes: not while another process has it open (a reader
    /// piped into a pager, another writer), and never from a reader, which is read-only. So
    /// a -wal stayed as large as the writers had made it (1 MB after 8 loads beside 5 readers;
    /// 32 MB in larger runs), with every process gone. Now the writer that finishes last
    /// leaves it empty whoever else has the database open, unless a reader is still reading
    /// from it after `closingWait` (the next writer to finish empties it), or the writer was
    /// killed.
    deinit {
        guard !isReadOnly else { return }
        try? pool.writeWithoutTransaction { db in
            sqlite3_busy_timeout(db.sqliteConnection, Int32(Self.closingWait * 1000))
            _ = try db.checkpoint(.truncate)
        }
    }

    private init(reading file: DatabaseFile) throws {
        path = file.path
        realPath = file.realPath
        isReadOnly = true
        lockFile = nil
        try Self.refuseUnlessOurs(file)
        let (queue, standing) = try Self.openReadOnly(file, Self.readOnlyConfiguration())
        pool = queue
        isCurrent = try Self.accept(standing, file)
    }

    /// One read-only connection, and the file's standing (read in the first read, which opens
    /// the WAL: this is where a missing -shm shows).
    private static func openReadOnly(_ file: DatabaseFile, _ configuration: Configuration) throws -> (DatabaseQueue, Schema.Standing) {
        func open(_ path: String) throws -> (DatabaseQueue, Schema.Standing) {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            return (queue, try queue.read { try Schema.standing($0) })
        }
        do {
            return try open(file.realPath)
        } catch {
            guard let immutable = file.immutableURI else { throw openingError(error, file) }
            // Nobody can be writing it (see `immutableURI`): read it as the file it is.
            do {
                return try open(immutable)
            } catch {
                throw openingError(error, file)
            }
        }
    }

    /// Refuses an existing file without a -wal beside it that is not this toolkit's (or that a
    /// later version upgraded), looking at it as an unchanging file: opened by SQLite, even
    /// read-only, a WAL database gets a -wal and -shm, and a rollback journal left by a crash
    /// is rolled back. Every file of this toolkit's has its -wal (writers keep it), so this
    /// costs nothing in the usual case; with a -wal, the connection that opens it looks (a
    /// reader's first read, the writer's `prepareDatabase`). A look that fails (the file
    /// changed while it was read) is left to that connection too.
    private static func refuseUnlessOurs(_ file: DatabaseFile) throws {
        guard file.exists, !file.isEmpty, !FileManager.default.fileExists(atPath: file.realPath + "-wal"),
              let unchanging = file.unchangingURI,
              let standing = try? DatabaseQueue(path: unchanging, configuration: readOnlyConfiguration()).read(Schema.standing)
        else { return }
        _ = try accept(standing, file)
    }

    /// Refuses a file that is not this toolkit's database, or one a later version upgraded,
    /// with nothing changed; says whether every migration this toolkit knows is applied.
    private static func accept(_ standing: Schema.Standing, _ file: DatabaseFile) throws -> Bool {
        switch standing {
        case .blank:
            return false
        case .ours(let current):
            return current
        case .newer(let unknown):
            // 78: the file is sound, the tools are too old for it (what to fix is the installation).
            throw Failure(.misconfigured, "the database \(file.path) was upgraded by a newer version of this toolkit (its migration '\(unknown[0])' is unknown to this one); use that version or a later one; nothing was changed")
        case .foreign(let objects, let applicationID):
            // 65, as for a file that is not SQLite at all: what is at the path is not this toolkit's data.
            let what = objects.isEmpty
                ? "application id \(applicationID)"
                : Grammar.count(objects.count, "table") + ": " + objects.prefix(5).joined(separator: ", ") + (objects.count > 5 ? ", ..." : "")
            throw Failure(.invalidData, "\(file.path) is another program's SQLite database (\(what)), not this toolkit's; nothing was changed")
        }
    }

    /// SQLite's process-wide settings, made once before the first connection opens: no
    /// allocation statistics (nothing reads them, and each of a load's millions of
    /// allocations took their mutex).
    private static let sqliteConfigured: Void = {
        _ = tr_sqlite_memstatus_off()  // SQLITE_MISUSE when something opened SQLite first: harmless
    }()

    /// The lock file of the database at `path` (made when missing; see `keyLocks(_:)`).
    public static func keyLocks(for path: String) throws -> KeyLockFile {
        try keyLocks(DatabaseFile.inspect(path))
    }

    /// The lock file of a database: beside the file itself, symbolic links resolved, so that
    /// every process opening the same file, by whatever path, shares it; made with the
    /// database's owner and permissions, as SQLite makes the -wal and -shm.
    private static func keyLocks(_ file: DatabaseFile) throws -> KeyLockFile {
        try KeyLockFile(path: file.realPath + ".lock", ownedLike: file.realPath)
    }

    private static func configuration() -> Configuration {
        _ = sqliteConfigured
        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.label = "topregions"
        // The schema relies on them; GRDB's default, stated here because it matters.
        configuration.foreignKeysEnabled = true
        // Added once per connection, as it opens: adding a function to a connection expires
        // every statement it has prepared (its cached ones were prepared again on each read).
        configuration.prepareDatabase { db in
            db.add(function: PhotoOrder.titleKey)
            db.add(function: PhotoWriter.latinParts)
        }
        return configuration
    }

    /// A connection that reads only (what a query sorts or groups stays in memory).
    private static func readOnlyConfiguration() -> Configuration {
        var configuration = configuration()
        configuration.readonly = true
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        return configuration
    }

    /// Keeps -wal and -shm when the last connection closes (the WAL emptied, not deleted),
    /// so that readers without write access to the directory can open the database.
    static func keepWALFiles(_ db: Database) throws {
        var persist: Int32 = 1
        _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        // Emptied at close, and after a checkpoint that lets it restart past this size.
        try db.execute(sql: "PRAGMA journal_size_limit = \(32 << 20)")
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction: all of it is committed, or none.
    /// `changesContent`: whether it may change what lists show (`ChangeStamp`); false for a
    /// write of views, thumbnails or the call ledger alone. A transaction that changed no
    /// row leaves the version as it was (a prune with nothing to prune changed the database
    /// file and made every reader's cached pages stale).
    package func write<T>(changesContent: Bool = true, _ body: (Database) throws -> T) throws -> T {
        try pool.writeWithoutTransaction { db in
            var result: T?
            try db.inTransaction(.immediate) {
                let changesBefore = db.totalChangesCount
                result = try body(db)
                if changesContent && db.totalChangesCount != changesBefore { try Self.contentChanged(db) }
                return .commit
            }
            return result!
        }
    }

    /// SQLite's own page cache for the writing connection, as its readers have (2 MB), in
    /// place of the 64 MB a writing tool's connection gets: for a process that lives long
    /// and writes little (regions-serve), whose one large write (pruning 200k photos from
    /// its page) would otherwise keep it 80 MB larger for the rest of its life.
    public func keepWriterCacheSmall() throws {
        guard !isReadOnly else { return }
        try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA cache_size = -2000") }
    }

    /// Runs `body` in one read transaction: every statement in it sees the same snapshot.
    /// Inside another read of this thread, in that read's transaction: so a caller that
    /// asks several questions (a list's count, then its map) in one `read` gets answers
    /// from one snapshot, though each question reads by itself.
    package func read<T>(_ body: (Database) throws -> T) throws -> T {
        if isReadingHere { return try pool.unsafeReentrantRead(body) }
        return try pool.read { db in try Self.$readingHere.withValue(ObjectIdentifier(self)) { try body(db) } }
    }

    /// Runs `body`, which reads with one statement, outside a transaction: one SELECT sees
    /// one snapshot by itself, and the savepoint `read` opens and releases around its body
    /// (statements GRDB prepares anew each time) costs more than a lookup by key. For the
    /// small reads every served page makes (its change stamp, the newest upload, its region).
    /// Inside a `read` of this thread, in its snapshot.
    package func readStatement<T>(_ body: (Database) throws -> T) throws -> T {
        if isReadingHere { return try pool.unsafeReentrantRead(body) }
        return try pool.unsafeRead(body)
    }

    /// The store whose `read` this thread is in, innermost (no store's read is ever inside
    /// another store's read inside its own).
    @TaskLocal private static var readingHere: ObjectIdentifier?
    private var isReadingHere: Bool { Self.readingHere == ObjectIdentifier(self) }

    /// A read-only connection of its own, beside the store's, for one thread that asks many
    /// small questions one after another: the pool's readers are handed out through queues
    /// that every reading thread contends for. Its errors say what `failure(describing:)` says.
    package func separateReader() throws -> DatabaseQueue {
        do {
            return try DatabaseQueue(path: realPath, configuration: Self.readOnlyConfiguration())
        } catch {
            throw failure(describing: error)
        }
    }

    /// A writing connection of its own, beside the store's, that never waits for the write
    /// lock (SQLITE_BUSY at once): for writes that are tried again later rather than waited
    /// for (`ViewRecorder`). Its errors say what `failure(describing:)` says.
    package func separateWriter() throws -> DatabaseQueue {
        guard !isReadOnly else { throw Failure(.internalError, "the database \(path) is open read-only") }
        var configuration = Self.configuration()
        configuration.busyMode = .immediateError
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            try Self.keepWALFiles(db)
        }
        do {
            return try DatabaseQueue(path: realPath, configuration: configuration)
        } catch {
            throw failure(describing: error)
        }
    }

    /// Where the database lives: `--db`, else `TOPREGIONS_DB`, else the XDG data directory
    /// (`$XDG_DATA_HOME/topregions/topregions.db`, by default under ~/.local/share).
    public static func resolvePath(option: String?, environment: [String: String]) throws -> String {
        if let option {
            guard !option.isEmpty else { throw Failure(.invalidArgument, "--db: the path is empty") }
            return option
        }
        if let fromEnvironment = environment["TOPREGIONS_DB"], !fromEnvironment.isEmpty { return fromEnvironment }
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else if let home = environment["HOME"], !home.isEmpty {
            dataHome = home + "/.local/share"
        } else {
            throw Failure(.misconfigured, "no database given: use --db PATH or set TOPREGIONS_DB (HOME is not set)")
        }
        let directory = dataHome + "/topregions"
        do {
            try FileSystem.createDirectories(directory)
        } catch {
            throw Failure(.cannotCreate, "cannot create the database directory \(directory): \(error.reason)")
        }
        return directory + "/topregions.db"
    }
}
