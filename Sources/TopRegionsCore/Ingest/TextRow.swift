import TopRegionsRecords

/// The text parameters of a group of rows: spans of a batch's byte buffer, which all the
/// batch's rows share.
package struct TextRow {
    package let bytes: [UInt8]
    /// Parameter, and where its text is in `bytes` (start -1: NULL).
    package private(set) var fields: [(index: Int32, start: Int32, count: Int32)] = []

    /// Parameters that are spans of `bytes`, set with `set(_:_: TextSpan)`.
    package init(sharing bytes: [UInt8], capacity: Int) {
        self.bytes = bytes
        fields.reserveCapacity(capacity)
    }

    /// Sets parameter `index` to the text at `span` of the shared bytes (NULL when absent).
    package mutating func set(_ index: Int32, _ span: TextSpan) {
        fields.append((index, span.isNone ? -1 : span.start, span.isNone ? 0 : span.count))
    }
}
