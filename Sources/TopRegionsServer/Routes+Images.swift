import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TopRegionsCache
import TopRegionsFormatting
import TopRegionsHTTP
import TopRegionsRecords
import TopRegionsStore
import TopRegionsSupport

/// Thumbnails as the browser asks for them, which is when they come on screen
/// (`loading="lazy"`): from the database when there, else downloaded once through the same
/// store and per-photo lock as `thumb-get`, at most `workers` at once.
final class ThumbnailService: Sendable {
    /// One download slot: `Thumbnails` (with its connections) and its downloader, lent to one
    /// request at a time by `WorkerSlots`, which is what makes sharing them safe.
    final class Worker: @unchecked Sendable {
        let thumbnails: Thumbnails
        let downloaders: Downloaders

        init(store: Store, make: @escaping () throws -> Downloader) {
            thumbnails = Thumbnails(store: store)
            downloaders = Downloaders(make)
        }
    }

    let store: Store
    let slots: WorkerSlots<Worker>
    let limits: DownloadLimits
    let now: @Sendable () -> Double

    init(
        store: Store, workers: Int, limits: DownloadLimits, network: Network, retry: RetryPolicy, now: @escaping @Sendable () -> Double,
        trace: (@Sendable (String) -> Void)?
    ) throws {
        self.store = store
        self.limits = limits
        self.now = now
        slots = WorkerSlots((0..<workers).map { _ in
            Worker(store: store) { try Downloader(network: network, retry: retry, now: now, trace: trace) }
        })
    }

    /// The thumbnail of `photo`, downloading it when it is not stored.
    func thumbnail(of photo: StoredPhoto, blocking: BlockingWork) async throws -> ThumbnailResult {
        let (limits, now) = (self.limits, self.now)
        let id = photo.record.id
        return try await slots.with { worker in
            try await blocking.run {
                try worker.thumbnails.thumbnails(
                    for: [id], photos: [id: photo], parallel: 1, limits: limits, now: now,
                    makeDownloader: worker.downloaders.forBatch())[id] ?? .unknownPhoto
            }
        }
    }
}

/// Full photos through the photo cache (`photo-cache`'s: the same directory, cap and locks),
/// at most `workers` downloads at once.
final class PhotoService: Sendable {
    final class Worker: @unchecked Sendable {
        let downloaders: Downloaders

        init(make: @escaping () throws -> Downloader) {
            downloaders = Downloaders(make)
        }
    }

    let cache: PhotoCache
    let slots: WorkerSlots<Worker>
    let limits: DownloadLimits
    let now: @Sendable () -> Double

    init(
        cache: PhotoCache, workers: Int, limits: DownloadLimits, network: Network, retry: RetryPolicy, now: @escaping @Sendable () -> Double,
        trace: (@Sendable (String) -> Void)?
    ) throws {
        self.cache = cache
        self.limits = limits
        self.now = now
        slots = WorkerSlots((0..<workers).map { _ in Worker { try Downloader(network: network, retry: retry, now: now, trace: trace) } })
    }

    /// The photo's file in the cache, downloaded when not there, opened before anything else
    /// can evict it: the descriptor reads the whole photo even if its name goes meanwhile.
    /// Not kept past the cap until the server stops (as a photo-cache run keeps what it
    /// printed): the cache stays within its cap however long the server runs.
    func open(_ photoID: String, url: String, blocking: BlockingWork) async throws -> OpenPhoto {
        let (cache, limits, now) = (self.cache, self.limits, self.now)
        return try await slots.with { worker in
            try await blocking.run {
                let downloader = try worker.downloaders.forBatch()()
                return try cache.ensure(photoID: photoID, url: url, downloader: downloader, limits: limits, now: now(), keepUntilExit: false) {
                    try OpenPhoto(path: $0.entry.path)
                }
            }
        }
    }
}

/// A photo file held open while its bytes are sent.
final class OpenPhoto: Sendable {
    let descriptor: Int32
    let size: Int

    init(path: String) throws {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemFailure.error(errno, "cannot open the cached photo \(path)", otherwise: .inputOutput) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let code = errno
            close(fd)
            throw SystemFailure.error(code, "cannot read the cached photo \(path)", otherwise: .inputOutput)
        }
        descriptor = fd
        size = Int(status.st_size)
    }

    /// Up to `count` bytes from `offset`.
    func read(at offset: Int, count: Int) throws -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(count)
        let read = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { pointer in
            let n = pread(descriptor, pointer.baseAddress, count, off_t(offset))
            guard n >= 0 else { throw SystemFailure.error(errno, "cannot read a cached photo", otherwise: .inputOutput) }
            return n
        }
        guard read > 0 else { throw SystemFailure.error(EIO, "a cached photo ended early", otherwise: .inputOutput) }
        return buffer
    }

    deinit {
        close(descriptor)
    }
}

extension ServedApp {
    func thumbnail(_ photoID: String) async throws -> Response {
        let store = self.store, queries = self.queries
        let (stored, photo): ([UInt8]?, StoredPhoto?) = try await blocking.run {
            if let bytes = try ThumbnailStore(store: store).bytes(of: [photoID])?[photoID] { return (bytes, nil) }
            return (nil, try queries.photo(id: photoID))
        }
        if let stored { return Self.image(stored) }
        // A thumbnail fetched could not be kept: Flickr would be asked again on every view.
        guard canChange else { return Self.placeholder("no thumbnail (read-only)", status: .ok) }
        guard let photo, photo.record.thumbURL != nil else { return Self.placeholder("no thumbnail", status: photo == nil ? .notFound : .ok) }
        switch try await thumbnails.thumbnail(of: photo, blocking: blocking) {
        case .found(let bytes, _):
            return Self.image(bytes)
        case .failed(let error):
            trace?("photo \(photoID): thumbnail download failed: \(error)")
            return Self.placeholder("no thumbnail", status: .ok)
        case .unknownPhoto, .noURL:
            return Self.placeholder("no thumbnail", status: .ok)
        }
    }

    func fullImage(_ photoID: String) async throws -> Response {
        let queries = self.queries
        guard let photo = try await blocking.run({ try queries.photo(id: photoID) }), let url = photo.record.photoURL else {
            return Self.photoPlaceholder(["No full image is known for this photo."], status: .notFound)
        }
        guard let photos else {
            return Self.photoPlaceholder(
                ["The photo cache cannot be written here,", "so full photos are not shown."], status: .serviceUnavailable)
        }
        let file: OpenPhoto
        do {
            file = try await photos.open(photoID, url: url, blocking: blocking)
        } catch let error as DownloadError {
            trace?("photo \(photoID): download failed: \(error)")
            return Self.photoPlaceholder(
                ["The photo could not be fetched:", "the image server did not answer as it should.", "Reload the page to try again."],
                status: .badGateway)
        }
        var headers = Responses.common(contentType: "image/jpeg")
        headers[.cacheControl] = "private, max-age=3600"
        let blocking = self.blocking
        let body = ResponseBody(contentLength: file.size) { writer in
            var offset = 0
            while offset < file.size {
                let (at, count) = (offset, min(256 << 10, file.size - offset))
                let chunk = try await blocking.run { try file.read(at: at, count: count) }
                offset += chunk.readableBytes
                try await writer.write(chunk)
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// Stored image bytes: never changed for a photo, so the browser keeps them.
    static func image(_ bytes: [UInt8]) -> Response {
        guard let type = HTMLPage.imageType(of: bytes) else { return placeholder("no thumbnail", status: .ok) }
        var headers = Responses.common(contentType: type)
        headers[.cacheControl] = "private, max-age=31536000, immutable"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// A striped square with a word, where an image could not be had (in the pages' dark
    /// colours when the reader's system is dark); not kept by the browser, so the next look
    /// asks again.
    static func placeholder(_ text: String, status: HTTPResponse.Status) -> Response {
        // "no thumbnail (read-only)": the aside on a line of its own.
        let parts = text.components(separatedBy: " (")
        return placeholder(lines: [parts[0]] + parts.dropFirst().map { "(" + $0 }, size: 150, status: status)
    }

    /// The full photo's placeholder: in the photo's column, at its width, in words that fit it.
    static func photoPlaceholder(_ lines: [String], status: HTTPResponse.Status) -> Response {
        placeholder(lines: lines, size: 460, height: 300, status: status)
    }

    /// An SVG box of `size` × `height` (square by default) saying `lines`, each on its own
    /// line, in type scaled to the box (a 75 px box with 9 px type overflowed with "no
    /// thumbnail (read-only)", and the full photo's said "photo unavailable" in a thumbnail's
    /// box stretched over the column).
    private static func placeholder(lines: [String], size: Int, height: Int? = nil, status: HTTPResponse.Status) -> Response {
        var headers = Responses.common(contentType: "image/svg+xml")
        headers[.cacheControl] = "no-store"
        headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'"
        let height = height ?? size
        let fontSize = size >= 300 ? 18 : 13
        let lineHeight = fontSize + fontSize / 2
        let firstLine = height / 2 - (lines.count - 1) * lineHeight / 2 + fontSize / 3
        let text = lines.enumerated().map { index, line in
            "<tspan x=\"\(size / 2)\" y=\"\(firstLine + index * lineHeight)\">\(HTMLPage.escape(line))</tspan>"
        }.joined()
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(size)" height="\(height)" viewBox="0 0 \(size) \(height)">\
            <style>.a{fill:#eeeae1}.b{fill:#e3ded3}text{fill:#5f5a4b}\
            @media (prefers-color-scheme:dark){.a{fill:#2b2e30}.b{fill:#25282a}text{fill:#a39d8b}}</style>\
            <defs><pattern id="s" width="16" height="16" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">\
            <rect class="a" width="8" height="16"/><rect class="b" x="8" width="8" height="16"/></pattern></defs>\
            <rect width="\(size)" height="\(height)" fill="url(#s)"/><text font-family="sans-serif" font-size="\(fontSize)" \
            text-anchor="middle">\(text)</text></svg>
            """
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: svg)))
    }
}
