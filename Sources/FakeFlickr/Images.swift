import Hummingbird

/// One rendition of a photo (flickr-api.md §6), named by the `url_*` extra that points at it
/// and by the suffix in its file name.
struct ImageSize: Sendable {
    enum SecretKind: Sendable {
        case photo, h, k, original
    }

    /// The extra's name after `url_`, e.g. "sq" for `url_sq`.
    let extra: String
    /// The file-name suffix; empty for the 500 px size, whose name has no suffix at all.
    let suffix: String
    /// nil for the original.
    let longestEdge: Int?
    let isSquare: Bool
    let byteRange: ClosedRange<Int>
    let secretKind: SecretKind

    static let all: [ImageSize] = [
        ImageSize(extra: "sq", suffix: "s", longestEdge: 75, isSquare: true, byteRange: 1536...4096, secretKind: .photo),
        ImageSize(extra: "q", suffix: "q", longestEdge: 150, isSquare: true, byteRange: 4096...8192, secretKind: .photo),
        ImageSize(extra: "t", suffix: "t", longestEdge: 100, isSquare: false, byteRange: 2560...5120, secretKind: .photo),
        ImageSize(extra: "s", suffix: "m", longestEdge: 240, isSquare: false, byteRange: 9_000...20_000, secretKind: .photo),
        ImageSize(extra: "n", suffix: "n", longestEdge: 320, isSquare: false, byteRange: 14_000...30_000, secretKind: .photo),
        ImageSize(extra: "w", suffix: "w", longestEdge: 400, isSquare: false, byteRange: 20_000...45_000, secretKind: .photo),
        ImageSize(extra: "m", suffix: "", longestEdge: 500, isSquare: false, byteRange: 28_000...60_000, secretKind: .photo),
        ImageSize(extra: "z", suffix: "z", longestEdge: 640, isSquare: false, byteRange: 45_000...100_000, secretKind: .photo),
        ImageSize(extra: "c", suffix: "c", longestEdge: 800, isSquare: false, byteRange: 70_000...150_000, secretKind: .photo),
        ImageSize(extra: "l", suffix: "b", longestEdge: 1024, isSquare: false, byteRange: 153_600...614_400, secretKind: .photo),
        ImageSize(extra: "h", suffix: "h", longestEdge: 1600, isSquare: false, byteRange: 400_000...1_200_000, secretKind: .h),
        ImageSize(extra: "k", suffix: "k", longestEdge: 2048, isSquare: false, byteRange: 700_000...2_000_000, secretKind: .k),
        // An original is the large size plus this many bytes, so it is never smaller.
        ImageSize(extra: "o", suffix: "o", longestEdge: nil, isSquare: false, byteRange: 200_000...1_500_000, secretKind: .original),
    ]

    static let large = all.first { $0.suffix == "b" }!

    static func withSuffix(_ suffix: String) -> ImageSize? {
        all.first { $0.suffix == suffix }
    }

    /// The secret in this rendition's file name, or nil when the photo does not offer it.
    func secret(of photo: Photo) -> String? {
        switch secretKind {
        case .photo: photo.secret
        case .h: photo.secretH
        case .k: photo.secretK
        case .original: photo.originalSecret
        }
    }

    /// The path on the image host, e.g. "/65535/53120987654_a1b2c3d4e5_b.jpg".
    func path(of photo: Photo) -> String? {
        guard let secret = secret(of: photo) else { return nil }
        let fileExtension = secretKind == .original ? photo.originalFormat : "jpg"
        let suffixPart = suffix.isEmpty ? "" : "_\(suffix)"
        return "/\(photo.server)/\(photo.id)_\(secret)\(suffixPart).\(fileExtension)"
    }

    func dimensions(of photo: Photo) -> (width: Int, height: Int) {
        guard let longestEdge else { return (photo.originalWidth, photo.originalHeight) }
        if isSquare { return (longestEdge, longestEdge) }
        let (width, height) = (photo.originalWidth, photo.originalHeight)
        if width >= height {
            return (longestEdge, (longestEdge * height + width / 2) / width)
        }
        return ((longestEdge * width + height / 2) / height, longestEdge)
    }
}

extension World {
    /// The byte length of a rendition: fixed per (seed, photo, size).
    func imageLength(of photo: Photo, size: ImageSize) -> Int {
        if let largeBytes = options.largeBytes, size.secretKind == .original || size.suffix == "b" {
            return largeBytes
        }
        let drawn = size.byteRange.lowerBound
            + Int(imageSeed(of: photo, size: size) % UInt64(size.byteRange.count))
        return size.secretKind == .original ? imageLength(of: photo, size: .large) + drawn : drawn
    }

    func imageSeed(of photo: Photo, size: ImageSize) -> UInt64 {
        Mixing.combine(options.seed, photo.id, Mixing.hash("image:" + size.extra))
    }

    /// The photo and rendition a path on the image host names, if the photo is visible at
    /// `now` and the secret, server and extension match; anything else is a 404 on Flickr.
    func image(atPath path: String, now: Int64) -> (photo: Photo, size: ImageSize)? {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard components.count == 3, components[0].isEmpty else { return nil }
        let fileName = components[2]
        guard let dot = fileName.lastIndex(of: ".") else { return nil }
        let parts = fileName[..<dot].split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
            let id = UInt64(parts[0]),
            let photo = photo(id: id), photo.uploaded <= now,
            photo.server == components[1],
            let size = ImageSize.withSuffix(parts.count == 3 ? String(parts[2]) : ""),
            size.path(of: photo) == path
        else { return nil }
        return (photo, size)
    }
}

/// The bytes of a fake JPEG of an exact length that decodes to a real picture: SOI and a
/// JFIF APP0 segment, then filler in comment (COM) segments, then a small real image
/// (`TinyJPEG`: quantization and Huffman tables, frame, scan) and EOI. Byte i depends only
/// on (seed, length, i), so any range can be produced on its own and a 40 MB body is
/// streamed without ever being held in memory. The picture has the rendition's dimensions,
/// halved as often as needed to fit the length (an original of 24 megapixels is drawn
/// smaller); a length too short for any picture keeps the JPEG framing around filler.
struct JPEGFiller: Sendable {
    static let header: [UInt8] = [
        0xFF, 0xD8,  // SOI
        0xFF, 0xE0, 0x00, 0x10,  // APP0, length 16
        0x4A, 0x46, 0x49, 0x46, 0x00,  // "JFIF\0"
        0x01, 0x01,  // version 1.1
        0x00,  // density units: none (aspect ratio only)
        0x00, 0x01, 0x00, 0x01,  // density 1:1
        0x00, 0x00,  // no thumbnail
    ]
    static let trailer: [UInt8] = [0xFF, 0xD9]  // EOI
    static let minimumLength = header.count + trailer.count
    /// The most 8x8 blocks a picture gets (1024 x 1024 pixels): bounds the work per request.
    static let maximumBlocks = 16_384
    static let segmentLimit = 65_535

    let length: Int
    let seed: UInt64
    /// DQT ... EOI of the picture, at the end of the body; just EOI when none fits.
    let tail: [UInt8]
    /// Where the filler starts and ends: [header.count, fillerEnd).
    let fillerEnd: Int
    /// Start offsets of the COM segments in the filler (empty when none fits: then the
    /// filler is 0xFF fill bytes, which may precede any marker).
    let segmentStarts: [Int]

    init(length: Int, seed: UInt64, width: Int = 75, height: Int = 75) {
        self.length = length
        self.seed = seed
        var (w, h) = (max(width, 1), max(height, 1))
        while ((w + 7) / 8) * ((h + 7) / 8) > Self.maximumBlocks { (w, h) = (max(w / 2, 1), max(h / 2, 1)) }
        var picture: [UInt8]? = nil
        while true {
            let candidate = TinyJPEG.segments(width: w, height: h, seed: seed)
            if Self.header.count + candidate.count <= length { picture = candidate; break }
            if w == 1 && h == 1 { break }
            (w, h) = (max(w / 2, 1), max(h / 2, 1))
        }
        if let picture {
            tail = picture
        } else {
            tail = Self.trailer
        }
        fillerEnd = length - tail.count
        // Comment segments of at most 65,535 bytes; the last ones sized so none is shorter
        // than its own 4-byte header. Under 4 bytes of filler are 0xFF fill bytes instead.
        var starts: [Int] = []
        if picture != nil {
            var position = Self.header.count
            while fillerEnd - position >= 4 {
                var size = min(fillerEnd - position, Self.segmentLimit)
                let left = fillerEnd - position - size
                if left > 0 && left < 4 { size -= 4 - left }
                starts.append(position)
                position += size
            }
        }
        segmentStarts = starts
    }

    /// The run of filler holding `position`: a comment segment, or the whole filler.
    private func fillerRun(at position: Int) -> (start: Int, end: Int, isSegment: Bool) {
        guard !segmentStarts.isEmpty else { return (Self.header.count, fillerEnd, false) }
        // Every segment but the last two is full size: index by division, then adjust.
        var index = min((position - Self.header.count) / Self.segmentLimit, segmentStarts.count - 1)
        while segmentStarts[index] > position { index -= 1 }
        while index + 1 < segmentStarts.count && segmentStarts[index + 1] <= position { index += 1 }
        let end = index + 1 < segmentStarts.count ? segmentStarts[index + 1] : fillerEnd
        return (segmentStarts[index], end, true)
    }

    func bytes(in range: Range<Int>) -> ByteBuffer {
        var buffer = ByteBuffer()
        let hasPicture = tail.count > Self.trailer.count
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: range.count) { destination in
            var position = range.lowerBound
            var out = 0
            while position < range.upperBound {
                if position < Self.header.count {
                    destination[out] = Self.header[position]
                    position += 1
                    out += 1
                    continue
                }
                if position >= fillerEnd {
                    destination[out] = tail[position - fillerEnd]
                    position += 1
                    out += 1
                    continue
                }
                let run = fillerRun(at: position)
                let runEnd = min(run.end, range.upperBound)
                if !run.isSegment && hasPicture {
                    // Under 4 bytes of filler: 0xFF fill bytes before the picture's first marker.
                    while position < runEnd { destination[out] = 0xFF; position += 1; out += 1 }
                    continue
                }
                let payloadLength = run.end - run.start - 2
                var wordIndex = -1
                var word: UInt64 = 0
                while position < runEnd {
                    let byte: UInt8
                    switch run.isSegment ? position - run.start : 4 {
                    case 0: byte = 0xFF
                    case 1: byte = 0xFE  // COM
                    case 2: byte = UInt8(payloadLength >> 8)
                    case 3: byte = UInt8(payloadLength & 0xFF)
                    default:
                        if position / 8 != wordIndex {
                            wordIndex = position / 8
                            word = Mixing.finalize(seed ^ UInt64(wordIndex))
                        }
                        byte = UInt8(truncatingIfNeeded: word >> (UInt64(position % 8) * 8))
                    }
                    destination[out] = byte
                    position += 1
                    out += 1
                }
            }
            return range.count
        }
        return buffer
    }
}
