import Foundation
import Synchronization
import Testing
@testable import TopRegionsSupport
import TopRegionsTestSupport

/// Named locks shared by threads and processes.
@Suite struct KeyLockTests {
    /// `unlock()` frees the key at once, even while another thread of the process starts
    /// programs: between posix_spawn's clone and the program's exec, the child holds a copy
    /// of every descriptor, and an open-file-description lock whose descriptor was only
    /// closed stays held until the child execs. (The test suite spawns the tools while other
    /// tests lock keys: ThumbnailWriterTests' "another asker takes it at once" failed so,
    /// once in a full run.) Released by closing alone, dozens of rounds fail here.
    @Test func anUnlockedKeyIsFreeAtOnceWhileAnotherThreadSpawnsPrograms() throws {
        let directory = TemporaryDirectory()
        let locks = try KeyLockFile(path: directory.file("keys.lock"))
        let spawning = Atomic<Bool>(true)
        let spawned = Atomic<Int>(0)
        let spawner = Thread {
            var argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
            defer { free(argv[0]) }
            while spawning.load(ordering: .relaxed) {
                var pid: pid_t = 0
                if posix_spawn(&pid, "/bin/true", nil, nil, &argv, environ) == 0 {
                    var status: Int32 = 0
                    waitpid(pid, &status, 0)
                    spawned.add(1, ordering: .relaxed)
                }
            }
        }
        spawner.start()
        defer { spawning.store(false, ordering: .relaxed) }
        // Rounds for as long as it takes the other thread to start 300 programs.
        var rounds = 0, stillHeld = 0
        while spawned.load(ordering: .relaxed) < 300 || rounds < 2_000 {
            rounds += 1
            try locks.lock("key").unlock()
            if let again = try locks.tryLock("key") {
                again.unlock()
            } else {
                stillHeld += 1
            }
        }
        #expect(stillHeld == 0, "\(stillHeld) of \(rounds) keys were still held just after unlock()")
    }

    /// Pins are shared: two holders pin one key, it stays pinned until both let go, and a
    /// pin neither waits for nor holds up a lock of the same key.
    @Test func aKeyIsPinnedUntilEveryHolderLetsGo() throws {
        let directory = TemporaryDirectory()
        let locks = try KeyLockFile(path: directory.file("keys.lock"))
        let (first, second) = (try locks.pins(), try locks.pins())
        #expect(try !locks.isPinned("photo:1"))
        try first.pin("photo:1")
        try first.pin("photo:1")
        try second.pin("photo:1")
        try first.pin("photo:2")
        #expect(try locks.isPinned("photo:1") && locks.isPinned("photo:2") && !locks.isPinned("photo:3"))
        let lock = try #require(try locks.tryLock("photo:1"))
        lock.unlock()
        first.release()
        #expect(try locks.isPinned("photo:1") && !locks.isPinned("photo:2"))
        second.release()
        #expect(try !locks.isPinned("photo:1"))
    }

    /// The lock file may be removed while nobody holds a key (a refresh that wrote nothing
    /// leaves none behind): a thread that opened the removed file and took its key there
    /// takes it again in the new one, so two holders never share a key. Without that check,
    /// a few thousand rounds against a remover find holders side by side.
    @Test func removingTheFileWhileKeysAreTakenNeverLetsTwoHoldersShareOne() throws {
        let directory = TemporaryDirectory()
        let locks = try KeyLockFile(path: directory.file("keys.lock"))
        let holders = Atomic<Int>(0), overlaps = Atomic<Int>(0), removals = Atomic<Int>(0)
        let removing = Atomic<Bool>(true)
        let remover = Thread {
            while removing.load(ordering: .relaxed) {
                if locks.removeIfUnused() { removals.add(1, ordering: .relaxed) }
            }
        }
        remover.start()
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<3_000 {
                do {
                    let held = try locks.lock("key")
                    if holders.add(1, ordering: .sequentiallyConsistent).newValue > 1 { overlaps.add(1, ordering: .relaxed) }
                    sched_yield()  // a holder that holds for a moment, as real ones do
                    holders.subtract(1, ordering: .sequentiallyConsistent)
                    held.unlock()
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        removing.store(false, ordering: .relaxed)
        #expect(failures.withLock { $0 } == [])
        #expect(overlaps.load(ordering: .relaxed) == 0, "\(overlaps.load(ordering: .relaxed)) times two threads held the key at once")
        #expect(removals.load(ordering: .relaxed) > 0, "the file was never removed: the test proved nothing")
    }
}
