import GRDB
import TopRegionsIngest
import TopRegionsRecords

// The general path: a batch holding stored or deleted photos is staged in `temp.incoming`
// and merged with a fixed handful of set-based statements.

extension PhotoWriter {
    /// Applies a batch staged in `temp.incoming` that holds stored or deleted photos: drops
    /// the deleted, updates the stored that changed, inserts the new, and records what each
    /// photo counted for before and counts for now in `temp.count_delta`, and keeps the
    /// search index in step (`lastStored`: the largest photo rowid before the batch).
    static func merge(_ batch: PreparedBatch, now: Int64, lastStored: Int64, into result: inout BatchResult, _ db: Database) throws {
        if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM deleted_photo)")! {
            try db.execute(sql: "DELETE FROM incoming WHERE id IN (SELECT id FROM deleted_photo)")
            result.deletedEarlier = db.changesCount
        }

        // What the stored copy (if any) counted for. A record that knows no region for the
        // same place keeps the stored photo's region (a less informed copy does not take
        // it away); a photo that moved to another place takes that place's answer, or
        // waits for it.
        try db.execute(sql: """
            UPDATE incoming SET
                old_rowid = p.rowid, old_region = p.region, old_photographer = p.photographer,
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
            try db.execute(sql: """
                INSERT INTO count_delta (region, photographer, n)
                    SELECT old_region, old_photographer, -1 FROM incoming
                    WHERE old_region IS NOT NULL AND (old_region IS NOT region OR old_photographer <> photographer)
                """)
        }
        try db.execute(sql: """
            INSERT INTO count_delta (region, photographer, n)
                SELECT region, photographer, COUNT(*) FROM incoming
                WHERE region IS NOT NULL AND (old_rowid IS NULL OR old_region IS NOT region OR old_photographer <> photographer)
                GROUP BY region, photographer
            """)

        // (Each step is skipped when it has nothing to do: scanning the batch costs.)
        if stored > 0 {
            // Stored photos whose indexed text changes leave the search index while they
            // still hold what it was made from, and come back once written.
            try db.execute(sql: """
                INSERT INTO reindexing (photo)
                    SELECT i.old_rowid FROM incoming i JOIN photo p ON p.rowid = i.old_rowid
                    WHERE p.title IS NOT i.title OR p.description IS NOT i.description
                       OR p.owner_name IS NOT i.owner_name OR p.region_name IS NOT i.region_name
                """)
            let reindexing = db.changesCount > 0
            let changedText = "rowid IN (SELECT photo FROM reindexing)"
            if reindexing { try SearchIndex.remove(db, photosWhere: changedText) }
            try db.execute(sql: """
                UPDATE photo SET
                    photographer = i.photographer, title = i.title, description = i.description,
                    latitude = i.latitude, longitude = i.longitude, place_id = i.place_id, region = i.region,
                    uploaded = i.uploaded, thumb_url = i.thumb_url, photo_url = i.photo_url, extra = i.extra,
                    owner_name = i.owner_name, region_name = i.region_name
                FROM incoming i
                WHERE photo.rowid = i.old_rowid AND (
                    photo.photographer IS NOT i.photographer OR photo.title IS NOT i.title
                    OR photo.description IS NOT i.description OR photo.latitude IS NOT i.latitude
                    OR photo.longitude IS NOT i.longitude OR photo.place_id IS NOT i.place_id
                    OR photo.region IS NOT i.region OR photo.uploaded IS NOT i.uploaded
                    OR photo.thumb_url IS NOT i.thumb_url OR photo.photo_url IS NOT i.photo_url
                    OR photo.extra IS NOT i.extra OR photo.owner_name IS NOT i.owner_name
                    OR photo.region_name IS NOT i.region_name)
                """)
            result.updated = db.changesCount
            if reindexing {
                try SearchIndex.add(db, photosWhere: changedText)
                try db.execute(sql: "DELETE FROM reindexing")
            }
        }
        if stored < batch.photoCount - result.deletedEarlier {
            try db.execute(sql: """
                INSERT INTO photo (id, photographer, title, description, latitude, longitude, place_id, region,
                                   uploaded, thumb_url, photo_url, extra, owner_name, region_name, added_at)
                    SELECT id, photographer, title, description, latitude, longitude, place_id, region,
                           uploaded, thumb_url, photo_url, extra, owner_name, region_name, ?
                    FROM incoming WHERE old_rowid IS NULL
                """, arguments: [now])
            result.new = db.changesCount
            try SearchIndex.add(db, photosWhere: "rowid > ?", arguments: [lastStored])
        }
        result.unchanged = batch.photoCount - result.deletedEarlier - result.new - result.updated
    }
}
