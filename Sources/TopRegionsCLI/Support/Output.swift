import Foundation
import Synchronization
import TopRegionsHTTP
import TopRegionsSupport

/// A byte stream the tools write to: a file descriptor (stdout, stderr), or memory in tests.
///
/// Writes are buffered and thread-safe. Writing to a closed pipe (`regions-top | head`)
/// ends the process quietly with status 0, as a Unix filter should, instead of an error;
/// any other write error ends it with "tool: cannot write to standard output: reason" and
/// status 74.
public final class Output: Sendable {
    private enum Target {
        case descriptor(Int32)
        case memory
    }

    private struct State {
        var buffer: [UInt8] = []
        var captured: [UInt8] = []
    }

    private let target: Target
    /// What the stream is, in words, for the message when writing fails.
    private let name: String
    private let state = Mutex(State())
    private let bufferLimit: Int

    private init(target: Target, name: String, bufferLimit: Int) {
        self.target = target
        self.name = name
        self.bufferLimit = bufferLimit
    }

    /// Standard output: block-buffered, flushed by the tools at natural boundaries.
    public static let standardOutput = Output(target: .descriptor(STDOUT_FILENO), name: "standard output", bufferLimit: 64 * 1024)
    /// Standard error: each diagnostic goes out at once.
    public static let standardError = Output(target: .descriptor(STDERR_FILENO), name: "standard error", bufferLimit: 0)

    /// The name that starts the message when a write fails (set by `ToolContext.process`).
    static let toolName = Mutex("topregions")

    public static func memory() -> Output {
        Output(target: .memory, name: "memory", bufferLimit: .max)
    }

    public func write(_ text: String) {
        write(Array(text.utf8))
    }

    public func write(_ bytes: [UInt8]) {
        // The write(2) happens under the lock too, so chunks from two threads never reorder.
        state.withLock { state in
            switch target {
            case .memory:
                state.captured.append(contentsOf: bytes)
            case .descriptor:
                // Nothing waiting and more than a buffer's worth (an HTML page): straight out.
                if state.buffer.isEmpty && bytes.count > bufferLimit {
                    writeAll(bytes)
                    return
                }
                state.buffer.append(contentsOf: bytes)
                guard state.buffer.count > bufferLimit else { return }
                writeAll(state.buffer)
                state.buffer.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Writes one line: `text` and a newline.
    public func line(_ text: String) {
        write(text + "\n")
    }

    public func flush() {
        state.withLock { state in
            if !state.buffer.isEmpty { writeAll(state.buffer) }
            state.buffer.removeAll(keepingCapacity: true)
        }
    }

    /// What was written, for memory outputs.
    public var text: String {
        String(decoding: state.withLock { $0.captured }, as: UTF8.self)
    }

    public var bytes: [UInt8] {
        state.withLock { $0.captured }
    }

    private func writeAll(_ bytes: [UInt8]) {
        guard case .descriptor(let fd) = target else { return }
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written >= 0 {
                    offset += written
                } else if errno == EINTR {
                    continue
                } else if errno == EPIPE {
                    // The reader is gone (e.g. `| head`): nothing more to say to anyone.
                    Self.exitProcess(0)
                } else {
                    let reason = String(cString: strerror(errno))
                    let message = "\(Self.toolName.withLock { $0 }): cannot write to \(name): \(reason)\n"
                    if fd != STDERR_FILENO { _ = message.withCString { Glibc.write(STDERR_FILENO, $0, strlen($0)) } }
                    Self.exitProcess(SysExit.ioError.rawValue)
                }
            }
        }
    }

    /// Ends the process from the middle of a write, once it is safe to: not while libcurl
    /// is still loading on another thread (`CurlSession.loadInBackground`).
    private static func exitProcess(_ status: Int32) -> Never {
        CurlSession.awaitLoading()
        exit(status)
    }
}
