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

    /// Adds photo counts to `temp.count_delta`, many rows per statement.
    static func insertDeltas(_ counts: [RegionPhotographer: Int64], _ db: Database) throws {
        let rowsPerInsert = 100
        let deltas = Array(counts)
        for groupStart in stride(from: 0, to: deltas.count, by: rowsPerInsert) {
            let group = deltas[groupStart..<min(groupStart + rowsPerInsert, deltas.count)]
            let statement = try BulkStatement(db, insertInto: "count_delta", columns: ["region", "photographer", "n"], rows: group.count)
            for (offset, delta) in group.enumerated() {
                let base = Int32(offset * 3)
                statement.bind(base + 1, delta.key.region)
                statement.bind(base + 2, delta.key.photographer)
                statement.bind(base + 3, delta.value)
            }
            try statement.run()
        }
    }
}
