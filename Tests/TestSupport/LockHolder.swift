import Foundation

/// Another process holding the database's write lock (`BEGIN IMMEDIATE`, as a load's
/// transaction does) until `release()`: what a page does meanwhile shows whether it waits
/// for writers. Python's sqlite3, so the holder is no code of the toolkit's.
public final class LockHolder {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()

    public init(_ db: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import sqlite3, sys
            connection = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=60)
            connection.execute("BEGIN IMMEDIATE")
            print("locked", flush=True)
            sys.stdin.readline()
            connection.execute("ROLLBACK")
            """, db]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // Returns once the lock is taken: the line is printed after BEGIN IMMEDIATE.
        let line = String(decoding: output.fileHandleForReading.readData(ofLength: 7), as: UTF8.self)
        guard line == "locked\n" else { throw FakeFlickrProcess.FakeError(message: "could not take the write lock of \(db)") }
    }

    /// Ends the transaction and waits for the process to exit.
    public func release() {
        guard process.isRunning else { return }
        input.fileHandleForWriting.write(Data("\n".utf8))
        process.waitUntilExit()
    }

    deinit { release() }
}
