import Foundation
import GRDB
import Synchronization

/// What asking for one photo's thumbnail came to.
public enum ThumbnailResult: Sendable, Equatable {
    /// The bytes, and whether they were downloaded just now.
    case found([UInt8], downloaded: Bool)
    case unknownPhoto
    case noURL
    case failed(DownloadError)
}

/// Square thumbnails: from the database when there, otherwise downloaded once and stored.
/// A per-photo lock shared by every process using the database makes a second asker wait
/// for the first one's download instead of downloading again.
public struct Thumbnails: Sendable {
    public let store: Store

    public init(store: Store) {
        self.store = store
    }

    public func stored(_ photoID: String) throws -> [UInt8]? {
        try store.read { db in
            try Data.fetchOne(db, sql: "SELECT bytes FROM thumbnail WHERE photo_id = ?", arguments: [photoID]).map { [UInt8]($0) }
        }
    }

    /// Thumbnails for `photos` (id → the stored photo, nil when not stored), downloading
    /// the missing ones `parallel` at a time.
    public func thumbnails(
        for photoIDs: [String], photos: [String: StoredPhoto], parallel: Int, retry: RetryPolicy,
        now: @escaping @Sendable () -> Double
    ) throws -> [String: ThumbnailResult] {
        var results: [String: ThumbnailResult] = [:]
        var missing: [(id: String, url: String)] = []
        for id in Set(photoIDs) {
            guard let photo = photos[id] else { results[id] = .unknownPhoto; continue }
            if let bytes = try stored(id) {
                results[id] = .found(bytes, downloaded: false)
            } else if let url = photo.record.thumbURL {
                missing.append((id, url))
            } else {
                results[id] = .noURL
            }
        }
        let shared = Mutex(results)
        let store = self.store
        let thumbnails = self
        WorkerPool.run(missing.sorted { $0.id < $1.id }, workers: parallel, makeWorker: { Downloader(retry: retry, now: now) }) { downloader, item in
            let result = store.keyLocks.withLock("thumb:" + item.id) { () -> ThumbnailResult in
                do {
                    if let bytes = try thumbnails.stored(item.id) { return .found(bytes, downloaded: false) }
                    let bytes = try downloader.fetch(item.url)
                    try store.write { db in
                        try db.execute(
                            sql: "INSERT INTO thumbnail (photo_id, bytes, fetched_at) VALUES (?, ?, ?) ON CONFLICT (photo_id) DO NOTHING",
                            arguments: [item.id, Data(bytes), Int64(now())])
                    }
                    return .found(bytes, downloaded: true)
                } catch let error as DownloadError {
                    return .failed(error)
                } catch {
                    return .failed(.storage("\(error)"))
                }
            }
            shared.withLock { $0[item.id] = result }
            return .next
        }
        return shared.withLock { $0 }
    }
}

/// File names made from input (photo ids) keep only letters, digits, '-' and '_', so an id
/// can never name a path outside the directory it is meant for.
public enum SafeName {
    public static func fileName(for id: String, extension ext: String) -> String {
        var name = ""
        for scalar in id.unicodeScalars {
            name.append(isSafe(scalar) ? Character(scalar) : "_")
        }
        if name.count > 100 { name = String(name.prefix(100)) }
        // An id that had to be changed (or cut) gets a hash of the original, so two ids
        // that differ only in unsafe characters never share a file.
        if name != id || name.isEmpty {
            name += "-" + String(UInt64(bitPattern: KeyLockFile.offset(for: id)) & 0xFFFF_FFFF, radix: 16)
        }
        return name + "." + ext
    }

    static func isSafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "0"..."9", "a"..."z", "A"..."Z", "-", "_": true
        default: false
        }
    }

    /// Writes `bytes` to `path` through a temporary file and a rename, so a reader sees the
    /// whole file or none.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let temporary = path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw ToolError(.cantCreate, "cannot write \(temporary)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw ToolError(.cantCreate, "cannot write \(path): \(reason)")
        }
    }
}
