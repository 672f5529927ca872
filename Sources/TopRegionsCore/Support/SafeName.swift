import Foundation

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

    package static func isSafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "0"..."9", "a"..."z", "A"..."Z", "-", "_": true
        default: false
        }
    }

    /// Writes `bytes` to `path` through a temporary file and a rename, so a reader sees the
    /// whole file or none.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SystemFailure.error(errno, "cannot write \(path)", otherwise: .cannotCreate) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(fd)
                unlink(temporary)
                throw SystemFailure.error(code, "cannot write \(path)", otherwise: .cannotCreate)
            }
            offset += written
        }
        guard close(fd) == 0 else {
            let code = errno
            unlink(temporary)
            throw SystemFailure.error(code, "cannot write \(path)", otherwise: .inputOutput)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw SystemFailure.error(code, "cannot write \(path)", otherwise: .cannotCreate)
        }
    }
}
