import TopRegionsRecords

extension RecordScanner {
    /// The known fields of one line as the scanner reads them, and what `PhotoRecord(json:)`
    /// makes of them at the end (its defaults, Flickr's names as fallbacks); each step false
    /// or nil where the decoder would refuse or do something else.
    struct ScannedFields {
        private static let thumbURL = PhotoRecord.plainSlot("thumb_url")
        private static let photoURL = PhotoRecord.plainSlot("photo_url")

        private var spans = RecordSpans()
        private var ownerName = TextSpan.none, flickrOwnerName = TextSpan.none
        private var uploaded: Int64?, flickrUploaded: Int64?
        private var flickrPlain = PlainSpans()
        private var seen: UInt64 = 0
        /// The members the toolkit does not know, kept as JSON values.
        private var extra: JSONObjectBuilder?

        /// Marks `field` as read; false when it already was (a repeated member is the
        /// decoder's to report).
        mutating func isNew(_ field: PhotoRecord.Field) -> Bool {
            let bit = field.bit
            guard seen & bit == 0 else { return false }
            seen |= bit
            return true
        }

        /// Takes a known field's value; false when the value is not valid for it.
        mutating func take(
            _ field: PhotoRecord.Field, _ value: Scalar, _ base: UnsafePointer<UInt8>, _ append: (Int, Int) -> TextSpan
        ) -> Bool {
            switch field {
            case .id:
                guard let span = photoID(value, base, append) else { return false }
                spans.id = span
            case .owner:
                guard let span = identifier(value, base, maxLength: PhotoRecord.maxOwnerLength, append) else { return false }
                spans.owner = span
            case .placeID, .regionID:
                guard let span = optionalIdentifier(value, base, maxLength: PhotoRecord.maxPlaceIDLength, append) else { return false }
                // A region id that cannot name a page: the full decoder says why.
                if field == .regionID, case .string(let start, let count) = value, count > 0,
                   !PhotoRecord.isRegionID(UnsafeBufferPointer(start: base + start, count: count)) { return false }
                if field == .placeID { spans.placeID = span } else { spans.regionID = span }
            case .ownerName: ownerName = text(value, append)
            case .flickrOwnerName: flickrOwnerName = text(value, append)
            case .region: spans.region = text(value, append)
            case .plain(let slot, let flickr):
                guard let span = plain(slot, value, base, append) else { return false }
                if flickr { flickrPlain[slot] = span } else { spans.plain[slot] = span }
            case .latitude, .longitude:
                guard let coordinate = number(value, base, as: Double.self, valid: { abs($0) <= (field == .latitude ? 90 : 180) })
                else { return false }
                if field == .latitude { spans.latitude = coordinate } else { spans.longitude = coordinate }
            case .uploaded, .flickrUploaded:
                guard let seconds = number(value, base, as: Int64.self, valid: { $0 >= 0 }) else { return false }
                if field == .uploaded { uploaded = seconds } else { flickrUploaded = seconds }
            }
            return true
        }

        /// Keeps a member the toolkit does not know, its value read at `i`; false when it is
        /// not valid, repeated, or makes the line a Flickr page or error response (the
        /// decoder's).
        mutating func keepUnknown(_ key: String, in line: UnsafeBufferPointer<UInt8>, at i: inout Int) -> Bool {
            guard key != "photos", key != "stat" else { return false }
            guard let value = try? JSONParser.parseValue(in: line, at: &i, depth: 1) else { return false }
            if extra == nil { extra = JSONObjectBuilder() }
            return extra!.addIfNew(key, value)
        }

        /// The record, as `PhotoRecord(json:)` completes it; nil when it would refuse it.
        /// `empty` is an empty span for the texts that are never absent.
        func record(empty: TextSpan, into bytes: inout [UInt8]) -> RecordSpans? {
            var spans = spans
            guard !spans.id.isNone, !spans.owner.isNone else { return nil }
            if !spans.region.isNone, spans.regionID.isNone { return nil }
            spans.ownerName = !ownerName.isNone ? ownerName : !flickrOwnerName.isNone ? flickrOwnerName : empty
            spans.uploaded = uploaded ?? flickrUploaded
            for (slot, field) in PhotoRecord.plainFields.enumerated() where spans.plain[slot].isNone {
                spans.plain[slot] = flickrPlain[slot]
                if spans.plain[slot].isNone, field.kind.isNeverAbsent { spans.plain[slot] = empty }
            }
            if spans.regionID.isNone {
                spans.region = .none
            } else if spans.region.isNone {
                spans.region = empty
            }
            if let extra {
                // Image URLs made from `server` and `secret` are `fillImageURLs`' to make.
                guard !spans.plain[Self.thumbURL].isNone, !spans.plain[Self.photoURL].isNone else { return nil }
                let start = bytes.count
                JSONWriter.append(.object(extra.object), to: &bytes)
                spans.extra = TextSpan(start: Int32(start), count: Int32(bytes.count - start))
            }
            return spans
        }

        /// A photo id: 1 to 32 decimal digits, quoted or not.
        private func photoID(_ value: Scalar, _ base: UnsafePointer<UInt8>, _ append: (Int, Int) -> TextSpan) -> TextSpan? {
            switch value {
            case .string(let start, let count), .number(let start, let count, true):
                guard count >= 1, count <= PhotoRecord.maxIDDigits,
                      UnsafeBufferPointer(start: base + start, count: count).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
                else { return nil }
                return append(start, count)
            default: return nil
            }
        }

        /// A plain field's text, by its kind; nil when not valid.
        private func plain(_ slot: Int, _ value: Scalar, _ base: UnsafePointer<UInt8>, _ append: (Int, Int) -> TextSpan) -> TextSpan? {
            switch PhotoRecord.plainFields[slot].kind {
            case .textOrEmpty, .nestedTextOrEmpty: text(value, append)
            case .url: url(value, append)
            case .code: optionalIdentifier(value, base, maxLength: RecordField.maxCodeLength, append)
            case .structural: nil
            }
        }

        /// A number member (a coordinate, a time): `.some(nil)` when null; nil when it is
        /// a string, is not exactly a `Number` as written, or is not `valid`.
        private func number<Number: LosslessStringConvertible>(
            _ value: Scalar, _ base: UnsafePointer<UInt8>, as: Number.Type, valid: (Number) -> Bool
        ) -> Number?? {
            switch value {
            case .null: return .some(nil)
            case .number(let start, let count, _):
                guard let number = Number(String(decoding: UnsafeBufferPointer(start: base + start, count: count), as: UTF8.self)),
                      valid(number)
                else { return nil }
                return .some(number)
            case .string, .unescaped: return nil
            }
        }

        /// A place or region id, or a code: as `identifier`, but absent (`.none`) when null or
        /// empty; nil when it is not valid.
        private func optionalIdentifier(
            _ value: Scalar, _ base: UnsafePointer<UInt8>, maxLength: Int, _ append: (Int, Int) -> TextSpan
        ) -> TextSpan? {
            if case .null = value { return TextSpan.none }
            if case .string(_, 0) = value { return TextSpan.none }
            return identifier(value, base, maxLength: maxLength, append)
        }

        /// An owner, place or region id: a string without spaces or control characters, or a
        /// number of digits, at most `maxLength` bytes; nil when it is not (an error, or empty).
        private func identifier(
            _ value: Scalar, _ base: UnsafePointer<UInt8>, maxLength: Int, _ append: (Int, Int) -> TextSpan
        ) -> TextSpan? {
            switch value {
            case .string(let start, let count):
                guard count >= 1, count <= maxLength,
                      !UnsafeBufferPointer(start: base + start, count: count).contains(where: { $0 <= 0x20 || $0 == 0x7F })
                else { return nil }
                return append(start, count)
            case .number(let start, let count, true):
                guard count <= maxLength else { return nil }
                return append(start, count)
            default: return nil
            }
        }

        /// A text field: a string or a number's text; absent when null.
        private func text(_ value: Scalar, _ append: (Int, Int) -> TextSpan) -> TextSpan {
            switch value {
            case .null: .none
            case .string(let start, let count), .number(let start, let count, _): append(start, count)
            case .unescaped(let span): span
            }
        }

        /// A URL: as a text, but absent when empty.
        private func url(_ value: Scalar, _ append: (Int, Int) -> TextSpan) -> TextSpan {
            if case .string(_, 0) = value { return .none }
            return text(value, append)
        }
    }
}
