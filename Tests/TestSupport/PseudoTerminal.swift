import Foundation
import Testing

/// A process whose standard input, output and error are a pseudo-terminal, as when a
/// person runs it: the test reads what the person would see, types (Ctrl-D is EOF at the
/// start of a line), and sets the terminal's width.
public final class TerminalSession {
    public let process = Process()
    private let master: Int32
    private(set) var output: [UInt8] = []

    /// `stdout`: a file for standard output instead of the terminal (stdin and stderr stay
    /// on the terminal), to see what a tool does when only its output is redirected.
    public init(_ executable: String, _ arguments: [String], environment: [String: String], columns: UInt16 = 80, stdout: String? = nil) throws {
        // posix_openpt, unlockpt and ptsname the Linux way (Swift's Glibc does not export
        // them): /dev/ptmx, then unlock and ask for the number of the other end.
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // TIOCSPTLCK = _IOW('T', 0x31, int), TIOCGPTN = _IOR('T', 0x30, unsigned int)
        // (asm-generic; Swift cannot import the macros).
        let (setLock, getNumber): (UInt, UInt) = (0x4004_5431, 0x8004_5430)
        guard master >= 0, ioctl(master, setLock, &unlock) == 0, ioctl(master, getNumber, &number) == 0 else {
            throw TerminalError(message: "no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let name = "/dev/pts/\(number)"
        var size = winsize(ws_row: 24, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        let slave = open(name, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw TerminalError(message: "cannot open \(name)") }
        defer { close(slave) }  // the child has its own copies once started
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : Tools.path(executable))
        process.arguments = arguments
        process.environment = environment
        process.standardInput = terminal
        process.standardError = terminal
        if let stdout {
            _ = FileManager.default.createFile(atPath: stdout, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdout))
        } else {
            process.standardOutput = terminal
        }
        try process.run()
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        close(master)
    }

    public struct TerminalError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    public var text: String { String(decoding: output, as: UTF8.self) }

    /// Reads what the terminal shows until it holds `expected` (true) or `timeout` passes
    /// (false).
    @discardableResult
    public func read(until expected: String, timeout: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !text.contains(expected) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, readSome(timeout: left) else { return text.contains(expected) }
        }
        return true
    }

    /// Types `text` (a keystroke such as "\u{04}", Ctrl-D, included).
    public func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Waits for the process to end (reading what it still shows) and returns its status,
    /// or nil if it is still running after `timeout`.
    public func finish(timeout: Double = 60) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline {
            _ = readSome(timeout: 0.05)
        }
        guard !process.isRunning else { return nil }
        while readSome(timeout: 0.05) {}
        return process.terminationStatus
    }

    /// One read of what is there within `timeout`; false when nothing came.
    private func readSome(timeout: Double) -> Bool {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(max(1, timeout * 1000))) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = Glibc.read(master, &buffer, buffer.count)
        guard count > 0 else { return false }
        output += buffer[..<count]
        return true
    }
}
