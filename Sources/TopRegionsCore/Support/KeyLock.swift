import CSupport
import Foundation
import Synchronization

/// Named locks shared by every thread and process that opens the same lock file.
///
/// Each key maps to one byte of the file (by hash) and is locked with an open-file-
/// description lock on a file descriptor of its own, so two threads of one process exclude
/// each other just as two processes do, and a process killed with -9 releases its locks.
/// Two keys that hash to the same byte only serialize more than needed. A holder that takes
/// a second key while holding one must always take them in the same order everywhere (the
/// photo cache: a photo's key, then "index"), or use `tryLock` for the second, as eviction
/// does; otherwise two holders could wait for each other forever.
///
/// The file may be removed while nobody holds a key (`removeIfUnused`): a key is held only
/// once the file it was taken in is still the one at `path`, so a process that opened the
/// removed file takes its key again in the new one.
public final class KeyLockFile: Sendable {
    public let path: String
    /// Whether this object created the file (so a caller whose next step fails may remove
    /// it again, leaving nothing behind).
    public let createdFile: Bool
    /// The file whose owner and permissions the lock file gets when it is made.
    private let ownerFile: String?

    /// `ownedLike`: a file (the database) whose owner and permission bits the lock file is
    /// given when it is made, as SQLite gives them to the -wal and -shm. Without it, the
    /// lock file is 0644 (less the umask) and its maker's.
    public init(path: String, ownedLike ownerFile: String? = nil) throws {
        self.path = path
        self.ownerFile = ownerFile
        let (fd, created) = try Self.open(path, ownedLike: ownerFile, failure: "cannot create the lock file")
        close(fd)
        createdFile = created
    }

    /// The lock file open for reading and writing, made when missing; and whether it was.
    ///
    /// Made by root (a writer run by cron as root, or by hand with sudo) it would be root's,
    /// 0644, and lock the database's owner out of every write (73): it is given the owner
    /// file's owner and group then, as SQLite does for the -wal and -shm.
    ///
    /// Never through a symbolic link (O_NOFOLLOW): a link to nothing made the open fail
    /// with ENOENT and the create with EEXIST, forever (a tool spinning at full CPU); a
    /// link to a file would lock, and make, someone else's file.
    private static func open(_ path: String, ownedLike ownerFile: String?, failure: String) throws -> (fd: Int32, created: Bool) {
        while true {
            let fd = Glibc.open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
            if fd >= 0 { return (fd, false) }
            if errno == ELOOP {
                throw Failure(.cannotCreate, "\(failure) \(path): it is a symbolic link, and a lock file is never used through one (remove the link)")
            }
            guard errno == ENOENT else {
                throw SystemFailure.error(errno, "\(failure) \(path)", otherwise: .cannotCreate)
            }
            var owner = stat()
            let hasOwner = ownerFile.map { stat($0, &owner) == 0 } ?? false
            let mode = hasOwner ? owner.st_mode & 0o666 : 0o644
            let made = Glibc.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
            if made < 0 {
                if errno == EEXIST { continue }  // made by another process meanwhile
                throw SystemFailure.error(errno, "\(failure) \(path)", otherwise: .cannotCreate)
            }
            if hasOwner {
                // Exactly the owner's permissions, whatever the umask.
                _ = fchmod(made, mode)
                if geteuid() == 0 { _ = fchown(made, owner.st_uid, owner.st_gid) }
            }
            return (made, true)
        }
    }

    /// Waits until `key` is free, then holds it until `unlock()`. Throws when no descriptor
    /// (or kernel lock) is left to hold it with.
    public func lock(_ key: String) throws -> KeyLock {
        try acquire(key, wait: true)!
    }

    /// Takes `key` if nobody holds it; nil otherwise.
    public func tryLock(_ key: String) throws -> KeyLock? {
        try acquire(key, wait: false)
    }

    private func acquire(_ key: String, wait: Bool) throws -> KeyLock? {
        try acquire(at: Self.offset(for: key), wait: wait)
    }

    private func acquire(at offset: Int64, wait: Bool) throws -> KeyLock? {
        while true {
            let fd = try openDescriptor()
            let status = tr_ofd_lock(fd, offset, true, wait)
            if status == 0 {
                if Self.isStillAtPath(fd, path) { return KeyLock(fd: fd, offset: offset) }
                // Removed (and perhaps made anew) while this process waited: take it there.
                _ = tr_ofd_unlock(fd, offset)
                close(fd)
                continue
            }
            close(fd)
            if !wait && (status == EAGAIN || status == EACCES) { return nil }
            throw SystemFailure.error(status, "cannot lock \(path)", otherwise: .internalError)
        }
    }

    /// Whether the file open at `fd` is the one `path` names now.
    private static func isStillAtPath(_ fd: Int32, _ path: String) -> Bool {
        var open = stat(), named = stat()
        guard fstat(fd, &open) == 0, stat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// Removes the lock file if no process holds any of its keys (nor waits in it for one:
    /// it takes them again in a new file); says whether it did. For a caller that made the
    /// file for something that then did not happen, so that nothing is left behind.
    @discardableResult
    public func removeIfUnused() -> Bool {
        let fd = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard tr_ofd_try_lock_whole(fd) == 0, Self.isStillAtPath(fd, path) else { return false }
        return unlink(path) == 0
    }

    /// A descriptor of the lock file, made (owned as the database is) when it is not there.
    private func openDescriptor() throws -> Int32 {
        try Self.open(path, ownedLike: ownerFile, failure: "cannot open the lock file").fd
    }

    /// A set of pins of this process, on a descriptor of its own.
    public func pins() throws -> KeyPins {
        KeyPins(fd: try openDescriptor(), path: path)
    }

    /// Whether some holder (in any process, this one included) has `key` pinned. Stays
    /// true only as long as nobody can pin `key` meanwhile: the caller makes sure of that
    /// (the photo cache holds the photo's lock, under which alone photos are pinned).
    public func isPinned(_ key: String) throws -> Bool {
        guard let probe = try acquire(at: Self.pinOffset(for: key), wait: false) else { return true }
        probe.unlock()
        return false
    }

    /// Pins live in the upper half of the file's offsets, `lock` keys in the lower: a pin,
    /// held for long, never makes a lock wait.
    static func pinOffset(for key: String) -> Int64 {
        offset(for: key) | 0x4000_0000_0000_0000
    }

    /// FNV-1a, folded into the positive range of off_t (its lower half: the upper is pins').
    static func offset(for key: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return Int64(hash & 0x3FFF_FFFF_FFFF_FFFF)
    }
}

/// A held key, until `unlock()` (or deinit) releases it. Call `unlock()` when done: ARC may end
/// an unused object's life early, so do not rely on deinit to hold a lock for a scope.
/// It may be handed to another thread (an open-file-description lock belongs to the
/// descriptor, not to a thread): thumbnails are unlocked by the thread that commits them.
public final class KeyLock: Sendable {
    private let fd: Atomic<Int32>
    private let offset: Int64

    fileprivate init(fd: Int32, offset: Int64) {
        self.fd = Atomic(fd)
        self.offset = offset
    }

    /// The descriptor the key is held on (-1 once unlocked): a child process given a copy
    /// holds the key too, until the copy's last holder closes it or `unlock()` releases it.
    var descriptor: Int32 {
        fd.load(ordering: .acquiring)
    }

    public func unlock() {
        let held = fd.exchange(-1, ordering: .acquiringAndReleasing)
        guard held >= 0 else { return }
        // Released first, then closed: closing alone leaves the key held for as long as a
        // program another thread is starting still has its copy of the descriptor.
        _ = tr_ofd_unlock(held, offset)
        close(held)
    }

    deinit {
        unlock()
    }
}

/// Keys a process holds while it needs what they name (the photo cache: the photos a run
/// printed), many on one descriptor: shared locks, so any number of processes can pin the
/// same key, and a key is free only when none does. `KeyLockFile.isPinned` asks; the kernel
/// drops a dead process's pins.
public final class KeyPins: Sendable {
    private struct Held {
        var fd: Int32
        var offsets: Set<Int64> = []
    }
    private let held: Mutex<Held>
    private let path: String

    fileprivate init(fd: Int32, path: String) {
        held = Mutex(Held(fd: fd))
        self.path = path
    }

    /// Holds `key` until `release()`; pinning it again changes nothing. Waits only while
    /// another process asks `isPinned` about it (an instant).
    public func pin(_ key: String) throws {
        try held.withLock { held in
            let offset = KeyLockFile.pinOffset(for: key)
            guard held.fd >= 0, !held.offsets.contains(offset) else { return }
            let status = tr_ofd_lock(held.fd, offset, false, true)
            guard status == 0 else { throw SystemFailure.error(status, "cannot lock \(path)", otherwise: .internalError) }
            held.offsets.insert(offset)
        }
    }

    /// Lets go of every pin (explicitly, as `KeyLock.unlock()` does, then the descriptor).
    public func release() {
        held.withLock { held in
            guard held.fd >= 0 else { return }
            for offset in held.offsets { _ = tr_ofd_unlock(held.fd, offset) }
            close(held.fd)
            held = Held(fd: -1)
        }
    }

    deinit {
        release()
    }
}

extension KeyLockFile {
    /// Runs `body` while holding `key`.
    public func withLock<T>(_ key: String, _ body: () throws -> T) throws -> T {
        let held = try lock(key)
        defer { held.unlock() }
        return try body()
    }
}
