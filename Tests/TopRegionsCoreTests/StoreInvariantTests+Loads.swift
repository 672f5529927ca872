import GRDB
import Testing
@testable import TopRegionsIngest
@testable import TopRegionsRecords
@testable import TopRegionsStore
import TopRegionsTestSupport

extension StoreInvariantTests {
    /// Loads of several transactions whose renames wait for the load's end, holding the
    /// renamed photographers' new photos back from the search index until then (issue
    /// 35.13), while other writers resolve places, prune and delete between the load's
    /// transactions (as regions-serve or place-resolve do beside a cron load). After each
    /// load the counts, the names and the index equal their recomputation, and each word
    /// finds exactly the photos the model says. Regression: a photographer forgotten in the
    /// middle of a load (their last photo pruned) left their waiting rename to whoever took
    /// their row id next, or to themselves stored again under another name.
    @Test(arguments: Array(21...32) as [UInt64])
    func loadsWhoseRenamesWaitForTheirEndKeepNamesAndIndexExact(seed: UInt64) throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        let writer = PhotoWriter(store: store)
        var world = World(seed: seed)
        var model = Model()
        var now: Int64 = 1_700_000_000
        var heldBackAtSomePoint = false

        for load in 0..<15 {
            let renames = PendingRenames()
            var waitingNames: [String: String] = [:]
            for step in 0..<8 {
                now += Int64.random(in: 1...600, using: &world.generator)
                switch Int.random(in: 0..<11, using: &world.generator) {
                case 0..<7:
                    let batch = (0..<Int.random(in: 1...25, using: &world.generator)).map { _ in world.record() }
                    _ = try writer.transaction(now: now, ledger: nil, renames: renames) { try $0.store(PreparedBatch(batch)) }
                    Self.load(batch, now: now, into: &model, renaming: &waitingNames)
                    heldBackAtSomePoint = try heldBackAtSomePoint || store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM unindexed_photo")! > 0 }
                case 7..<9:
                    try Self.resolvePlaces(writer, &world, &model, now: now)
                case 9:
                    try Self.prune(writer, &world, &model, now: now)
                    waitingNames = waitingNames.filter { model.ownerNames[$0.key] != nil }
                default:
                    try Self.deleteSome(writer, &world, &model, now: now)
                    waitingNames = waitingNames.filter { model.ownerNames[$0.key] != nil }
                }
            }
            // The load's end: its renames written, the photos they held back indexed.
            try writer.transaction(now: now) { try $0.writeRenames(renames) }
            for (owner, name) in waitingNames { model.ownerNames[owner] = name }
            // Between loads: an undelete in a load, of a photo whose photographer was
            // forgotten since its delete, stores them again under the name they had then,
            // and the load's rename, waiting for the row id they had, may find them there.
            let ids = model.deleted.sorted().filter { _ in Bool.random(using: &world.generator) }
            _ = try writer.undelete(ids: ids, now: now)
            model.undelete(ids)
            #expect(try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM unindexed_photo") } == 0)
            try expectConsistent(store, model, context: "seed \(seed), load \(load)")
        }
        #expect(heldBackAtSomePoint)
    }

    /// `Model.load` as a load whose renames wait for its end does it: a stored photographer
    /// keeps their name until then (`waitingNames`, owner → the name they will take); a new
    /// one is stored under the name their first batch gives.
    static func load(_ batch: [PhotoRecord], now: Int64, into model: inout Model, renaming waitingNames: inout [String: String]) {
        let before = model.ownerNames
        model.load(batch, now: now)
        // The last copy of each photo is the one stored (and the one that names).
        let batch = Array(Dictionary(batch.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last }).values)
        for owner in Set(batch.map(\.owner)) {
            guard let stored = before[owner] else {
                waitingNames[owner] = nil
                continue
            }
            // What the batch says of them (an empty name says nothing): the stored name
            // takes back a rename waiting.
            let named = model.ownerNames[owner]!
            if named != stored || batch.contains(where: { $0.owner == owner && $0.ownerName == stored && !stored.isEmpty }) {
                waitingNames[owner] = named == stored ? nil : named
            }
            model.ownerNames[owner] = stored
        }
    }

    /// Places resolved, as `place-resolve` writes them.
    static func resolvePlaces(_ writer: PhotoWriter, _ world: inout World, _ model: inout Model, now: Int64) throws {
        let resolutions = world.resolutions()
        try writer.record(resolutions, now: now)
        model.resolve(resolutions)
    }

    /// A prune of the photos stored up to some hours before `now`.
    static func prune(_ writer: PhotoWriter, _ world: inout World, _ model: inout Model, now: Int64) throws {
        let cutoff = now - Int64.random(in: 0...20_000, using: &world.generator)
        _ = try writer.prune(storedBefore: cutoff)
        model.prune(before: cutoff)
    }

    /// A delete of a few ids, stored or not.
    static func deleteSome(_ writer: PhotoWriter, _ world: inout World, _ model: inout Model, now: Int64) throws {
        let ids = (0..<Int.random(in: 1...3, using: &world.generator)).map { _ in "\(1000 + Int.random(in: 0..<60, using: &world.generator))" }
        _ = try writer.delete(ids: ids, now: now)
        model.delete(ids)
    }
}
