import Foundation

/// Something that changes whenever anything is committed to the database, by any process:
/// the size and modification time of the file and of its write-ahead log (every commit in
/// WAL mode writes to the log, and a checkpoint writes to the file). Two `stat` calls, so a
/// server can keep what it computed from the whole store (a map of every photo of a list)
/// until the next commit, instead of computing it again for every request.
///
/// Read it before the data it stamps: a commit between the two makes the stamp older than
/// the data, which only costs one more computation later, never a stale answer.
public struct ChangeStamp: Sendable, Equatable, Hashable {
    let file: [Int64]
    let log: [Int64]
}

extension Store {
    public func changeStamp() -> ChangeStamp {
        ChangeStamp(file: Self.stamp(realPath), log: Self.stamp(realPath + "-wal"))
    }

    private static func stamp(_ path: String) -> [Int64] {
        var status = stat()
        guard stat(path, &status) == 0 else { return [-1] }
        return [Int64(status.st_size), Int64(status.st_mtim.tv_sec), Int64(status.st_mtim.tv_nsec), Int64(status.st_ino)]
    }
}
