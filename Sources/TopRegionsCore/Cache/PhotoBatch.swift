import TopRegionsRecords

/// What one batch of photos asked for came to: the stored photos (ids the database does not
/// have are left out), and each photo's result (none for a photo not tried: the run stopped
/// for a failure of this machine).
public struct PhotoBatch<Result: Sendable>: Sendable {
    public var photos: [String: StoredPhoto]
    public var results: [String: Result]
}
