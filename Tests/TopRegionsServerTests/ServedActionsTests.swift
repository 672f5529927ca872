import Foundation
import Testing
import TopRegionsRecords
import TopRegionsStore
import TopRegionsTestSupport

/// What a person changes from the served pages, in process: each form needs the server's
/// token and its own page's origin; a delete stays deleted through a reload of the same
/// records and is undone whole; a prune is previewed first and needs its unit.
@Suite struct ServedActionsTests {
    typealias Fixture = ServedFixture

    @Test func deletingAPhotoNeedsTheFormsTokenAndNoReloadBringsItBackButUndoDoes() async throws {
        let fixture = try Fixture()
        let row = try #require(try fixture.queries.topRegions(limit: 1).first)
        let photo = try #require(try fixture.queries.photos(in: PhotoList(.region(row)), limit: 1).first)
        let id = photo.record.id
        let thumbnail = try Fixture.thumbnailURL(photo)
        fixture.network.answer(thumbnail, headers: ["content-type": "image/jpeg"], body: Fixture.jpeg(2_000))
        @Sendable func regionCounts() throws -> (photos: Int, photographers: Int)? {
            try fixture.queries.region(id: row.regionID).map { ($0.photos, $0.photographers) }
        }
        @Sendable func regionPhotoIDs() throws -> [String] {
            try fixture.queries.photos(in: PhotoList(.region(row)), limit: nil).map(\.record.id)
        }
        // Another process's writes: regions-load's (a reload, --delete, --undelete).
        let otherWriter = PhotoWriter(store: try Store.open(path: fixture.db))
        try await fixture.serve { client in
            #expect(try await client.get("/thumbs/\(id).jpg").status == 200)
            let page = try await client.get("/photos/\(id)")
            let token = try #require(PageText.token(in: page.text))
            #expect(token == Fixture.formToken)

            // Without the token, with another token, from another site: refused, nothing changed.
            #expect(try await client.post("/photos/\(id)/delete", form: "").status == 403)
            #expect(try await client.post("/photos/\(id)/delete", form: "token=" + String(repeating: "0", count: 32)).status == 403)
            #expect(try await client.post("/photos/\(id)/delete", form: "token=\(token)", headers: ["Sec-Fetch-Site": "cross-site"]).status == 403)
            #expect(try regionPhotoIDs().count == row.photos)

            let deleted = try await client.post("/photos/\(id)/delete", form: "token=\(token)")
            #expect(deleted.status == 200 && deleted.text.contains("Photo deleted"))
            #expect(try await client.get("/photos/\(id)").status == 404)
            let after = try regionPhotoIDs()
            #expect(after.count == row.photos - 1 && !after.contains(id))
            // Loading the same records again (a refresh) does not bring it back.
            _ = try Loader(writer: otherWriter, options: LoadOptions())
                .load([.file(Tools.fixtures.appendingPathComponent("photos.ndjson").path)], now: Fixture.storedAt + 10) { _ in }
            #expect(!(try regionPhotoIDs().contains(id)))

            // Undo: the photo back, with its thumbnail (not asked for again), counts as before.
            let undo = try #require(PageText.attributes("action", in: deleted.text).first { $0.hasPrefix("/photos/") })
            #expect(undo == "/photos/\(id)/undelete")
            let undone = try await client.post(undo, form: "token=\(token)")
            #expect(undone.status == 303 && undone.header("Location") == "/photos/\(id)")
            #expect(try regionCounts()! == (row.photos, row.photographers))
            #expect(try await client.get("/thumbs/\(id).jpg").status == 200)
            #expect(fixture.network.requests == [thumbnail])
            // Undoing what is not deleted is no success: 404, saying so.
            let twice = try await client.post(undo, form: "token=\(token)")
            #expect(twice.status == 404 && twice.text.contains("Photo \(id) was not deleted: there is nothing to undo."))

            // Deleted here, undone by another writer (and the other way): the same photo back.
            #expect(try await client.post("/photos/\(id)/delete", form: "token=\(token)").status == 200)
            #expect(try otherWriter.undelete(ids: [id], now: Fixture.storedAt + 20).count == 1)
            #expect(try await client.get("/photos/\(id)").status == 200)
            #expect(try otherWriter.delete(ids: [id], now: Fixture.storedAt + 30) == [id])
            #expect(try await client.post(undo, form: "token=\(token)").status == 303)
            #expect(try regionCounts()! == (row.photos, row.photographers))
        }
    }

    @Test func pruningIsPreviewedFirstAndNeedsItsUnitAndTheToken() async throws {
        let fixture = try Fixture()
        let stored = try fixture.queries.photoCount()
        #expect(stored == Fixture.stored)
        try await fixture.serve { client in
            let all = try await client.get("/all")
            #expect(all.text.contains("<form class=\"action\" action=\"/prune\" method=\"get\">"))
            // A number without its unit is refused, and nothing changes.
            let bare = try await client.get("/prune?older_than=7")
            #expect(bare.status == 400 && bare.text.contains("has no unit"))
            // Photos were stored moments ago: 1 hour keeps them all; the preview says so.
            let none = try await client.get("/prune?older_than=1h")
            #expect(none.status == 200 && none.text.contains("0 photos were stored before") && none.text.contains("nothing to prune"))
            // 100 s later, stored more than a minute ago: every photo; the preview lists 30
            // and changes nothing.
            fixture.clock.change { $0 += 100 }
            let preview = try await client.get("/prune?older_than=1m")
            #expect(preview.status == 200 && preview.text.contains("\(stored) photos were stored before"))
            #expect(PageText.occurrences("<li><a href=\"/photos/", in: preview.text) == 30)
            #expect(try fixture.queries.photoCount() == stored)
            let token = try #require(PageText.token(in: preview.text))
            let listed = { (page: String) throws -> String in
                "before=\(try #require(PageText.field("before", in: page)))&photos=\(try #require(PageText.field("photos", in: page)))"
            }
            #expect(try await client.post("/prune", form: "older_than=1m&" + listed(preview.text)).status == 403)
            // Without what its preview listed, a prune is refused: it would decide anew what goes.
            #expect(try await client.post("/prune", form: "token=\(token)&older_than=1m").status == 400)

            // A photo of the list deleted since: nothing is forgotten, the preview offered again.
            let otherWriter = PhotoWriter(store: try Store.open(path: fixture.db))
            let gone = try #require(otherWriter.photosStored(before: Fixture.storedAt + 100).first)
            #expect(try otherWriter.delete(ids: [gone], now: Fixture.storedAt + 100) == [gone])
            let changed = try await client.post("/prune", form: "token=\(token)&older_than=1m&" + listed(preview.text))
            #expect(changed.status == 409 && changed.text.contains("nothing was forgotten"), "\(changed.text)")
            #expect(try fixture.queries.photoCount() == stored - 1)

            // Previewed again; then a refresh stores two photos before the button is pressed,
            // more than a minute before it is: the button forgets what the preview listed, not
            // them (it forgot 730 photos after a preview of 565).
            let again = try await client.get("/prune?older_than=1m")
            #expect(again.text.contains("\(stored - 1) photos were stored before"))
            let scratch = TemporaryDirectory()
            let records = scratch.file("new.ndjson")
            try Data((#"{"id":"990001","owner":"new1@N01","region_id":"R-new","region":"New"}"# + "\n"
                + #"{"id":"990002","owner":"new2@N01","region_id":"R-new","region":"New"}"# + "\n").utf8).write(to: URL(fileURLWithPath: records))
            _ = try Loader(writer: otherWriter, options: LoadOptions()).load([.file(records)], now: Fixture.storedAt + 110) { _ in }
            fixture.clock.change { $0 += 100 }
            withExtendedLifetime(scratch) {}
            let pruned = try await client.post("/prune", form: "token=\(token)&older_than=1m&" + listed(again.text))
            #expect(pruned.status == 200 && pruned.text.contains("\(stored - 1) photos stored more than 1m ago are forgotten"), "\(pruned.text)")
        }
        #expect(try fixture.queries.photoCount() == 2)
        #expect(try fixture.queries.topRegions(limit: 50).map(\.regionID) == ["R-new"])
    }
}
