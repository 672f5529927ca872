import GRDB
import TopRegionsIngest
import TopRegionsRecords

// The fast path of a load or a refresh: no photo of the batch is stored or deleted yet,
// so the photos go straight into `photo` and count for what was counted while writing.

extension PhotoWriter {
    /// Whether no photo of the batch is stored or was deleted.
    static func isAllNew(_ batch: PreparedBatch, _ db: Database) throws -> Bool {
        guard let first = batch.firstID, let last = batch.lastID else { return true }
        // Photo ids grow with time, so the ids of a load or a refresh usually lie outside
        // every stored range: when nothing stored falls between the batch's first and last
        // id (two index probes), nothing in the batch is stored.
        let overlaps = try Bool.fetchOneCached(db, sql: """
            SELECT EXISTS (SELECT 1 FROM photo WHERE id BETWEEN ?1 AND ?2)
                OR EXISTS (SELECT 1 FROM deleted_photo WHERE id BETWEEN ?1 AND ?2)
            """, arguments: [first, last])!
        guard overlaps else { return true }
        // Else one indexed lookup per id, stopping at the first stored one.
        return try !Bool.fetchOneCached(db, sql: """
            SELECT EXISTS (
                SELECT 1 FROM json_each(?) j
                WHERE EXISTS (SELECT 1 FROM photo WHERE id = j.value)
                   OR EXISTS (SELECT 1 FROM deleted_photo WHERE id = j.value))
            """, arguments: [batch.idsJSON])!
    }

    /// What a transaction's new photos add to the counts, waiting for its end: per (region,
    /// photographer) their photos and newest upload, and per region their photos by slot.
    struct NewPhotos {
        var pairs: [RegionPhotographer: (photos: Int64, latest: Int64?)] = [:]
        var photosBySlot: [UploadBuckets.BucketRegion: Int64] = [:]

        mutating func add(_ pair: RegionPhotographer, uploaded: Int64?) {
            Self.count(&pairs[pair, default: (0, nil)], uploaded: uploaded)
            guard let uploaded else { return }
            photosBySlot[UploadBuckets.BucketRegion(bucket: UploadBuckets.slot(of: uploaded), region: pair.region), default: 0] += 1
        }

        mutating func add(_ other: NewPhotos) {
            guard !pairs.isEmpty else { self = other; return }
            pairs.merge(other.pairs) { a, b in (a.photos + b.photos, Self.newer(a.latest, b.latest)) }
            photosBySlot.merge(other.photosBySlot, uniquingKeysWith: +)
        }

        /// One more photo for a pair, uploaded at `uploaded` (one look-up of the pair).
        private static func count(_ counts: inout (photos: Int64, latest: Int64?), uploaded: Int64?) {
            counts.photos += 1
            counts.latest = newer(counts.latest, uploaded)
        }

        /// The later of two upload times, either unknown.
        static func newer(_ a: Int64?, _ b: Int64?) -> Int64? {
            guard let a else { return b }
            guard let b else { return a }
            return Swift.max(a, b)
        }
    }

    /// Adds new photos' counts to `region_photographer`, the regions' totals and the upload
    /// buckets when nothing is taken away (every photo of the batch is new). Each (region,
    /// photographer) pair is upserted once and returns its count after and its newest upload
    /// before: the pair is new in its region when its count is the one just added, and its
    /// newest upload moves when one of the new photos is newer (then written, while its page
    /// is at hand). So the pairs, which with many photographers are spread over the whole
    /// table, are read once; the general path (`CountDeltas.apply`) looks each up before
    /// writing it, a second pass over pages a big store's cache no longer holds. Pairs go in
    /// key order, so each page of the table is visited once per statement.
    static func addNewPhotoCounts(_ added: NewPhotos, _ db: Database) throws {
        let pairs = added.pairs.sorted { ($0.key.region, $0.key.photographer) < ($1.key.region, $1.key.photographer) }
        var regions: [Int64: (photographers: Int64, photos: Int64)] = [:]
        var buckets: [UploadBuckets.BucketRegion: UploadBuckets.Change] = [:]
        for (key, photos) in added.photosBySlot { buckets[key, default: .init()].photos += photos }
        /// A pair counted in (`by` 1) or out of (-1) the slot of its newest upload `latest`.
        func countPair(in region: Int64, newest latest: Int64, by change: Int64) {
            buckets[.init(bucket: UploadBuckets.slot(of: latest), region: region), default: .init()].photographers += change
        }
        var moves: [(pair: RegionPhotographer, latest: Int64)] = []
        let moveLatest = try BulkStatement(db, sql: "UPDATE region_photographer SET latest = ? WHERE region = ? AND photographer = ?")
        // The update leaves `latest` as it was, so that it is what comes back.
        try BulkStatement.forEachReturnedRow(db, rows: pairs.count, width: 4, sql: { count in
            """
            INSERT INTO region_photographer (region, photographer, photos, latest)
                VALUES \(BulkStatement.valuesList(rows: count, width: 4))
                ON CONFLICT (region, photographer) DO UPDATE SET photos = photos + excluded.photos
                RETURNING region, photographer, photos, latest
            """
        }, bind: { statement, first, index in
            let (pair, counts) = pairs[index]
            statement.bind(first, pair.region)
            statement.bind(first + 1, pair.photographer)
            statement.bind(first + 2, counts.photos)
            statement.bind(first + 3, counts.latest)
        }, { row in
            let pair = RegionPhotographer(region: row.requiredInt(0), photographer: row.requiredInt(1))
            let counts = added.pairs[pair]!
            let isNew = row.requiredInt(2) == counts.photos
            regions[pair.region, default: (0, 0)].photographers += isNew ? 1 : 0
            regions[pair.region, default: (0, 0)].photos += counts.photos
            guard let latest = counts.latest else { return }
            if isNew {
                countPair(in: pair.region, newest: latest, by: 1)
                return
            }
            let before = row.int(3)
            guard before.map({ latest > $0 }) ?? true else { return }
            if let before { countPair(in: pair.region, newest: before, by: -1) }
            countPair(in: pair.region, newest: latest, by: 1)
            moves.append((pair, latest))
        }, afterEachRun: {
            for move in moves {
                moveLatest.bind(1, move.latest)
                moveLatest.bind(2, move.pair.region)
                moveLatest.bind(3, move.pair.photographer)
                try moveLatest.run()
            }
            moves.removeAll(keepingCapacity: true)
        })
        let update = try db.cachedStatement(sql: "UPDATE region SET photographers = photographers + ?, photos = photos + ? WHERE id = ?")
        for (region, change) in regions {
            try update.execute(arguments: [change.photographers, change.photos, region])
        }
        try UploadBuckets.add(buckets, db)
    }
}
