import Synchronization

/// The database of a tool that may find nothing to write: opened at once when the file
/// exists (so that a file that is not this toolkit's, or a schema to upgrade, shows before any
/// work), created only when something is about to be written to it. A run that ends before
/// then (no record in its input, no API key for the first lookup) leaves no database behind,
/// so a later regions-top still says there is none, instead of answering from an empty one.
public final class StoreOnFirstWrite: Sendable {
    public let path: String
    private let opened: Mutex<Store?>

    /// Opens the database at `path` if there is a file there.
    public init(path: String) throws {
        self.path = path
        opened = Mutex(try DatabaseFile.inspect(path).exists ? Store.open(path: path) : nil)
    }

    /// A store already open.
    public init(_ store: Store) {
        path = store.path
        opened = Mutex(store)
    }

    /// The store, when the database exists (it may have been created since, by `store()`);
    /// nil when nothing was written to it yet: it holds nothing.
    public var existing: Store? {
        opened.withLock { $0 }
    }

    /// The store, created now when it does not exist yet.
    public func store() throws -> Store {
        try opened.withLock { opened in
            if let opened { return opened }
            let store = try Store.open(path: path)
            opened = store
            return store
        }
    }

    /// Runs `body`; its database errors come out as `Store.failure(describing:)` says them.
    public func naming<T>(_ body: () throws -> T) throws -> T {
        try Store.naming(path, body)
    }
}
