import GRDB

/// The Flickr calls made recently, one row each in `api_call`, shared by every process
/// using the database (the Flickr client's hourly limit is kept with it).
package struct CallLog: Sendable {
    package let store: Store

    package init(store: Store) {
        self.store = store
    }

    package enum Admission: Sendable, Equatable {
        case admitted
        /// `limit` calls were made within the window: the next one may go in this many seconds.
        case full(nextCallIn: Int)
    }

    /// Records a call at `now` if fewer than `limit` were made in the `window` seconds
    /// before it; one transaction, so two processes cannot both take the last place.
    package func admit(at now: Double, limit: Int, window: Double) throws -> Admission {
        try store.write(changesContent: false) { db in
            try db.executeCached(sql: "DELETE FROM api_call WHERE at <= ?", arguments: [now - window])
            let row = try Row.fetchOneCached(db, sql: "SELECT COUNT(*), MIN(at) FROM api_call")!
            let count: Int = row[0]
            if count >= limit {
                let oldest: Double = row[1]
                return .full(nextCallIn: max(1, Int((oldest + window - now).rounded(.up))))
            }
            try db.executeCached(sql: "INSERT INTO api_call (at) VALUES (?)", arguments: [now])
            return .admitted
        }
    }

    /// Records calls made before the database existed (`CallLedger`).
    package func record(_ times: [Double]) throws {
        guard !times.isEmpty else { return }
        try store.write(changesContent: false) { db in
            for at in times { try db.executeCached(sql: "INSERT INTO api_call (at) VALUES (?)", arguments: [at]) }
        }
    }
}
