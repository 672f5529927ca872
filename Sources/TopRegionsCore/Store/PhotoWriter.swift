import Foundation
import GRDB
import TopRegionsIngest
import TopRegionsRecords

/// What one batch did to the store.
public struct BatchResult: Sendable, Equatable {
    public var new = 0
    /// Stored photos whose record changed (title, place, region, ...).
    public var updated = 0
    /// Already stored exactly like this.
    public var unchanged = 0
    /// Repeated within the batch (the last copy wins).
    public var duplicates = 0
    /// Deleted earlier with `regions-load --delete`, so not brought back.
    public var deletedEarlier = 0

    public init() {}

    public static func += (lhs: inout BatchResult, rhs: BatchResult) {
        lhs.new += rhs.new
        lhs.updated += rhs.updated
        lhs.unchanged += rhs.unchanged
        lhs.duplicates += rhs.duplicates
        lhs.deletedEarlier += rhs.deletedEarlier
    }
}

/// Writes photos and place resolutions with set-based statements, one transaction per
/// batch. The photos themselves go in 32 to a statement: straight into `photo` when none
/// of them is stored yet (a load, a refresh), else into a temporary table that a fixed
/// handful of INSERT ... SELECT / UPDATE ... FROM statements merges, whatever the batch size.
public struct PhotoWriter: Sendable {
    public let store: Store

    public init(store: Store) {
        self.store = store
    }

    /// How far in the future an upload time may be and still count for the watermark
    /// (`newest_upload`, where `flickr-recent --since-last` starts): clocks differ, but an
    /// upload a day ahead is a bad record, and one such record would make every later
    /// refresh start in the future and find nothing.
    public static let futureUploadTolerance: Int64 = 86_400

    // MARK: Photos

    /// Stores a batch of records in one transaction. Records for the same id: the last wins.
    public func store(_ records: [PhotoRecord], now: Int64) throws -> BatchResult {
        try store(PreparedBatch(records), now: now)
    }

    /// Stores a prepared batch in one transaction.
    public func store(_ batch: PreparedBatch, now: Int64) throws -> BatchResult {
        try transaction(now: now) { try $0.store(batch) }
    }

    /// Stores a batch in `group`'s transaction; `known`: its stored photographers, looked up
    /// ahead (and still true).
    static func store(_ batch: PreparedBatch, known: KnownPhotographers?, in group: BatchGroup) throws -> BatchResult {
        let db = group.db, now = group.now
        // Photos inserted from here on get larger row ids: what the search index adds.
        let lastStored = try SearchIndex.lastRowID(db)
        // Photographers, regions and places first, deduplicated in memory, so each photo
        // is written with the ids it counts for and no statement resolves them row by row.
        let photographers = try Self.upsertPhotographers(batch.photographers, known: known, group)
        let regions = try Self.upsertRegions(batch.regions, db)
        let places = try Self.placeRegions(batch.places, now: now, db)
        let references = References(batch, photographers: photographers, regions: regions, places: places)

        var result = BatchResult()
        result.duplicates = batch.duplicates
        let newest: Int64?
        if try Self.isAllNew(batch, db) {
            // The common case of a load or a refresh: no photo in the batch is stored or
            // deleted, so the photos go straight into `photo`, and what they count for
            // is what was counted while writing them (added at the transaction's end).
            let counts = try Self.insert(batch, references, into: .photo(addedAt: now), db)
            group.newPhotoCounts.add(counts)
            try SearchIndex.addNew(db, after: lastStored, holdingBack: group.holdsBackPhotos())
            result.new = batch.photoCount
            newest = batch.newestUpload(notAfter: now + Self.futureUploadTolerance)
        } else {
            _ = try Self.insert(batch, references, into: .staging, db)
            try Self.merge(batch, now: now, lastStored: lastStored, holdingBack: group.holdsBackPhotos(), into: &result, db)
            newest = try Int64.fetchOneCached(
                db, sql: "SELECT MAX(uploaded) FROM incoming WHERE uploaded <= ?", arguments: [now + Self.futureUploadTolerance])
        }

        if let newest {
            try db.executeCached(sql: """
                INSERT INTO store_state (key, value) VALUES ('newest_upload', ?1)
                ON CONFLICT (key) DO UPDATE SET value = ?1 WHERE value IS NULL OR value < ?1
                """, arguments: [newest])
        }
        try Self.clearStaging(db)
        return result
    }

    struct RegionPhotographer: Hashable {
        var region: Int64
        var photographer: Int64
    }

    /// A photographer's or region's row: its id, and its name as photos carry it (for the
    /// search index).
    struct Named {
        var id: Int64
        var name: String
    }

    /// The rows (ids and names) of what a batch names, looked up once per photographer,
    /// region and place rather than once per photo.
    struct References {
        var photographers: [Named]
        var regions: [Named?]
        /// The region of each place, as far as the store knows it.
        var placeRegions: [Named?]

        init(_ batch: PreparedBatch, photographers: [String: Named], regions: [String: Named], places: [String: Named]) {
            self.photographers = batch.photographers.map { photographers[$0.nsid]! }
            self.regions = batch.regions.map { regions[$0.placeID] }
            placeRegions = batch.places.map { places[$0.placeID] }
        }

        /// The photo's own region wins; else what the store knows of its place.
        func region(of photo: Int, in batch: PreparedBatch) -> Named? {
            let regionSlot = batch.regionIndex[photo], placeSlot = batch.placeIndex[photo]
            return (regionSlot >= 0 ? regions[Int(regionSlot)] : nil) ?? (placeSlot >= 0 ? placeRegions[Int(placeSlot)] : nil)
        }
    }

    /// Where `insert` writes a batch's photos.
    enum Destination {
        /// Straight into `photo`, stamped with the load time.
        case photo(addedAt: Int64)
        /// Into `temp.incoming`, to be merged with what is stored.
        case staging
    }

    /// The only per-photo statement: the batch goes in a group of photos at a time.
    /// Writing straight into `photo`, returns what the photos written count for (`NewPhotos`);
    /// staged photos are counted by the merge, so then it returns nothing.
    static func insert(
        _ batch: PreparedBatch, _ references: References, into destination: Destination, _ db: Database
    ) throws -> NewPhotos {
        func statement(rows: Int) throws -> BulkStatement {
            switch destination {
            case .photo:
                try BulkStatement(db, insertInto: "photo", columns: StagedColumn.names, rows: rows, sameInEveryRow: "added_at")
            case .staging:
                try BulkStatement(db, insertInto: "incoming", columns: StagedColumn.names, rows: rows)
            }
        }
        let full = try statement(rows: PreparedBatch.rowsPerInsert)
        var counts = NewPhotos()
        let countsWhatItWrites = if case .photo = destination { true } else { false }
        for (group, texts) in batch.texts.enumerated() {
            let groupStart = group * PreparedBatch.rowsPerInsert
            let rows = min(PreparedBatch.rowsPerInsert, batch.photoCount - groupStart)
            let insert = rows == PreparedBatch.rowsPerInsert ? full : try statement(rows: rows)
            for index in groupStart..<groupStart + rows {
                let row = index - groupStart
                let photographer = references.photographers[Int(batch.photographerIndex[index])]
                let region = references.region(of: index, in: batch)
                insert.bind(StagedColumn.photographer.parameter(row: row), photographer.id)
                insert.bind(StagedColumn.ownerName.parameter(row: row), photographer.name)
                insert.bind(StagedColumn.region.parameter(row: row), region?.id)
                insert.bind(StagedColumn.regionName.parameter(row: row), region?.name)
                insert.bind(StagedColumn.latitude.parameter(row: row), batch.latitude[index])
                insert.bind(StagedColumn.longitude.parameter(row: row), batch.longitude[index])
                insert.bind(StagedColumn.uploaded.parameter(row: row), batch.uploaded[index])
                if countsWhatItWrites, let region {
                    counts.add(RegionPhotographer(region: region.id, photographer: photographer.id), uploaded: batch.uploaded[index])
                }
            }
            if case .photo(let addedAt) = destination {
                insert.bind(Int32(rows) * StagedColumn.count + 1, addedAt)  // the one shared parameter, after every row's
            }
            try insert.run(texts: texts)
        }
        return counts
    }
}
