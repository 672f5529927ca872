import Foundation
import TopRegionsHTTP
import TopRegionsSupport

/// The Flickr API key. Kept out of every message: `description` does not show it, and URLs
/// are printed through `redact`.
public struct FlickrAPIKey: Sendable, CustomStringConvertible {
    public let value: String

    public var description: String { "[API key]" }

    /// `--api-key-file` (its first line), else `FLICKR_API_KEY`.
    public static func load(file: String?, environment: [String: String]) throws -> FlickrAPIKey {
        let raw: String
        if let file {
            guard let contents = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw Failure(.misconfigured, "cannot read the API key file \(file)")
            }
            raw = String(contents.split(whereSeparator: \.isNewline).first ?? "")
        } else if let fromEnvironment = environment["FLICKR_API_KEY"] {
            raw = fromEnvironment
        } else {
            throw Failure(.misconfigured, "no Flickr API key: set FLICKR_API_KEY or give --api-key-file (https://www.flickr.com/services/apps/create/)")
        }
        let key = raw.trimmingCharacters(in: .whitespaces)
        guard !key.isEmpty, key.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F && $0 != "&" && $0 != "#" }) else {
            throw Failure(.misconfigured, "the Flickr API key is empty or has characters a key cannot have")
        }
        return FlickrAPIKey(value: key)
    }

    /// `text` made safe to print: the value of every `api_key` parameter (as a URL carries
    /// it), and the key itself (as it is, or percent-encoded), replaced by `[API key]`. A key
    /// of `wholeWordsBelow` characters or more is replaced wherever it stands, glued to other
    /// text too (a host name `x-<key>.example`, a URL quoted inside another, `%3D<key>`); a
    /// shorter one only where it stands as a whole word, so that with a key `k`,
    /// `method=flickr.photos.search` stays readable. (Flickr's keys are 32 hex digits.)
    public func redact(_ text: String) -> String {
        var result = Self.redactParameter(text)
        for form in Set([value, FlickrClient.encode(value)]) where !form.isEmpty {
            result = Self.replace(form, in: result, wholeWordsOnly: form.utf8.count < Self.wholeWordsBelow)
        }
        return result
    }

    /// Keys this long or longer are hidden wherever their text appears.
    static let wholeWordsBelow = 12

    private static let mask = "[API key]"

    /// Replaces the value after `api_key=` (up to `&`, `#`, a space or a quote).
    static func redactParameter(_ text: String) -> String {
        let name = Array("api_key=".utf8)
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let startsParameter = index + name.count <= bytes.count && Array(bytes[index..<(index + name.count)]) == name
                && (index == 0 || !isWordByte(bytes[index - 1]))
            guard startsParameter else {
                output.append(bytes[index])
                index += 1
                continue
            }
            output += name
            index += name.count
            let valueStart = index
            while index < bytes.count, !ends(bytes[index]) { index += 1 }
            // An already-hidden value stays as it is.
            let value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
            output += Array((value.hasPrefix("[API") ? value : mask).utf8)
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Replaces `word` everywhere, or (`wholeWordsOnly`) where neither neighbour continues it
    /// (letters, digits, `_`, `-`).
    static func replace(_ word: String, in text: String, wholeWordsOnly: Bool) -> String {
        let needle = Array(word.utf8)
        let bytes = Array(text.utf8)
        guard !needle.isEmpty, bytes.count >= needle.count else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if index + needle.count <= bytes.count, bytes[index] == needle[0],
               bytes[index..<(index + needle.count)].elementsEqual(needle),
               !wholeWordsOnly || index == 0 || !isWordByte(bytes[index - 1]),
               !wholeWordsOnly || index + needle.count == bytes.count || !isWordByte(bytes[index + needle.count]) {
                output += Array(mask.utf8)
                index += needle.count
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte == 0x2D
            || byte >= 0x80
    }

    private static func ends(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "#") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\"")
            || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: ">")
    }
}

extension FlickrError {
    /// The same error with `key` removed from what came from outside: Flickr's message, a
    /// response's description, libcurl's words (which may quote a redirect's host or URL).
    func redacted(_ key: FlickrAPIKey) -> FlickrError {
        switch self {
        case .api(let method, let code, let message): .api(method: method, code: code, message: key.redact(message))
        case .badResponse(let method, let reason): .badResponse(method: method, reason: key.redact(reason))
        case .transport(let method, let error): .transport(method: method, error.redacted(key))
        default: self
        }
    }
}

extension HTTPError {
    /// The same error with `key` removed from its messages.
    func redacted(_ key: FlickrAPIKey) -> HTTPError {
        switch self {
        case .connection(let message): .connection(key.redact(message))
        case .tls(let message): .tls(key.redact(message))
        case .aborted(let message): .aborted(key.redact(message))
        case .other(let message): .other(key.redact(message))
        default: self
        }
    }
}
