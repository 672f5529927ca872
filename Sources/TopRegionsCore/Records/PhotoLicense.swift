/// Flickr's license ids (`flickr.photos.licenses.getInfo`), what pages call them and where
/// each is described; the record keeps the id as Flickr sent it (`PhotoRecord.license`).
public struct PhotoLicense: Sendable, Equatable {
    public let id: String
    /// A short name a page shows ("CC BY 2.0").
    public let name: String
    /// The license's text, when it has one.
    public let url: String?
    /// A Creative Commons license or dedication (`regions-top --license cc`).
    public let isCreativeCommons: Bool

    public static let known: [PhotoLicense] = [
        PhotoLicense(id: "0", name: "All rights reserved", url: nil, isCreativeCommons: false),
        PhotoLicense(id: "1", name: "CC BY-NC-SA 2.0", url: "https://creativecommons.org/licenses/by-nc-sa/2.0/", isCreativeCommons: true),
        PhotoLicense(id: "2", name: "CC BY-NC 2.0", url: "https://creativecommons.org/licenses/by-nc/2.0/", isCreativeCommons: true),
        PhotoLicense(id: "3", name: "CC BY-NC-ND 2.0", url: "https://creativecommons.org/licenses/by-nc-nd/2.0/", isCreativeCommons: true),
        PhotoLicense(id: "4", name: "CC BY 2.0", url: "https://creativecommons.org/licenses/by/2.0/", isCreativeCommons: true),
        PhotoLicense(id: "5", name: "CC BY-SA 2.0", url: "https://creativecommons.org/licenses/by-sa/2.0/", isCreativeCommons: true),
        PhotoLicense(id: "6", name: "CC BY-ND 2.0", url: "https://creativecommons.org/licenses/by-nd/2.0/", isCreativeCommons: true),
        PhotoLicense(id: "7", name: "No known copyright restrictions", url: "https://www.flickr.com/commons/usage/", isCreativeCommons: false),
        PhotoLicense(id: "8", name: "United States Government Work", url: "http://www.usa.gov/copyright.shtml", isCreativeCommons: false),
        PhotoLicense(id: "9", name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/", isCreativeCommons: true),
        PhotoLicense(id: "10", name: "Public Domain Mark 1.0", url: "https://creativecommons.org/publicdomain/mark/1.0/", isCreativeCommons: true),
    ]

    /// The license of id `id`; one this table does not know is named by its id.
    public static func of(_ id: String) -> PhotoLicense {
        known.first { $0.id == id } ?? PhotoLicense(id: id, name: "license \(id)", url: nil, isCreativeCommons: false)
    }

    /// The ids of the Creative Commons licenses.
    public static let creativeCommonsIDs = known.filter(\.isCreativeCommons).map(\.id)
}
