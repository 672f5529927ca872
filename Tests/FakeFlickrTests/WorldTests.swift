@testable import FakeFlickr
import Testing

@Suite("World")
struct WorldTests {
    @Test("the built-in catalogue has at least 90 regions, many with non-ASCII names")
    func catalogue() throws {
        #expect(WorldOptions.maximumRegions >= 90)
        var options = WorldOptions()
        options.regions = WorldOptions.maximumRegions
        let world = try World(options: options)
        let regions = world.places.filter { $0.level == .region }
        #expect(regions.count == WorldOptions.maximumRegions)
        #expect(Set(regions.map(\.name)).count == regions.count, "region names are unique")
        let nonASCII = regions.filter { $0.name.unicodeScalars.contains { !$0.isASCII } }
        #expect(nonASCII.count >= 30)
        for name in ["Île-de-France, France", "Tōkyō, Japan", "Москва, Россия", "São Paulo, Brazil", "Κρήτη, Ελλάδα", "北京市, 中国"] {
            #expect(regions.contains { $0.name == name }, "\(name)")
        }
    }

    @Test("place ids are opaque, unique, Flickr-like; some start with a dot")
    func placeIDs() throws {
        let world = try World(options: WorldOptions())
        let ids = world.places.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(Set(world.places.map(\.woeid)).count == ids.count)
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
        #expect(ids.allSatisfy { !$0.isEmpty && $0.allSatisfy(allowed.contains) })
        #expect(ids.contains { $0.hasPrefix(".") })
        #expect(world.places.filter { $0.level == .country }.allSatisfy { $0.region == nil })
    }

    @Test("the same options give the same world; another seed another one")
    func determinism() throws {
        let first = try World(options: WorldOptions())
        let again = try World(options: WorldOptions())
        #expect(first.photos.map(\.id) == again.photos.map(\.id))
        #expect(first.places.map(\.id) == again.places.map(\.id))
        #expect(first.groundTruth(now: first.options.now) == again.groundTruth(now: again.options.now))
        var other = WorldOptions()
        other.seed = 2
        #expect(try World(options: other).photos.map(\.id) != first.photos.map(\.id))
    }

    @Test("photos: counts, windows, increasing ids, skewed activity")
    func photos() throws {
        let options = WorldOptions()
        let world = try World(options: options)
        #expect(world.photos.count == options.photos + options.futurePhotos)
        #expect(world.photos.filter { $0.uploaded <= options.now }.count == options.photos)
        #expect(world.photos.allSatisfy { $0.uploaded > options.now - 12 * 3600 && $0.uploaded <= options.now + 6 * 3600 })
        #expect(zip(world.photos, world.photos.dropFirst()).allSatisfy { $0.id < $1.id && $0.uploaded <= $1.uploaded })
        #expect(world.photos.allSatisfy { String($0.id).count == 11 })
        var photosPerOwner: [Int: Int] = [:]
        for photo in world.photos { photosPerOwner[photo.owner, default: 0] += 1 }
        let counts = photosPerOwner.values.sorted(by: >)
        #expect(counts[0] >= 20 * counts[counts.count / 2], "a few photographers are far more active")
        var regionsPerOwner: [Int: Set<Int>] = [:]
        for photo in world.photos { if let region = world.regionIndex(of: photo) { regionsPerOwner[photo.owner, default: []].insert(region) } }
        #expect(regionsPerOwner.values.filter { $0.count >= 3 }.count > 20, "photographers active in several regions")
    }
}
