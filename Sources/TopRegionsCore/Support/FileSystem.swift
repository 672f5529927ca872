import Foundation

/// A system call that failed: what was being done, and errno in words ("No space left on
/// device"), never Foundation's "NSCocoaErrorDomain error 512".
public struct ErrnoError: Error, Sendable, CustomStringConvertible {
    public var code: Int32
    /// What failed, e.g. "cannot create /etc/passwd/x".
    public var operation: String

    public init(_ operation: String, code: Int32 = errno) {
        self.operation = operation
        self.code = code
    }

    /// errno in words.
    public var reason: String { String(cString: strerror(code)) }

    public var description: String { "\(operation): \(reason)" }
}

public enum FileSystem {
    /// `mkdir -p`: creates `path` and its missing parents. The error names the errno of the
    /// component that failed (ENOTDIR when a parent is a file, EACCES, EROFS, ...).
    public static func createDirectories(_ path: String, mode: mode_t = 0o755) throws(ErrnoError) {
        guard !path.isEmpty else { throw ErrnoError("cannot create ''", code: ENOENT) }
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, mode) != 0 {
                let failure = errno
                var info = stat()
                guard failure == EEXIST else { throw ErrnoError("cannot create \(path)", code: failure) }
                guard stat(prefix, &info) == 0 else { throw ErrnoError("cannot create \(path)", code: errno) }
                guard (info.st_mode & S_IFMT) == S_IFDIR else { throw ErrnoError("cannot create \(path)", code: ENOTDIR) }
            }
            prefix += "/"
        }
    }

    /// The names in a directory, without "." and "..".
    public static func contentsOfDirectory(_ path: String) throws(ErrnoError) -> [String] {
        guard let directory = opendir(path) else { throw ErrnoError("cannot read \(path)", code: errno) }
        defer { closedir(directory) }
        return try names(readFrom: directory, path: path)
    }

    /// The names `directory` (opened, at its start) holds, without "." and "..".
    fileprivate static func names(readFrom directory: OpaquePointer, path: String) throws(ErrnoError) -> [String] {
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw ErrnoError("cannot read \(path)", code: errno) }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }
}

extension FileSystem {
    /// A directory opened without following a symbolic link, whose files are looked at and
    /// removed through the open descriptor: when the path is (or becomes) a link elsewhere,
    /// nothing outside the directory first opened is ever touched.
    public final class OpenDirectory {
        public let path: String
        private let descriptor: Int32

        /// Nil when `path` is missing, is a symbolic link, or is not a directory.
        public init?(_ path: String) {
            let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            self.path = path
            self.descriptor = descriptor
        }

        deinit { close(descriptor) }

        /// The names in the directory, without "." and "..".
        public func names() throws(ErrnoError) -> [String] {
            let copy = dup(descriptor)
            guard copy >= 0, let directory = fdopendir(copy) else {
                let failure = errno
                if copy >= 0 { close(copy) }
                throw ErrnoError("cannot read \(path)", code: failure)
            }
            defer { closedir(directory) }
            rewinddir(directory)
            return try FileSystem.names(readFrom: directory, path: path)
        }

        /// The size of `name` when it is a regular file (not a link, not a directory).
        public func regularFileSize(_ name: String) -> Int64? {
            var info = stat()
            guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            return Int64(info.st_size)
        }

        /// Removes `name` if it is a regular file; true when it did.
        @discardableResult
        public func removeRegularFile(_ name: String) -> Bool {
            regularFileSize(name) != nil && unlinkat(descriptor, name, 0) == 0
        }
    }
}
