import Foundation
import TopRegionsFormatting
import TopRegionsPages
import TopRegionsRecords
import TopRegionsStore
import TopRegionsSupport

/// `regions-serve --export DIR`: the site as files a browser opens from the disk, made by the
/// same page code as the served pages: the top regions, every page of each of their photo
/// lists, All and Recents, each page 30 photos with links to the pages before and after, and
/// the thumbnails the database holds embedded (no thumbnail is downloaded for it: a page of
/// files cannot ask for one when it comes on screen).
struct SiteExport {
    let queries: Queries
    let store: Store
    let directory: String
    let times: TimeFormat

    /// Writes every page; returns how many.
    func write() throws -> Int {
        do {
            try FileSystem.createDirectories(directory)
        } catch {
            throw Failure(.cannotCreate, "cannot create the --export directory \(directory): \(error.reason)")
        }
        var written = 0
        let top = try queries.sampledCentres(try queries.topRegions(limit: 50))
        try save(HTMLPage.regions(top, site: .files), as: Site.files.top)
        written += 1
        for region in top {
            written += try writeList(.region(region.regionID), listing: .region(region))
        }
        written += try writeList(.all, listing: .all(stored: try queries.count(of: .all)))
        written += try writeList(.recents, listing: .recents)
        return written
    }

    /// Every page of one list.
    private func writeList(_ list: PhotoList, listing: HTMLPage.PhotoListing) throws -> Int {
        let total = try queries.count(of: list)
        let map = try queries.listMap(of: list)
        let pages = Paging(page: 1, total: total).pages
        for number in 1...pages {
            let paging = Paging(page: number, total: total)
            let photos = try queries.photos(in: list, order: nil, limit: Paging.size, offset: paging.offset)
            let images = HTMLPage.Images(thumbnails: try ThumbnailStore(store: store).bytes(of: photos.map(\.record.id)))
            let page = HTMLPage.photos(
                photos, listing: listing, images: images, site: .files, paging: paging, map: map,
                formatTime: { times.string($0) })
            try save(page, as: Site.files.listing(listing, page: number, sort: nil))
        }
        return pages
    }

    private func save(_ page: [UInt8], as name: String) throws {
        try SafeName.writeAtomically(page, to: (directory as NSString).appendingPathComponent(name))
    }
}
