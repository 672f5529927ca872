// Everything the fake decides "at random" comes from here, so that one seed always gives the
// same world, the same bytes and the same faults on every machine and Swift version.
// Foundation's and the standard library's generators are deliberately not used: neither
// promises a stable sequence for a seed.

/// SplitMix64 (Steele, Lea & Flood): tiny, fast, and good enough for test data.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Mixing.finalize(state)
    }

    /// Uniform in `0..<bound` (bound > 0). The modulo bias is irrelevant for test data.
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// Uniform in the closed range.
    mutating func inRange(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.count)
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool {
        unit() < p
    }

    mutating func pick<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }

    /// Lowercase hexadecimal, like Flickr's secrets.
    mutating func hex(length: Int) -> String {
        let digits = Array("0123456789abcdef")
        return String((0..<length).map { _ in digits[below(16)] })
    }
}

/// Stateless hashing used to derive independent decisions from a few inputs, e.g.
/// "is this field a string for this photo" or "is attempt 2 of this request faulted".
enum Mixing {
    /// The SplitMix64 output function: a bijective avalanche of 64 bits.
    static func finalize(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    static func combine(_ values: UInt64...) -> UInt64 {
        var hash: UInt64 = 0x243F_6A88_85A3_08D3
        for value in values {
            hash = finalize(hash ^ finalize(value &+ 0x9E37_79B9_7F4A_7C15))
        }
        return hash
    }

    /// FNV-1a over UTF-8, then mixed: a stable hash of a string (Swift's `hashValue` is seeded
    /// per process, so it cannot be used).
    static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return finalize(hash)
    }

    /// A uniform number in [0, 1) from a hash.
    static func unit(_ hash: UInt64) -> Double {
        Double(hash >> 11) * 0x1.0p-53
    }
}

/// Picks indices with probability proportional to fixed weights, in O(log n).
struct WeightedPicker {
    private let cumulative: [Double]

    init(weights: [Double]) {
        precondition(!weights.isEmpty, "cannot pick from nothing")
        var running = 0.0
        cumulative = weights.map { weight in
            running += weight
            return running
        }
    }

    func pick(using random: inout SplitMix64) -> Int {
        let target = random.unit() * cumulative[cumulative.count - 1]
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] > target { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Zipf weights 1/rank: the first few items get most of the picks, the tail a trickle.
    static func zipf(count: Int) -> WeightedPicker {
        WeightedPicker(weights: (1...count).map { 1 / Double($0) })
    }
}
