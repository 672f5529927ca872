import FakeFlickr
import Foundation
import Testing
import TopRegionsTestSupport

@Suite("flickr.places.getInfo")
struct PlaceInfoTests {
    /// getInfo answers for every place the photos of a world are attached to, by place_type.
    static func placesByType(_ fake: RunningFake) async throws -> [String: [[String: Any]]] {
        let photos = try await fake.searchAllPages([("extras", "geo")]).photos
        let placeIDs = Array(Set(photos.compactMap { $0["place_id"] as? String })).sorted()
        let urls = placeIDs.map { fake.rest([("method", "flickr.places.getInfo"), ("place_id", $0)]) }
        var byType: [String: [[String: Any]]] = [:]
        for (placeID, body) in zip(placeIDs, try await Curl.getMany(urls).bodies) {
            let response = try jsonObject(body)
            #expect(response["stat"] as? String == "ok", "\(placeID): \(response)")
            let place = try #require(response["place"] as? [String: Any])
            #expect(place["place_id"] as? String == placeID)
            byType[place["place_type"] as! String, default: []].append(place)
        }
        return byType
    }

    @Test("each level nests the documented sub-objects, with numeric coordinates")
    func levels() async throws {
        try await RunningFake.with { fake in
            let byType = try await Self.placesByType(fake)
            #expect(Set(byType.keys) == ["neighbourhood", "locality", "county", "region", "country"])
            let expectations: [String: (id: Int, required: Set<String>, optional: Set<String>)] = [
                "neighbourhood": (22, ["neighbourhood", "locality", "region", "country"], ["county"]),
                "locality": (7, ["locality", "region", "country"], ["county"]),
                "county": (9, ["county", "region", "country"], []),
                "region": (8, ["region", "country"], []),
                "country": (12, ["country"], []),
            ]
            let levelNames: Set<String> = ["neighbourhood", "locality", "county", "region", "country"]
            var localitiesWithCounty = 0
            var localitiesWithoutCounty = 0
            for (type, places) in byType {
                let expected = try #require(expectations[type])
                for place in places {
                    #expect(place["place_type_id"] as? Int == expected.id)
                    let levels = Set(place.keys).intersection(levelNames)
                    #expect(levels.isSuperset(of: expected.required) && levels.isSubset(of: expected.required.union(expected.optional)))
                    if type == "locality" {
                        if levels.contains("county") { localitiesWithCounty += 1 } else { localitiesWithoutCounty += 1 }
                    }
                    // The place describes itself at its own level.
                    let own = try #require(place[type] as? [String: Any])
                    #expect(own["place_id"] as? String == place["place_id"] as? String)
                    #expect(own["_content"] as? String == place["name"] as? String)
                    for key in ["latitude", "longitude"] {
                        #expect(place[key] is NSNumber && !(place[key] is String))
                        #expect(own[key] is NSNumber && !(own[key] is String))
                    }
                    for key in ["woeid", "place_url", "timezone", "woe_name"] {
                        #expect(place[key] is String, "\(key)")
                    }
                    if let region = place["region"] as? [String: Any], let country = place["country"] as? [String: Any] {
                        let regionName = try #require(region["_content"] as? String)
                        let countryName = try #require(country["_content"] as? String)
                        #expect(regionName.hasSuffix(", " + countryName), "region names are in the chain form")
                    }
                }
            }
            #expect(localitiesWithCounty > 0 && localitiesWithoutCounty > 0, "county is sometimes absent")
        }
    }

    @Test("a locality's region, looked up on its own, describes itself as that region")
    func regionLookup() async throws {
        try await RunningFake.with { fake in
            let locality = try #require(try await Self.placesByType(fake)["locality"]?.first)
            let region = try #require(locality["region"] as? [String: Any])
            let response = try await fake.placeInfo(region["place_id"] as! String)
            let place = try #require(response["place"] as? [String: Any])
            #expect(place["place_type"] as? String == "region")
            #expect(place["name"] as? String == region["_content"] as? String)
            let own = try #require(place["region"] as? [String: Any])
            for key in ["_content", "place_id", "woeid", "place_url"] {
                #expect(own[key] as? String == region[key] as? String)
            }
        }
    }

    @Test("codes 1, 2 and 3: missing, malformed and unknown place ids")
    func errors() async throws {
        try await RunningFake.with { fake in
            let missing = try await Curl.json(fake.rest([("method", "flickr.places.getInfo")]))
            #expect(missing["stat"] as? String == "fail" && missing["code"] as? Int == 1)
            #expect(missing["message"] as? String == "Required parameter missing")
            for malformed in ["", "bad id", "place/1", "ünïcode"] {
                let response = try await fake.placeInfo(malformed)
                #expect(response["code"] as? Int == 2, "\(malformed)")
                #expect(response["message"] as? String == "Not a valid Places ID")
            }
            for unknown in ["Zz9Yq1BTUb6uXwVt", "..sw5elTUb7eGTm.", "a-b_c.d"] {
                let response = try await fake.placeInfo(unknown)
                #expect(response["stat"] as? String == "fail" && response["code"] as? Int == 3, "\(unknown)")
                #expect(response["message"] as? String == "Place not found")
            }
        }
    }
}
