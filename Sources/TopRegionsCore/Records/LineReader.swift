import Foundation
import TopRegionsSupport

/// Where a stage reads from: a file, standard input, or bytes (tests).
public enum InputSource: Sendable {
    case standardInput
    case file(String)
    case bytes(String, [UInt8])

    /// The name used in diagnostics: the path, or "stdin".
    public var name: String {
        switch self {
        case .standardInput: "stdin"
        case .file(let path): path
        case .bytes(let name, _): name
        }
    }

    /// The files given on a command line, `-` meaning stdin; stdin when there are none.
    public static func from(arguments: [String], standardInput: InputSource = .standardInput) -> [InputSource] {
        if arguments.isEmpty { return [standardInput] }
        return arguments.map { $0 == "-" ? standardInput : .file($0) }
    }
}

/// Splits an input into lines without copying it whole into memory: reads 1 MiB at a time
/// and hands each line (without its `\n` or `\r\n`) to the caller as a buffer that is valid
/// only during the call.
public enum LineReader {
    /// The longest line read (a saved Flickr page of 500 photos is about 0.5 MiB).
    static let maxLineLength = 64 << 20

    /// `afterEachRead` runs when the lines of one read have been handed over: a filter that
    /// batches lines can pass on what it has before waiting for a slow upstream (a pipe
    /// from flickr-recent delivers a page, then pauses).
    public static func forEachLine(
        in source: InputSource,
        afterEachRead: () throws -> Void = {},
        _ body: (_ lineNumber: Int, _ line: UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        switch source {
        case .bytes(_, let bytes):
            try bytes.withUnsafeBufferPointer { buffer in
                var lineNumber = 0
                _ = try split(buffer, final: true, lineNumber: &lineNumber, body)
            }
            try afterEachRead()
        case .standardInput:
            try read(descriptor: STDIN_FILENO, name: "stdin", afterEachRead: afterEachRead, body)
        case .file(let path):
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                throw SystemFailure.error(errno, "cannot open \(path)", otherwise: .notFound)
            }
            defer { close(fd) }
            try read(descriptor: fd, name: path, afterEachRead: afterEachRead, body)
        }
    }

    private static func read(
        descriptor fd: Int32, name: String, afterEachRead: () throws -> Void,
        _ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        let chunkSize = 1 << 20
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var filled = 0
        var lineNumber = 0
        // The bytes at the start of the buffer already searched for a newline: a line
        // longer than one read is searched once, not again after every read (which took
        // time quadratic in its length).
        var searched = 0
        while true {
            if filled == buffer.count {
                // One line longer than the buffer: grow it, up to a limit no record comes
                // near (binary input or /dev/zero would otherwise take all memory).
                guard buffer.count < maxLineLength else {
                    throw Failure(.invalidData, "\(name): line \(lineNumber + 1) is longer than \(maxLineLength >> 20) MiB: not NDJSON")
                }
                buffer.append(contentsOf: [UInt8](repeating: 0, count: buffer.count))
            }
            let count = buffer.withUnsafeMutableBytes { raw in
                Glibc.read(fd, raw.baseAddress! + filled, raw.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemFailure.error(errno, "cannot read \(name)", otherwise: .inputOutput)
            }
            let final = count == 0
            filled += count
            let consumed = try buffer.withUnsafeBufferPointer { all in
                try split(UnsafeBufferPointer(rebasing: all[0..<filled]), final: final, searched: searched, lineNumber: &lineNumber, body)
            }
            try afterEachRead()
            if final { return }
            if consumed > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    let base = raw.baseAddress!
                    memmove(base, base + consumed, filled - consumed)
                }
                filled -= consumed
            }
            searched = filled
        }
    }

    /// Calls `body` for each complete line; returns how many bytes it consumed. At the end of
    /// input (`final`), a last line without a newline counts too. The first `searched` bytes
    /// are known to hold no newline.
    private static func split(
        _ bytes: UnsafeBufferPointer<UInt8>, final: Bool, searched: Int = 0, lineNumber: inout Int,
        _ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws -> Int {
        var start = 0
        guard let base = bytes.baseAddress else { return 0 }
        while start < bytes.count {
            let from = max(start, searched)
            guard let found = memchr(base + from, 0x0A, bytes.count - from) else { break }
            let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            lineNumber += 1
            try body(lineNumber, trimByteOrderMark(trimCarriageReturn(UnsafeBufferPointer(rebasing: bytes[start..<end])), lineNumber: lineNumber))
            start = end + 1
        }
        if final, start < bytes.count {
            lineNumber += 1
            try body(lineNumber, trimByteOrderMark(trimCarriageReturn(UnsafeBufferPointer(rebasing: bytes[start..<bytes.count])), lineNumber: lineNumber))
            start = bytes.count
        }
        return start
    }

    /// The first line of a stream without a UTF-8 byte order mark, which RFC 8259 §8.1
    /// lets a parser ignore (Windows editors write one). Anywhere else it stays an error.
    private static func trimByteOrderMark(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int) -> UnsafeBufferPointer<UInt8> {
        guard lineNumber == 1, line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF else { return line }
        return UnsafeBufferPointer(rebasing: line[3...])
    }

    private static func trimCarriageReturn(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        if let last = line.last, last == 0x0D {
            return UnsafeBufferPointer(rebasing: line[0..<(line.count - 1)])
        }
        return line
    }
}
