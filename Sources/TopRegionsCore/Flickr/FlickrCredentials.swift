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
                throw ToolError(.config, "cannot read the API key file \(file)")
            }
            raw = String(contents.split(whereSeparator: \.isNewline).first ?? "")
        } else if let fromEnvironment = environment["FLICKR_API_KEY"] {
            raw = fromEnvironment
        } else {
            throw ToolError(.config, "no Flickr API key: set FLICKR_API_KEY or give --api-key-file (https://www.flickr.com/services/apps/create/)")
        }
        let key = raw.trimmingCharacters(in: .whitespaces)
        guard !key.isEmpty, key.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F && $0 != "&" && $0 != "#" }) else {
            throw ToolError(.config, "the Flickr API key is empty or has characters a key cannot have")
        }
        return FlickrAPIKey(value: key)
    }

    /// `text` with every occurrence of the key replaced, for anything that gets printed.
    public func redact(_ text: String) -> String {
        text.replacingOccurrences(of: value, with: "[API key]")
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
