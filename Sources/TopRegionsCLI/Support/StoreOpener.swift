import TopRegionsStore

/// How a command opens its database, once `--db` and the environment have said where it
/// is: the file at that path in the executables (`StoreOpener.files`); a test may hand a
/// command a store it opened itself, or see what the command asked for.
public struct StoreOpener: Sendable {
    /// The store at `path`; with `create` false, a missing database is an error (66).
    public var open: @Sendable (_ path: String, _ create: Bool) throws -> Store
    /// The store at `path`, read-only.
    public var openForReading: @Sendable (_ path: String) throws -> Store
    /// The store at `path`, opened now when it exists, created only on the first write.
    public var openOnFirstWrite: @Sendable (_ path: String) throws -> StoreOnFirstWrite

    public init(
        open: @escaping @Sendable (String, Bool) throws -> Store, openForReading: @escaping @Sendable (String) throws -> Store,
        openOnFirstWrite: @escaping @Sendable (String) throws -> StoreOnFirstWrite
    ) {
        self.open = open
        self.openForReading = openForReading
        self.openOnFirstWrite = openOnFirstWrite
    }

    /// The database files themselves.
    public static let files = StoreOpener(
        open: { try Store.open(path: $0, create: $1) }, openForReading: { try Store.openForReading(path: $0) },
        openOnFirstWrite: { try StoreOnFirstWrite(path: $0) })
}
