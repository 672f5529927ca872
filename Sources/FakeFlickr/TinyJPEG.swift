import Foundation

/// A small baseline JPEG that browsers and image libraries really decode: a made-up
/// landscape (sky, hills, sometimes a sun) in flat 8x8 blocks, coloured from a seed, so a
/// page of the fake's thumbnails looks like a page of different photos.
///
/// Only DC coefficients are coded (every block is one colour), with one quantization table,
/// Annex K's luminance DC Huffman table and an AC table holding just end-of-block, so a
/// 75x75 thumbnail takes a few hundred bytes and a 1024 px photo about 20 KB.
enum TinyJPEG {
    /// The segments after SOI/APP0, from DQT to EOI, for a `width` x `height` picture.
    static func segments(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var out: [UInt8] = []
        // DQT: table 0, 8-bit; the DC step of 8 makes a block's coefficient its level - 128.
        out += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [8] + [UInt8](repeating: 16, count: 63)
        // SOF0: 8-bit samples, three components (Y, Cb, Cr), no subsampling, table 0.
        out += [0xFF, 0xC0, 0x00, 0x11, 0x08]
        out += [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 0x03]
        for component: UInt8 in 1...3 { out += [component, 0x11, 0x00] }
        // DHT: DC table 0 (Annex K.3.3.1), AC table 0 with the single symbol EOB (0x00).
        let dcCounts: [UInt8] = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
        let acCounts: [UInt8] = [1] + [UInt8](repeating: 0, count: 15)
        let dhtLength = 2 + (1 + 16 + 12) + (1 + 16 + 1)
        out += [0xFF, 0xC4, 0x00, UInt8(dhtLength), 0x00] + dcCounts + (0...11).map { UInt8($0) }
        out += [0x10] + acCounts + [0x00]
        // SOS: the three components, DC table 0 and AC table 0 each, full spectral range.
        out += [0xFF, 0xDA, 0x00, 0x0C, 0x03, 0x01, 0x00, 0x02, 0x00, 0x03, 0x00, 0x00, 0x3F, 0x00]
        out += scan(width: width, height: height, seed: seed)
        out += [0xFF, 0xD9]
        return out
    }

    /// The entropy-coded blocks: per MCU, Y then Cb then Cr, each a DC difference and EOB.
    static func scan(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        let codes = dcCodes()
        var bits = BitWriter()
        bits.bytes.reserveCapacity(width * height / 16)
        var previous = (0, 0, 0)
        let scene = Scene(seed: seed, aspect: Double(width) / Double(height))
        let (columns, rows) = ((width + 7) / 8, (height + 7) / 8)
        // The hills' outline depends on the column only.
        let horizons = (0..<columns).map { scene.horizons(x: (Double($0) + 0.5) / Double(columns)) }
        func code(_ dc: Int, after previous: inout Int) {
            let difference = dc - previous
            previous = dc
            let category = difference == 0 ? 0 : (Int.bitWidth - abs(difference).leadingZeroBitCount)
            let extra = difference >= 0 ? difference : difference + (1 << category) - 1
            // The category's code, its extra bits, then EOB (the AC table's only code, "0").
            bits.write((((codes[category].code << category) | extra) << 1), count: codes[category].length + category + 1)
        }
        for row in 0..<rows {
            let y = (Double(row) + 0.5) / Double(rows)
            for column in 0..<columns {
                let (r, g, b) = scene.colour(x: (Double(column) + 0.5) / Double(columns), y: y, horizons: horizons[column])
                code(Int((0.299 * r + 0.587 * g + 0.114 * b - 128).rounded()), after: &previous.0)
                code(Int((-0.168_736 * r - 0.331_264 * g + 0.5 * b).rounded()), after: &previous.1)
                code(Int((0.5 * r - 0.418_688 * g - 0.081_312 * b).rounded()), after: &previous.2)
            }
        }
        return bits.finish()
    }

    /// Canonical Huffman codes of Annex K's DC table, by category 0...11.
    static func dcCodes() -> [(code: Int, length: Int)] {
        let counts = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
        var codes: [(code: Int, length: Int)] = []
        var code = 0
        for (index, count) in counts.enumerated() {
            for _ in 0..<count {
                codes.append((code, index + 1))
                code += 1
            }
            code <<= 1
        }
        return codes
    }

    struct BitWriter {
        var bytes: [UInt8] = []
        /// Bits not yet written, in the low `pending` bits.
        var accumulator: UInt64 = 0
        var pending = 0

        /// Appends the low `count` bits of `value` (at most 32), most significant first.
        mutating func write(_ value: Int, count: Int) {
            accumulator = (accumulator << UInt64(count)) | (UInt64(value) & ((1 << UInt64(count)) - 1))
            pending += count
            while pending >= 8 {
                pending -= 8
                let byte = UInt8(truncatingIfNeeded: accumulator >> UInt64(pending))
                bytes.append(byte)
                if byte == 0xFF { bytes.append(0x00) }  // byte stuffing
            }
        }

        /// Pads the last byte with 1 bits, as the standard asks.
        mutating func finish() -> [UInt8] {
            if pending > 0 { write(0x7F, count: 8 - pending) }
            return bytes
        }
    }

    /// Sky over hills, colours and shapes drawn from the seed.
    struct Scene {
        typealias RGB = (Double, Double, Double)
        static let palettes: [(skyTop: RGB, skyLow: RGB, land: RGB, far: RGB)] = [
            ((52, 110, 190), (170, 205, 235), (70, 120, 60), (110, 140, 120)),  // day, fields
            ((40, 40, 90), (240, 140, 90), (50, 45, 60), (90, 70, 90)),  // dusk
            ((120, 170, 220), (230, 235, 240), (200, 170, 110), (170, 150, 120)),  // desert
            ((20, 30, 60), (60, 80, 130), (20, 30, 35), (40, 55, 70)),  // night
            ((90, 150, 210), (200, 225, 240), (30, 90, 130), (60, 120, 150)),  // sea
            ((140, 160, 180), (210, 215, 220), (90, 100, 80), (130, 135, 130)),  // overcast
            ((250, 170, 120), (255, 220, 160), (120, 80, 60), (170, 120, 90)),  // dawn
        ]
        let palette: (skyTop: RGB, skyLow: RGB, land: RGB, far: RGB)
        let horizon, wave, phase, farHorizon: Double
        let sun: (x: Double, y: Double, radius: Double)?
        /// Width over height, so the sun stays round in a picture that is not square.
        let aspect: Double

        init(seed: UInt64, aspect: Double) {
            self.aspect = aspect
            var state = seed
            func next() -> Double {
                state = Mixing.finalize(state &+ 0x9E37_79B9_7F4A_7C15)
                return Mixing.unit(state)
            }
            palette = Self.palettes[Int(next() * Double(Self.palettes.count))]
            horizon = 0.45 + 0.25 * next()
            farHorizon = horizon - 0.05 - 0.1 * next()
            wave = 1 + 3 * next()
            phase = next() * 2 * .pi
            sun = next() < 0.5 ? (0.15 + 0.7 * next(), 0.12 + 0.2 * next(), 0.06 + 0.06 * next()) : nil
        }

        /// Where the near and the far hills meet the sky at `x`.
        func horizons(x: Double) -> (near: Double, far: Double) {
            (horizon + 0.06 * sin(wave * 2 * .pi * x + phase), farHorizon + 0.04 * sin(wave * 3.7 * .pi * x - phase))
        }

        func colour(x: Double, y: Double, horizons: (near: Double, far: Double)) -> RGB {
            let (near, far) = horizons
            if y >= near {
                return shade(palette.land, by: 1 - 0.35 * (y - near) / max(1 - near, 0.01))
            }
            if y >= far {
                return palette.far
            }
            if let sun, hypot((x - sun.x) * aspect, y - sun.y) < sun.radius {
                return (255, 236, 180)
            }
            let t = y / max(far, 0.01)
            return (
                palette.skyTop.0 + (palette.skyLow.0 - palette.skyTop.0) * t,
                palette.skyTop.1 + (palette.skyLow.1 - palette.skyTop.1) * t,
                palette.skyTop.2 + (palette.skyLow.2 - palette.skyTop.2) * t)
        }

        func shade(_ colour: RGB, by factor: Double) -> RGB {
            (colour.0 * factor, colour.1 * factor, colour.2 * factor)
        }
    }
}
