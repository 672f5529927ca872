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
