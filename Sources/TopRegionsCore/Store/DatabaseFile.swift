import Foundation
import TopRegionsSupport

/// What is at a database path, checked before SQLite touches it: SQLite would happily
/// create `/dev/null-wal`, or a lock file beside a directory, before finding out.
struct DatabaseFile {
    /// As given.
    var path: String
    /// Symbolic links resolved (for a file yet to be created: its directory resolved).
    var realPath: String
    var exists: Bool
    /// An existing file of 0 bytes (a new database, as far as SQLite is concerned).
    var isEmpty = true
    /// Permission bits of the file and of its directory (when they exist).
    var fileMode: mode_t = 0
    var directoryMode: mode_t = 0

    static func inspect(_ path: String) throws -> DatabaseFile {
        guard !path.isEmpty else { throw Failure(.invalidArgument, "--db: the path is empty") }
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            guard code == ENOENT else {
                throw SystemFailure.error(code, "cannot use the database \(path)", otherwise: .notFound)
            }
            var link = stat()
            if lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK {
                throw Failure(.notFound, "the database \(path) is a symbolic link to a file that does not exist")
            }
            let directory = (path as NSString).deletingLastPathComponent
            let name = (path as NSString).lastPathComponent
            let realDirectory = directory.isEmpty ? "." : directory
            guard let resolved = realpath(realDirectory, nil) else {
                let code = errno
                if code == ENOENT || code == ENOTDIR {
                    // Reported by the caller: no database (readers), or no directory (writers).
                    return DatabaseFile(path: path, realPath: path, exists: false)
                }
                throw SystemFailure.error(code, "cannot use the directory of the database \(path)", otherwise: .cannotCreate)
            }
            defer { free(resolved) }
            var file = DatabaseFile(path: path, realPath: String(cString: resolved) + "/" + name, exists: false)
            var directoryInfo = stat()
            if stat(realDirectory, &directoryInfo) == 0 { file.directoryMode = directoryInfo.st_mode }
            return file
        }
        let kind: String? = switch info.st_mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFIFO: "a pipe (FIFO)"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
        if let kind {
            throw Failure(.notFound, "the database \(path) is \(kind), not a database file; nothing was created")
        }
        guard let resolved = realpath(path, nil) else {
            throw SystemFailure.error(errno, "cannot use the database \(path)", otherwise: .notFound)
        }
        defer { free(resolved) }
        var file = DatabaseFile(path: path, realPath: String(cString: resolved), exists: true, isEmpty: info.st_size == 0, fileMode: info.st_mode)
        var directoryInfo = stat()
        if stat((file.realPath as NSString).deletingLastPathComponent, &directoryInfo) == 0 { file.directoryMode = directoryInfo.st_mode }
        if info.st_size > 0 { try file.checkHeader() }
        return file
    }

    /// An existing file that is not SQLite's is refused before SQLite opens it (and
    /// creates its -wal beside it).
    private func checkHeader() throws {
        let fd = open(realPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw SystemFailure.error(errno, "cannot read the database \(path)", otherwise: .notFound)
        }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: Store.header.count)
        let count = read(fd, &head, head.count)
        guard count >= 0 else { throw SystemFailure.error(errno, "cannot read the database \(path)", otherwise: .inputOutput) }
        guard count == head.count, head == Store.header else {
            throw Failure(.invalidData, "\(path) is not an SQLite database; nothing was changed")
        }
    }

    /// Whether this process may create files beside the database and write it.
    var isWritableHere: Bool {
        let directory = (realPath as NSString).deletingLastPathComponent
        return access(directory.isEmpty ? "." : directory, W_OK | X_OK) == 0 && (!exists || access(realPath, W_OK) == 0)
    }

    /// SQLite's `immutable` URI for the database, when reading it as an unchanging file is
    /// safe: no -wal holds changes not yet in the file, and neither the file nor its
    /// directory can be written by anyone but the superuser (no write permission bits), so
    /// no writer can start while it is read. nil otherwise.
    var immutableURI: String? {
        let noWriteBits: mode_t = 0o222
        let nobodyWrites = isOnReadOnlyFileSystem || (fileMode & noWriteBits == 0 && directoryMode & noWriteBits == 0)
        guard exists, nobodyWrites, !hasUncheckpointedChanges else { return nil }
        return unchangingURI
    }

    /// Whether the file is on a filesystem mounted read-only: nobody can write it, whatever
    /// its permission bits say (a CD, a read-only bind mount, a snapshot).
    var isOnReadOnlyFileSystem: Bool {
        var info = statvfs()
        return exists && statvfs(realPath, &info) == 0 && info.f_flag & UInt(ST_RDONLY) != 0
    }

    /// Whether a -wal beside the file holds changes the file does not have yet (a writer
    /// left it without the checkpoint that empties it on close: killed, or still running).
    var hasUncheckpointedChanges: Bool {
        var info = stat()
        return stat(realPath + "-wal", &info) == 0 && info.st_size > 0
    }

    /// SQLite's URI for reading the database as an unchanging file: read-only, without locks,
    /// ignoring any -wal, creating nothing. nil when the path cannot be written as a URI.
    var unchangingURI: String? {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        guard let encoded = realPath.addingPercentEncoding(withAllowedCharacters: allowed) else { return nil }
        return "file:\(encoded)?mode=ro&immutable=1"
    }
}
