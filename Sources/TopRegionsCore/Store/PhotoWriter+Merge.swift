import GRDB
import TopRegionsIngest
import TopRegionsRecords

// The general path: a batch holding stored or deleted photos is staged in `temp.incoming`
// and merged with a fixed handful of set-based statements.

extension PhotoWriter {
    /// Applies a batch staged in `temp.incoming` that holds stored or deleted photos: drops
    /// the deleted, updates the stored that changed, inserts the new, and records what each
    /// photo counted for before and counts for now (and when it was uploaded) in `temp.count_delta`, and keeps the
    /// search index in step (`lastStored`: the largest photo rowid before the batch;
    /// `holdingBack`: see `SearchIndex.addNew`).
    static func merge(
        _ batch: PreparedBatch, now: Int64, lastStored: Int64, holdingBack: Bool, into result: inout BatchResult, _ db: Database
    ) throws {
        if try Bool.fetchOneCached(db, sql: "SELECT EXISTS (SELECT 1 FROM deleted_photo)")! {
            try db.executeCached(sql: "DELETE FROM incoming WHERE id IN (SELECT id FROM deleted_photo)")
            result.deletedEarlier = db.changesCount
        }

        // What the stored copy (if any) counted for. A record that knows no region for the
        // same place keeps the stored photo's region (a less informed copy does not take
        // it away); a photo that moved to another place takes that place's answer, or
        // waits for it.
        try db.executeCached(sql: """
            UPDATE incoming SET
                old_rowid = p.rowid, old_region = p.region, old_photographer = p.photographer, old_uploaded = p.uploaded,
                region = CASE
                    WHEN incoming.region IS NOT NULL THEN incoming.region
                    WHEN incoming.place_id IS p.place_id THEN p.region
                END,
                region_name = CASE
                    WHEN incoming.region IS NOT NULL THEN incoming.region_name
                    WHEN incoming.place_id IS p.place_id THEN p.region_name
                END
                FROM photo p WHERE p.id = incoming.id
            """)
        let stored = db.changesCount
        if stored > 0 {
            try db.executeCached(sql: """
                INSERT INTO count_delta (region, photographer, n, uploaded)
                    SELECT old_region, old_photographer, -1, old_uploaded FROM incoming
                    WHERE old_region IS NOT NULL AND (old_region IS NOT region OR old_photographer <> photographer OR old_uploaded IS NOT uploaded)
                """)
        }
        try db.executeCached(sql: """
            INSERT INTO count_delta (region, photographer, n, uploaded)
                SELECT region, photographer, COUNT(*), uploaded FROM incoming
                WHERE region IS NOT NULL
                  AND (old_rowid IS NULL OR old_region IS NOT region OR old_photographer <> photographer OR old_uploaded IS NOT uploaded)
                GROUP BY region, photographer, uploaded
            """)

        // (Each step is skipped when it has nothing to do: scanning the batch costs.)
        if stored > 0 {
            // Stored photos whose indexed text changes leave the search index while they
            // still hold what it was made from, and come back once written.
            try db.executeCached(sql: """
                INSERT INTO reindexing (photo)
                    SELECT i.old_rowid FROM incoming i JOIN photo p ON p.rowid = i.old_rowid
                    WHERE \(Self.indexedTextChanged)
                """)
            let reindexing = db.changesCount > 0
            let changedText = "rowid IN (SELECT photo FROM reindexing)"
            if reindexing { try SearchIndex.remove(db, photosWhere: changedText) }
            // OR IGNORE: a statement that could stop halfway keeps the original of every page
            // it changes in memory (a statement journal), here a page per changed photo, all
            // over the table (20k changed photos in a 1M store: 149 MB at the peak, 66 with
            // it). Nothing can be ignored: `incoming` declares photo's NOT NULLs, and the id
            // is not set.
            try db.executeCached(sql: """
                UPDATE OR IGNORE photo SET \(Self.merged.map { "\($0) = i.\($0)" }.joined(separator: ", "))
                FROM incoming i
                WHERE photo.rowid = i.old_rowid AND (\(Self.merged.map { "photo.\($0) IS NOT i.\($0)" }.joined(separator: " OR ")))
                """)
            result.updated = db.changesCount
            if reindexing {
                try SearchIndex.add(db, photosWhere: changedText)
                try db.executeCached(sql: "DELETE FROM reindexing")
            }
        }
        if stored < batch.photoCount - result.deletedEarlier {
            try db.executeCached(sql: """
                INSERT INTO photo (\(StagedColumn.names.joined(separator: ", ")), added_at)
                    SELECT \(StagedColumn.names.joined(separator: ", ")), ? FROM incoming WHERE old_rowid IS NULL
                """, arguments: [now])
            result.new = db.changesCount
            try SearchIndex.addNew(db, after: lastStored, holdingBack: holdingBack)
        }
        result.unchanged = batch.photoCount - result.deletedEarlier - result.new - result.updated
    }

    /// The columns a stored photo takes from a new copy: every staged one but the id.
    private static let merged = StagedColumn.names.filter { $0 != StagedColumn.id.name }

    /// Whether a staged photo `i` changes a text the search index read from stored photo `p`.
    private static let indexedTextChanged = SearchIndex.columns.split(separator: ", ").map { "p.\($0) IS NOT i.\($0)" }.joined(separator: " OR ")
}
