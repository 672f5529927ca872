/// How region names compare.
enum RegionName {
    /// Case-insensitive ordering key for region names (ties in the ranking sort by it, and
    /// `--region` matches by it).
    static func sortKey(_ name: String) -> String {
        name.lowercased()
    }
}
