import FakeFlickr
import Foundation
import Testing
import TopRegionsTestSupport

/// The CS193p recent-photos call (flickr-api.md §1.1), plus a few image URL extras.
let toolkitExtras = "original_format,description,geo,date_upload,owner_name"
let toolkitSearch: [(String, String)] = [("license", "1,2,4,7"), ("has_geo", "1"), ("extras", toolkitExtras)]

@Suite("flickr.photos.search")
struct SearchTests {
    @Test("the envelope has Flickr's shape, and total and pages come both as numbers and as strings")
    func envelope() async throws {
        try await RunningFake.with { fake in
            var totalTypes: Set<String> = []
            var pagesTypes: Set<String> = []
            for page in 1...12 {
                let photos = try await fake.search(toolkitSearch + [("per_page", "20"), ("page", String(page))])
                #expect(photos["page"] as? Int == page)
                #expect(photos["perpage"] as? Int == 20)
                #expect(!(photos["page"] is String) && !(photos["perpage"] is String))
                totalTypes.insert(photos["total"] is String ? "string" : "number")
                pagesTypes.insert(photos["pages"] is String ? "string" : "number")
                let total = try intValue(photos["total"])
                #expect(try intValue(photos["pages"]) == 1 + (total - 20 + 18) / 19)
                #expect((photos["photo"] as? [[String: Any]])?.count == 20)
            }
            #expect(totalTypes == ["string", "number"])
            #expect(pagesTypes == ["string", "number"])

            let response = try await Curl.json(fake.rest([("method", "flickr.photos.search")]))
            #expect(response["stat"] as? String == "ok")
            #expect(Set(response.keys) == ["photos", "stat"])
        }
    }

    @Test("photo objects carry the documented fields, with the type mixing of real Flickr")
    func photoFields() async throws {
        try await RunningFake.with { fake in
            let photos = try await fake.searchAllPages(toolkitSearch).photos
            #expect(photos.count > 400)
            var latitudeTypes: Set<String> = []
            var accuracyTypes: Set<String> = []
            var withoutPlace = 0
            var emptyTitles = 0
            var emptyDescriptions = 0
            var htmlDescriptions = 0
            var multilineDescriptions = 0
            var ownersByName: [String: Set<String>] = [:]
            for photo in photos {
                let id = try #require(photo["id"] as? String)
                #expect(id.count == 11 && id.allSatisfy(\.isASCIIDigit))
                let owner = try #require(photo["owner"] as? String)
                #expect(owner.wholeMatch(of: /[0-9]{8}@N0[0-9]/) != nil)
                #expect(photo["secret"] is String && photo["server"] is String)
                #expect(photo["farm"] is NSNumber && !(photo["farm"] is String))
                for flag in ["ispublic", "isfriend", "isfamily", "context", "geo_is_public"] {
                    #expect(photo[flag] is NSNumber && !(photo[flag] is String), "\(flag)")
                }
                let title = try #require(photo["title"] as? String)
                if title.isEmpty { emptyTitles += 1 }
                let description = try #require((photo["description"] as? [String: Any])?["_content"] as? String)
                if description.isEmpty { emptyDescriptions += 1 }
                if description.contains("<") { htmlDescriptions += 1 }
                if description.contains("\n") { multilineDescriptions += 1 }
                let uploaded = try #require(photo["dateupload"] as? String)
                #expect(Int(uploaded) != nil)
                ownersByName[try #require(photo["ownername"] as? String), default: []].insert(owner)
                latitudeTypes.insert(photo["latitude"] is String ? "string" : "number")
                accuracyTypes.insert(photo["accuracy"] is String ? "string" : "number")
                #expect(Double("\(photo["latitude"]!)") != nil && Double("\(photo["longitude"]!)") != nil)
                if let placeID = photo["place_id"] as? String {
                    #expect(!placeID.isEmpty && photo["woeid"] is String)
                } else {
                    #expect(photo["woeid"] == nil)
                    withoutPlace += 1
                }
                if let originalSecret = photo["originalsecret"] as? String {
                    #expect(originalSecret.count == 10 && photo["originalformat"] as? String == "jpg")
                }
                #expect(photo["license"] == nil, "license was not asked for")
                #expect(photo["url_sq"] == nil, "url_sq was not asked for")
            }
            #expect(latitudeTypes == ["string", "number"])
            #expect(accuracyTypes == ["string", "number"])
            #expect(withoutPlace > 0 && withoutPlace < photos.count / 10)
            #expect(emptyTitles > 0 && emptyDescriptions > 0 && htmlDescriptions > 0 && multilineDescriptions > 0)
            #expect(photos.contains { $0["originalsecret"] == nil }, "some originals may not be viewed")
            // flickr-api.md §7: two different NSIDs share one display name.
            #expect(ownersByName.values.contains { $0.count >= 2 })
        }
    }

    @Test("url_* extras point back at the fake, through the host the client used")
    func urlExtras() async throws {
        try await RunningFake.with { fake in
            let localhostBase = fake.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            let extras = "license,original_format,url_sq,url_t,url_s,url_q,url_m,url_n,url_z,url_c,url_l,url_o,url_h,url_k"
            let url = fake.rest([("method", "flickr.photos.search"), ("extras", extras), ("per_page", "500")])
                .replacingOccurrences(of: fake.baseURL, with: localhostBase)
            let response = try await Curl.json(url)
            let photos = try #require((response["photos"] as? [String: Any])?["photo"] as? [[String: Any]])
            var dimensionTypes: Set<String> = []
            for photo in photos {
                let id = photo["id"] as! String
                let secret = photo["secret"] as! String
                let server = photo["server"] as! String
                #expect(Int(try #require(photo["license"] as? String)).map { (0...10).contains($0) } == true)
                let expected = ["sq": "s", "t": "t", "s": "m", "q": "q", "n": "n", "z": "z", "c": "c", "l": "b"]
                for (extra, suffix) in expected {
                    guard let url = photo["url_\(extra)"] as? String else {
                        #expect(extra == "l", "only url_l may be missing, not url_\(extra)")
                        continue
                    }
                    #expect(url == "\(localhostBase)/\(server)/\(id)_\(secret)_\(suffix).jpg")
                    for dimension in ["height_\(extra)", "width_\(extra)"] {
                        #expect((try? intValue(photo[dimension])) != nil)
                        dimensionTypes.insert(photo[dimension] is String ? "string" : "number")
                    }
                }
                #expect(photo["url_m"] as? String == "\(localhostBase)/\(server)/\(id)_\(secret).jpg", "500 px: no suffix")
                #expect(try intValue(photo["width_sq"]) == 75 && intValue(photo["height_sq"]) == 75)
                if photo["url_l"] != nil {
                    #expect(max(try intValue(photo["width_l"]), try intValue(photo["height_l"])) == 1024)
                }
                if let originalSecret = photo["originalsecret"] as? String {
                    #expect(photo["url_o"] as? String == "\(localhostBase)/\(server)/\(id)_\(originalSecret)_o.jpg")
                } else {
                    #expect(photo["url_o"] == nil)
                }
                if let urlH = photo["url_h"] as? String {
                    #expect(!urlH.contains(secret), "sizes from h up have their own secret")
                }
            }
            #expect(dimensionTypes == ["string", "number"])
            let withoutLarge = photos.filter { $0["url_l"] == nil }.count
            #expect(withoutLarge > 0 && withoutLarge < photos.count / 10, "about 2% lack url_l")
        }
    }

    @Test("the same photo on two pages: each page after the first repeats the previous page's last photo")
    func pageOverlap() async throws {
        try await RunningFake.with { fake in
            let perPage = 100
            let first = try await fake.search(toolkitSearch + [("per_page", String(perPage))])
            let total = try intValue(first["total"])
            let pages = try intValue(first["pages"])
            #expect(pages == 1 + Int((Double(total - perPage) / Double(perPage - 1)).rounded(.up)))
            var previousLast: String?
            var ids: [String] = []
            for page in 1...pages {
                let photos = try await fake.search(toolkitSearch + [("per_page", String(perPage)), ("page", String(page))])
                let pageIDs = (photos["photo"] as! [[String: Any]]).map { $0["id"] as! String }
                if let previousLast {
                    #expect(pageIDs.first == previousLast, "page \(page) starts with the last photo of page \(page - 1)")
                    ids += pageIDs.dropFirst()
                } else {
                    ids += pageIDs
                }
                #expect(page == pages || pageIDs.count == perPage)
                previousLast = pageIDs.last
            }
            #expect(ids.count == total && Set(ids).count == total, "every photo reachable exactly once after dedup")
            let beyond = try await fake.search(toolkitSearch + [("per_page", String(perPage)), ("page", String(pages + 1))])
            #expect((beyond["photo"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("per_page defaults to 100 and is capped at 500")
    func perPageLimits() async throws {
        try await RunningFake.with { fake in
            let byDefault = try await fake.search([])
            #expect(byDefault["perpage"] as? Int == 100 && (byDefault["photo"] as? [Any])?.count == 100)
            let capped = try await fake.search([("per_page", "900")])
            #expect(capped["perpage"] as? Int == 500 && (capped["photo"] as? [Any])?.count == 500)
        }
    }

    @Test("nothing beyond position 4,000 is returned, while total stays true")
    func resultCap() async throws {
        var world = smallWorld()
        world.photos = 4600
        try await RunningFake.with(world: world) { fake in
            let first = try await fake.search([("per_page", "500")])
            #expect(try intValue(first["total"]) == 4600)
            // pages = 1 + ceil(4100 / 499) = 10; page 9 covers positions [3992, 4492), cut at 4000.
            #expect(try intValue(first["pages"]) == 10)
            let ninth = try await fake.search([("per_page", "500"), ("page", "9")])
            #expect((ninth["photo"] as? [Any])?.count == 8)
            let tenth = try await fake.search([("per_page", "500"), ("page", "10")])
            #expect((tenth["photo"] as? [Any])?.isEmpty == true)
            #expect(try intValue(tenth["total"]) == 4600)
        }
    }

    @Test("upload dates are inclusive bounds, and ties sort by id in the direction of the sort")
    func datesAndSort() async throws {
        try await RunningFake.with { fake in
            let all = try await fake.searchAllPages([("extras", "date_upload")]).photos
            let uploads = all.map { (id: $0["id"] as! String, uploaded: Int($0["dateupload"] as! String)!) }
            // Newest first by default, ids falling with them.
            #expect(uploads.map(\.uploaded) == uploads.map(\.uploaded).sorted(by: >))
            #expect(uploads.map(\.id) == uploads.map(\.id).sorted(by: >))
            let tied = try #require(Dictionary(grouping: uploads, by: \.uploaded).first { $0.value.count >= 2 }?.key)

            let exact = [("min_upload_date", String(tied)), ("max_upload_date", String(tied)), ("extras", "date_upload")]
            let descending = try await fake.searchAllPages(exact).photos.map { $0["id"] as! String }
            let ascending = try await fake.searchAllPages(exact + [("sort", "date-posted-asc")]).photos.map { $0["id"] as! String }
            #expect(descending.count >= 2)
            #expect(Set(descending) == Set(uploads.filter { $0.uploaded == tied }.map(\.id)))
            #expect(descending == descending.sorted(by: >))
            #expect(ascending == descending.reversed())

            let window = [("min_upload_date", String(tied - 600)), ("max_upload_date", String(tied + 600)), ("extras", "date_upload")]
            let inWindow = try await fake.searchAllPages(window).photos
            #expect(Set(inWindow.map { $0["id"] as! String }) == Set(uploads.filter { abs($0.uploaded - tied) <= 600 }.map(\.id)))
        }
    }

    @Test("without dates only the last 12 hours are searched; the virtual clock moves that window")
    func twelveHourDefaultAndClock() async throws {
        let world = smallWorld()
        try await RunningFake.with(world: world) { fake in
            let clock = try await Curl.json(fake.control("clock"))
            #expect(clock["now"] as? Int == Int(world.now))
            let before = try await fake.searchAllPages([("extras", "date_upload")]).photos
            #expect(before.count == world.photos)

            let advanced = try jsonObject(try await Curl.post(fake.control("clock?advance=10800")).body)
            let now = Int(world.now) + 10800
            #expect(advanced["now"] as? Int == now)
            let after = try await fake.searchAllPages([("extras", "date_upload")]).photos
            let afterUploads = after.map { Int($0["dateupload"] as! String)! }
            #expect(afterUploads.allSatisfy { $0 > now - 43200 && $0 <= now })
            #expect(afterUploads.contains { $0 > Int(world.now) }, "photos uploaded after the old now appear")
            // An explicit date is a limiting agent: older photos are found again.
            let sinceEver = try await fake.searchAllPages([("min_upload_date", "0"), ("extras", "date_upload")]).photos
            #expect(sinceEver.count > after.count)
            #expect(sinceEver.count == world.photos + afterUploads.filter { $0 > Int(world.now) }.count)

            let set = try jsonObject(try await Curl.post(fake.control("clock?set=\(Int(world.now) + 6 * 3600)")).body)
            #expect(set["now"] as? Int == Int(world.now) + 6 * 3600)
            let everything = try await fake.search([("min_upload_date", "0")])
            #expect(try intValue(everything["total"]) == world.photos + world.futurePhotos)
            #expect(try await Curl.get(fake.control("clock?advance=soon"), ["--request", "POST", "--write-out", "%{http_code}"]).text
                .hasSuffix("400"))
        }
    }

    @Test("licence filter, has_geo, and commas sent literally or as %2C")
    func filters() async throws {
        try await RunningFake.with { fake in
            let all = try await fake.searchAllPages([("extras", "license")]).photos
            let licenses = all.map { Int($0["license"] as! String)! }
            #expect(Set(licenses).isSuperset(of: [0, 1, 2, 4, 7]))
            #expect(licenses.filter { [1, 2, 4, 7].contains($0) }.count > licenses.count / 2, "most photos are in 1,2,4,7")
            let filtered = try await fake.searchAllPages([("license", "4,7"), ("extras", "license")]).photos
            #expect(filtered.map { $0["license"] as! String }.allSatisfy { $0 == "4" || $0 == "7" })
            #expect(filtered.count == licenses.filter { $0 == 4 || $0 == 7 }.count)

            let literal = try await Curl.get(fake.rest([("method", "flickr.photos.search"), ("license", "1,2,4,7"), ("extras", toolkitExtras)]))
            let escaped = try await Curl.get(
                fake.rest([("method", "flickr.photos.search"), ("license", "1,2,4,7"), ("extras", toolkitExtras)])
                    .replacingOccurrences(of: ",", with: "%2C"))
            #expect(literal.body == escaped.body)

            let withGeo = try await fake.search([("has_geo", "1")])
            #expect(try intValue(withGeo["total"]) == all.count, "every world photo is geotagged")
            let withoutGeo = try await fake.search([("has_geo", "0")])
            #expect(try intValue(withoutGeo["total"]) == 0 && intValue(withoutGeo["pages"]) == 0)
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
