import GRDB
import TopRegionsRecords

/// The database schema, as versioned migrations. Never edit a migration that has shipped:
/// add a new one.
///
/// Counting distinct photographers per region is the product's main question, so the
/// answer is maintained as data arrives instead of computed by scanning photos:
/// `region_photographer` holds one row per (region, photographer) with how many of that
/// photographer's photos are in the region, and `region.photographers` / `region.photos`
/// are its row count and sum. Every change to `photo.region` or `photo.photographer` goes
/// through `CountDeltas`, which keeps both exactly equal to a full recomputation.
enum Schema {
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()

        migrator.registerMigration("v1 photos, places, regions and counts") { db in
            try db.execute(sql: """
                CREATE TABLE photographer (
                    id INTEGER PRIMARY KEY,
                    nsid TEXT NOT NULL UNIQUE,          -- Flickr NSID: the photographer's identity
                    name TEXT NOT NULL DEFAULT ''       -- display name, not unique
                );

                CREATE TABLE region (
                    id INTEGER PRIMARY KEY,
                    place_id TEXT NOT NULL UNIQUE,      -- the region's own Flickr place id
                    name TEXT NOT NULL,
                    sort_key TEXT NOT NULL,             -- name case-folded for ordering ties
                    latitude REAL,
                    longitude REAL,
                    photographers INTEGER NOT NULL DEFAULT 0 CHECK (photographers >= 0),
                    photos INTEGER NOT NULL DEFAULT 0 CHECK (photos >= 0)
                );
                -- The top-regions query walks this index and stops after LIMIT rows.
                CREATE INDEX region_ranking ON region (photographers DESC, sort_key, place_id)
                    WHERE photographers > 0;
                CREATE INDEX region_by_name ON region (sort_key);

                -- A place lookup, done once ever. region NULL = the place has no region
                -- (country level, or Flickr does not know the place).
                CREATE TABLE place (
                    place_id TEXT PRIMARY KEY,
                    region INTEGER REFERENCES region(id),
                    resolved_at INTEGER NOT NULL
                ) WITHOUT ROWID;

                CREATE TABLE photo (
                    id TEXT NOT NULL UNIQUE,
                    photographer INTEGER NOT NULL REFERENCES photographer(id),
                    title TEXT NOT NULL,
                    description TEXT NOT NULL,
                    latitude REAL,
                    longitude REAL,
                    place_id TEXT,
                    region INTEGER REFERENCES region(id),   -- NULL until the place is resolved
                    uploaded INTEGER,
                    thumb_url TEXT,
                    photo_url TEXT,
                    extra TEXT,                 -- fields the toolkit does not know, as a JSON object
                    added_at INTEGER NOT NULL,  -- when it was first stored (what pruning ages)
                    viewed_at INTEGER           -- last view through photo-cache (Recents)
                );
                CREATE INDEX photo_in_region ON photo (region, uploaded DESC, id) WHERE region IS NOT NULL;
                CREATE INDEX photo_awaiting_place ON photo (place_id) WHERE region IS NULL AND place_id IS NOT NULL;
                CREATE INDEX photo_by_view ON photo (viewed_at DESC) WHERE viewed_at IS NOT NULL;

                CREATE TABLE region_photographer (
                    region INTEGER NOT NULL REFERENCES region(id),
                    photographer INTEGER NOT NULL REFERENCES photographer(id),
                    photos INTEGER NOT NULL CHECK (photos > 0),
                    PRIMARY KEY (region, photographer)
                ) WITHOUT ROWID;

                -- Deleted photos stay deleted: a later load of the same id is skipped.
                CREATE TABLE deleted_photo (
                    id TEXT PRIMARY KEY,
                    deleted_at INTEGER NOT NULL
                ) WITHOUT ROWID;

                -- Small facts about the whole store, e.g. the newest upload time stored
                -- (the watermark flickr-recent --since-last starts from).
                CREATE TABLE store_state (
                    key TEXT PRIMARY KEY,
                    value
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v2 Flickr call ledger") { db in
            try db.execute(sql: """
                -- One row per Flickr API call in the last hour, shared by every process using
                -- this database, to keep the key under Flickr's hourly limit.
                CREATE TABLE api_call (at REAL NOT NULL);
                CREATE INDEX api_call_by_time ON api_call (at);
                """)
        }

        migrator.registerMigration("v3 thumbnails and view order") { db in
            try db.execute(sql: """
                -- Recents: views within one second keep their order through a sequence.
                ALTER TABLE photo ADD COLUMN view_seq INTEGER;
                DROP INDEX photo_by_view;
                CREATE INDEX photo_by_view_order ON photo (view_seq DESC) WHERE view_seq IS NOT NULL;

                -- Square thumbnails, downloaded once when someone asks, kept with their photo
                -- (deleting or pruning the photo deletes its thumbnail).
                CREATE TABLE thumbnail (
                    photo_id TEXT PRIMARY KEY REFERENCES photo(id) ON DELETE CASCADE,
                    bytes BLOB NOT NULL,
                    fetched_at INTEGER NOT NULL
                );
                """)
        }

        migrator.registerMigration("v4 full-text search and all-photo order") { db in
            try db.execute(sql: """
                -- The photographer's and the region's names, kept on each photo (a rename
                -- rewrites its photos): the full-text index reads what it indexes from this
                -- table by column name, and removing a photo from it needs the exact values
                -- it was indexed with. region_name is NULL while region is.
                ALTER TABLE photo ADD COLUMN owner_name TEXT NOT NULL DEFAULT '';
                ALTER TABLE photo ADD COLUMN region_name TEXT;
                UPDATE photo SET
                    owner_name = (SELECT name FROM photographer WHERE id = photo.photographer),
                    region_name = (SELECT name FROM region WHERE id = photo.region);

                -- regions-top --photos: newest upload first, read in index order.
                CREATE INDEX photo_by_upload ON photo (uploaded DESC, id);
                """)
            try db.execute(sql: SearchIndex.createSQL)
            try db.execute(sql: "INSERT INTO photo_fts (photo_fts) VALUES ('rebuild')")
        }

        migrator.registerMigration("v5 place names") { db in
            try db.execute(sql: """
                -- A place's short name and centre, as Flickr gave them when it was looked up
                -- (places looked up before have none: Flickr is never asked twice). A region's
                -- map names its places where they lie.
                ALTER TABLE place ADD COLUMN name TEXT;
                ALTER TABLE place ADD COLUMN latitude REAL;
                ALTER TABLE place ADD COLUMN longitude REAL;
                """)
        }

        migrator.registerMigration("v6 photo license") { db in
            // Flickr's license id of each photo (PhotoRecord.fields): NULL for photos loaded
            // before, or from records without one.
            try db.execute(sql: "ALTER TABLE photo ADD COLUMN license TEXT")
        }

        migrator.registerMigration("v7 deleted photos kept for undelete") { db in
            try db.execute(sql: """
                -- A photo deleted by hand is kept out of every list, not erased, until a prune
                -- of photos first stored that long ago forgets it (its id stays deleted):
                -- undeleting it stores it again as it was. NULL for photos deleted before, and
                -- once forgotten.
                ALTER TABLE deleted_photo ADD COLUMN record TEXT;        -- the photo as a record (NDJSON)
                ALTER TABLE deleted_photo ADD COLUMN added_at INTEGER;   -- when it was first stored
                ALTER TABLE deleted_photo ADD COLUMN viewed_at INTEGER;
                ALTER TABLE deleted_photo ADD COLUMN view_seq INTEGER;
                ALTER TABLE deleted_photo ADD COLUMN thumbnail BLOB;
                ALTER TABLE deleted_photo ADD COLUMN thumbnail_fetched_at INTEGER;
                """)
        }

        migrator.registerMigration("v8 photos by upload time, with their region and photographer") { db in
            // Right now (--window): the photos uploaded in a span of time, with what they
            // count for, read from the index alone, in upload order.
            try db.execute(sql: "CREATE INDEX photo_window ON photo (uploaded, region, photographer) WHERE region IS NOT NULL")
        }

        migrator.registerMigration("v9 the spans of upload time each refresh fetched") { db in
            try db.execute(sql: """
                -- One row per flickr-recent run: the uploads it fetched whole (covered_from to
                -- covered_to, Unix seconds, both included) and what Flickr said its query
                -- matched. A window's span no run covered is a gap: counts there are missing.
                CREATE TABLE refresh_run (
                    started_at INTEGER NOT NULL,
                    covered_from INTEGER NOT NULL,
                    covered_to INTEGER NOT NULL,
                    flickr_total INTEGER,
                    photos INTEGER NOT NULL,
                    complete INTEGER NOT NULL
                );
                CREATE INDEX refresh_run_by_end ON refresh_run (covered_to);
                """)
        }

        migrator.registerMigration("v10 region names ordered ignoring case and accents") { db in
            // Ties in the ranking and --regions sort by the one key every name sorts by
            // (RegionName.sortKey): before, by lower(), which left Épire and Österreich after Z.
            let key = DatabaseFunction("topregions_sort_key", argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0]).map { RegionName.sortKey($0) }
            }
            db.add(function: key)
            try db.execute(sql: "UPDATE region SET sort_key = topregions_sort_key(name)")
            db.remove(function: key)
        }

        migrator.registerMigration("v11 photos without a region by photographer") { db in
            // A renamed photographer's photos (BatchGroup.writeRenames): those with a region
            // are found in photo_window, read alone; these find the rest. Only photos without
            // a region (about a tenth), so that loads hardly pay for what renames need.
            try db.execute(sql: "CREATE INDEX photo_unplaced_by_photographer ON photo (photographer) WHERE region IS NULL")
        }

        migrator.registerMigration("v12 photographers and photos by the hour and day of their upload") { db in
            try UploadBuckets.createHoursAndDays(db)
        }

        migrator.registerMigration("v13 photographers and photos by the ten minutes of their upload") { db in
            try UploadBuckets.createSlots(db)
        }

        migrator.registerMigration("v14 region names in Latin letters for matching") { db in
            // A name in another script is matched by its Latin letters too ("sankt peterburg"
            // finds "Санкт-Петербург"): ICU's transliteration, kept here as a load writes the
            // name (RegionName.latinParts), not done anew by each tool that matches a name:
            // making the transliterator ready was most of `regions-top --region`'s time and
            // several MB of regions-serve's memory (docs/PERFORMANCE.md, "Region names in Latin
            // letters"). NULL: a name in Latin letters (or not known yet).
            try db.execute(sql: "ALTER TABLE region ADD COLUMN latin_parts TEXT")
            // The function every connection of the store has (added again here for one that
            // has not: the same function, never removed, which would take it from the store's).
            db.add(function: PhotoWriter.latinParts)
            try db.execute(sql: "UPDATE region SET latin_parts = topregions_latin_parts(name) WHERE name <> place_id")
        }

        migrator.registerMigration("v15 photos waiting for the search index") { db in
            // By `photo.rowid`: stored photos not in photo_fts yet, those of photographers a
            // load renames, indexed once with their last name (SearchIndex). Empty between
            // loads.
            try db.execute(sql: "CREATE TABLE unindexed_photo (photo INTEGER PRIMARY KEY)")
        }

        return migrator
    }()
}

extension Schema {
    /// Whose database a file holds, judged from its schema before anything is written to it.
    enum Standing: Equatable {
        /// Nothing in it yet (a new, empty or blank SQLite file): ours to fill.
        case blank
        /// This toolkit's; `current` when every migration it knows is applied.
        case ours(current: Bool)
        /// This toolkit's, upgraded by a later version: migrations this one does not know.
        case newer(unknownMigrations: [String])
        /// Another program's: its tables and views (or, with none, its application id).
        case foreign(objects: [String], applicationID: Int32)
    }

    /// The file's standing, read in one transaction of `db` (which may be read-only).
    ///
    /// A file is this toolkit's when GRDB's ledger of migrations names the first migration
    /// this toolkit ever shipped: another program's tables are never taken over (switched to
    /// WAL, given this toolkit's tables), and a later version's schema is not trusted to mean
    /// what this version reads into it (a later migration may rename, split or recount).
    static func standing(_ db: Database) throws -> Standing {
        let objects = try String.fetchAll(db, sql: """
            SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND type IN ('table', 'view') ORDER BY name
            """)
        let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        if objects.isEmpty && applicationID == 0 { return .blank }
        let applied = objects.contains("grdb_migrations") ? try migrator.appliedIdentifiers(db) : []
        let known = migrator.migrations
        guard applicationID == 0, let first = known.first, applied.contains(first) else {
            return .foreign(objects: objects, applicationID: applicationID)
        }
        let unknown = applied.subtracting(known).sorted()
        if !unknown.isEmpty { return .newer(unknownMigrations: unknown) }
        return .ours(current: applied.isSuperset(of: known))
    }
}
