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
        let overlaps = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM photo WHERE id BETWEEN ?1 AND ?2)
                OR EXISTS (SELECT 1 FROM deleted_photo WHERE id BETWEEN ?1 AND ?2)
            """, arguments: [first, last])!
        guard overlaps else { return true }
        // Else one indexed lookup per id, stopping at the first stored one.
        return try !Bool.fetchOne(db, sql: """
            SELECT EXISTS (
                SELECT 1 FROM json_each(?) j
                WHERE EXISTS (SELECT 1 FROM photo WHERE id = j.value)
                   OR EXISTS (SELECT 1 FROM deleted_photo WHERE id = j.value))
            """, arguments: [batch.idsJSON])!
    }

    /// Adds new photos' counts to `region_photographer` and the regions' totals when nothing
    /// is taken away (every photo of the batch is new). Each (region, photographer) pair is
    /// upserted once and returns its count after: the pair is new in its region when that
    /// is the count just added. So the pairs, which with many photographers are spread over
    /// the whole table, are read once; the general path (`CountDeltas.apply`) looks each up
    /// before writing it, a second pass over pages a big store's cache no longer holds.
    /// Pairs go in key order, so each page of the table is visited once per statement.
    static func addNewPhotoCounts(_ counts: [RegionPhotographer: Int64], _ db: Database) throws {
        let pairs = counts.sorted { ($0.key.region, $0.key.photographer) < ($1.key.region, $1.key.photographer) }
        let rowsPerUpsert = 100
        var regions: [Int64: (photographers: Int64, photos: Int64)] = [:]
        for groupStart in stride(from: 0, to: pairs.count, by: rowsPerUpsert) {
            let group = pairs[groupStart..<min(groupStart + rowsPerUpsert, pairs.count)]
            var arguments = StatementArguments()
            for (pair, photos) in group { arguments += [pair.region, pair.photographer, photos] }
            let statement = try db.cachedStatement(sql: """
                INSERT INTO region_photographer (region, photographer, photos)
                    VALUES \(Array(repeating: "(?, ?, ?)", count: group.count).joined(separator: ", "))
                    ON CONFLICT (region, photographer) DO UPDATE SET photos = photos + excluded.photos
                    RETURNING region, photographer, photos
                """)
            let rows = try Row.fetchCursor(statement, arguments: arguments)
            while let row = try rows.next() {
                let pair = RegionPhotographer(region: row[0], photographer: row[1])
                let added = counts[pair]!
                let after: Int64 = row[2]
                regions[pair.region, default: (0, 0)].photographers += after == added ? 1 : 0
                regions[pair.region, default: (0, 0)].photos += added
            }
        }
        let update = try db.cachedStatement(sql: "UPDATE region SET photographers = photographers + ?, photos = photos + ? WHERE id = ?")
        for (region, change) in regions {
            try update.execute(arguments: [change.photographers, change.photos, region])
        }
    }
}
