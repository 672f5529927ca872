// Decodes one NDJSON file of photo records with three decoders, in one process, interleaved
// round by round: the toolkit's parser, libjansson (through JanssonShim) and Foundation.
// Then checks, on small probe lines, the guarantees the records need: member order, exact
// number text, and the line and column of a syntax error.
//
//   json-decode-bench RECORDS.ndjson [--rounds N] [--out ROWS.ndjson]
//
// Prints a table on stdout; --out writes one JSON object per measured row.
import Foundation
import JanssonShim
import TopRegionsRecords  // the JSON parser and the record decoder

// MARK: - Input

struct Lines {
    let bytes: [UInt8]
    let ranges: [Range<Int>]

    init(path: String) throws {
        bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var ranges: [Range<Int>] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            if index > start { ranges.append(start..<index) }
            start = index + 1
        }
        if start < bytes.count { ranges.append(start..<bytes.count) }
        self.ranges = ranges
    }

    func forEach(_ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) rethrows {
        try bytes.withUnsafeBufferPointer { all in
            for (index, range) in ranges.enumerated() {
                try body(UnsafeBufferPointer(rebasing: all[range]), index + 1)
            }
        }
    }
}

// MARK: - The decoders

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
}

/// libjansson's tree turned into the toolkit's JSONValue: what using jansson in the toolkit
/// would take, since the records must keep unknown members in order. Numbers come back as
/// jansson holds them: an integer as a 64-bit integer, anything else as a double.
enum Jansson {
    static func load(_ line: UnsafeBufferPointer<UInt8>, flags: Int = 0) throws -> OpaquePointer {
        var error = js_error()
        let loaded = line.withMemoryRebound(to: CChar.self) { js_load($0.baseAddress, $0.count, flags, &error) }
        guard let value = loaded else {
            throw BenchFailure(description: "jansson: line \(error.line), column \(error.column), position \(error.position): \(errorText(error))")
        }
        return OpaquePointer(value)
    }

    static func errorText(_ error: js_error) -> String {
        withUnsafeBytes(of: error.text) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    static func value(_ pointer: OpaquePointer) -> JSONValue {
        let json = UnsafeMutablePointer<json_t>(pointer)
        switch js_type(json) {
        case JSON_OBJECT:
            var members: [(key: String, value: JSONValue)] = []
            var iterator = json_object_iter(json)
            while let current = iterator {
                let key = String(decoding: UnsafeRawBufferPointer(start: json_object_iter_key(current), count: json_object_iter_key_len(current)), as: UTF8.self)
                members.append((key, value(OpaquePointer(json_object_iter_value(current)))))
                iterator = json_object_iter_next(json, current)
            }
            return .object(JSONObject(members))
        case JSON_ARRAY:
            return .array((0..<json_array_size(json)).map { value(OpaquePointer(json_array_get(json, $0))) })
        case JSON_STRING:
            return .string(String(decoding: UnsafeRawBufferPointer(start: json_string_value(json), count: json_string_length(json)), as: UTF8.self))
        case JSON_INTEGER: return .number(String(json_integer_value(json)))
        case JSON_REAL: return .number(JSONWriter.format(json_real_value(json)))
        case JSON_TRUE: return .bool(true)
        case JSON_FALSE: return .bool(false)
        default: return .null
        }
    }

    static func records(_ line: UnsafeBufferPointer<UInt8>) throws -> PhotoRecord {
        let tree = try load(line)
        defer { js_release(UnsafeMutablePointer(tree)) }
        guard case .object(let object) = value(tree) else { throw BenchFailure(description: "jansson: not an object") }
        return try PhotoRecord(json: object)
    }
}

/// Foundation's way: a Decodable struct of the record's fields (unknown members are dropped).
struct FoundationRecord: Decodable, Equatable {
    var id: String
    var owner: String
    var owner_name: String?
    var title: String?
    var description: String?
    var latitude: Double?
    var longitude: Double?
    var place_id: String?
    var uploaded: Int64?
    var thumb_url: String?
    var photo_url: String?
    var region_id: String?
    var region: String?
}

// MARK: - Timing

struct Case {
    let decoder: String
    let task: String
    let run: (Lines) throws -> Int  // returns a checksum, so nothing is optimized away
}

func cases() -> [Case] {
    let jsonDecoder = JSONDecoder()
    return [
        Case(decoder: "toolkit", task: "records") { lines in
            var sum = 0
            try lines.forEach { line, number in
                do { sum &+= try RecordDecoder.decode(line: line, number: number, source: "bench").count }
                catch { throw BenchFailure(description: "\(error)") }
            }
            return sum
        },
        Case(decoder: "jansson", task: "records") { lines in
            var sum = 0
            try lines.forEach { line, _ in sum &+= try Jansson.records(line).id.utf8.count > 0 ? 1 : 0 }
            return sum
        },
        Case(decoder: "foundation", task: "records") { lines in
            var sum = 0
            try lines.forEach { line, _ in
                let record = try jsonDecoder.decode(FoundationRecord.self, from: Data(buffer: line))
                sum &+= record.id.utf8.count > 0 ? 1 : 0
            }
            return sum
        },
        Case(decoder: "toolkit", task: "tree") { lines in
            var sum = 0
            try lines.forEach { line, _ in
                if case .object(let object) = try JSONParser.parse(line) { sum &+= object.members.count }
            }
            return sum
        },
        Case(decoder: "jansson", task: "tree") { lines in
            var sum = 0
            try lines.forEach { line, _ in
                let tree = try Jansson.load(line)
                sum &+= json_object_size(UnsafeMutablePointer(tree))
                js_release(UnsafeMutablePointer(tree))
            }
            return sum
        },
        Case(decoder: "foundation", task: "tree") { lines in
            var sum = 0
            try lines.forEach { line, _ in
                let object = try JSONSerialization.jsonObject(with: Data(buffer: line)) as? [String: Any]
                sum &+= object?.count ?? 0
            }
            return sum
        },
    ]
}

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

// MARK: - Guarantees

struct Guarantees {
    var order: String
    var numbers: String
    var errors: String
}

let orderProbe = #"{"zeta":1,"alpha":2,"mid":3,"id":"1","owner":"a@N00"}"#
let numberProbes = ["1.50", "1e2", "-0", "0.1000000000000000055511151231257827", "12345678901234567890", "-12.345600"]
/// A record broken at the doubled comma: column 52 in characters, byte 53 (é is two bytes).
let brokenProbe = #"{"id":"53120987654","owner":"x@N00","title":"café",,"latitude":1}"#
let brokenColumn = 52

func probeLine(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> String) -> String {
    let bytes = Array(text.utf8)
    do { return try bytes.withUnsafeBufferPointer { try body($0) } } catch { return "error: \(error)" }
}

func numberText(_ value: JSONValue?) -> String {
    if case .number(let text)? = value { return text }
    return "\(String(describing: value))"
}

func guarantees() -> [String: Guarantees] {
    func verdict(_ kept: [String]) -> String {
        let same = zip(numberProbes, kept).filter { $0 == $1 }.count
        let detail = zip(numberProbes, kept).filter { $0 != $1 }.map { "\($0) → \($1)" }.joined(separator: "; ")
        return same == numberProbes.count ? "yes (\(same)/\(numberProbes.count) kept)" : "no (\(same)/\(numberProbes.count) kept: \(detail))"
    }
    var result: [String: Guarantees] = [:]

    // The toolkit.
    let ourOrder = probeLine(orderProbe) { line in
        guard case .object(let object) = try JSONParser.parse(line) else { return "?" }
        return object.members.map(\.key).joined(separator: ",")
    }
    let ourNumbers = numberProbes.map { text in
        probeLine(#"{"n":\#(text)}"#) { line in
            guard case .object(let object) = try JSONParser.parse(line) else { return "?" }
            return numberText(object["n"])
        }
    }
    let ourError = probeLine(brokenProbe) { line in
        do { _ = try RecordDecoder.decode(line: line, number: 7, source: "stdin"); return "no error" }
        catch { return "\(error)" }
    }
    result["toolkit"] = Guarantees(order: ourOrder, numbers: verdict(ourNumbers), errors: ourError)

    // jansson.
    let janssonOrder = probeLine(orderProbe) { line in
        let tree = try Jansson.load(line)
        defer { js_release(UnsafeMutablePointer(tree)) }
        guard case .object(let object) = Jansson.value(tree) else { return "?" }
        return object.members.map(\.key).joined(separator: ",")
    }
    let janssonNumbers = numberProbes.map { text in
        probeLine(#"{"n":\#(text)}"#) { line in
            let tree = try Jansson.load(line)
            defer { js_release(UnsafeMutablePointer(tree)) }
            guard case .object(let object) = Jansson.value(tree) else { return "?" }
            return numberText(object["n"])
        }
    }
    let janssonError = probeLine(brokenProbe) { line in
        _ = try Jansson.load(line)
        return "no error"
    }
    result["jansson"] = Guarantees(order: janssonOrder, numbers: verdict(janssonNumbers.map { $0.hasPrefix("error: ") ? "error" : $0 }), errors: janssonError)

    // Foundation: JSONSerialization is the only way it keeps members it does not know.
    let foundationOrder = probeLine(orderProbe) { line in
        let object = try JSONSerialization.jsonObject(with: Data(buffer: line)) as? NSDictionary
        return (object?.allKeys as? [String])?.joined(separator: ",") ?? "?"
    }
    let foundationNumbers = numberProbes.map { text in
        probeLine(#"{"n":\#(text)}"#) { line in
            let object = try JSONSerialization.jsonObject(with: Data(buffer: line)) as? [String: Any]
            return (object?["n"] as? NSNumber)?.description ?? "?"
        }
    }
    let foundationError = probeLine(brokenProbe) { line in
        do {
            _ = try JSONDecoder().decode(FoundationRecord.self, from: Data(buffer: line))
            return "no error"
        } catch DecodingError.dataCorrupted(let context) {
            // What JSONDecoder says, and the position its parser knew underneath.
            var serialization = "no error"
            do { _ = try JSONSerialization.jsonObject(with: Data(buffer: line)) } catch { serialization = "\(error)" }
            return "JSONDecoder: \(context.debugDescription) (underlying: \(context.underlyingError.map { "\($0)" } ?? "none")); JSONSerialization: \(serialization)"
        }
    }
    result["foundation"] = Guarantees(order: foundationOrder, numbers: verdict(foundationNumbers), errors: foundationError)
    return result
}

// MARK: - Main

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func main() throws {
    var arguments = Array(CommandLine.arguments.dropFirst())
    var rounds = 5
    var outPath: String?
    var path: String?
    while !arguments.isEmpty {
        let argument = arguments.removeFirst()
        switch argument {
        case "--rounds": rounds = Int(arguments.isEmpty ? "" : arguments.removeFirst()) ?? 0
        case "--out": outPath = arguments.isEmpty ? nil : arguments.removeFirst()
        default: path = argument
        }
    }
    guard let path, rounds > 0 else {
        FileHandle.standardError.write(Data("usage: json-decode-bench RECORDS.ndjson [--rounds N] [--out FILE]\n".utf8))
        exit(64)
    }
    let lines = try Lines(path: path)
    let count = lines.ranges.count
    FileHandle.standardError.write(Data("json-decode-bench: \(count) records, \(lines.bytes.count / 1_000_000) MB, \(rounds) rounds\n".utf8))

    // The same records from both record paths: jansson's numbers, formatted back, must give
    // the records the toolkit's parser gives for this input (it has no numbers jansson changes).
    var mismatches = 0
    try lines.forEach { line, number in
        if number > 20_000 { return }
        let ours = try RecordDecoder.decode(line: line, number: number, source: "bench")
        if ours != [try Jansson.records(line)] { mismatches += 1 }
    }

    let all = cases()
    var seconds = [String: [Double]]()
    var checksums = [String: Int]()
    for round in 0..<rounds {
        // A different starting decoder each round, so none always runs on a cold cache.
        for offset in 0..<all.count {
            let item = all[(offset + round) % all.count]
            let started = now()
            let checksum = try item.run(lines)
            seconds["\(item.decoder) \(item.task)", default: []].append(now() - started)
            checksums["\(item.decoder) \(item.task)"] = checksum
        }
    }
    let promises = guarantees()

    var rows: [[String: Any]] = []
    var table = "| decoder | task | records/s (median) | µs/record | min–max s | vs toolkit |\n|---|---|---|---|---|---|\n"
    for task in ["records", "tree"] {
        let ours = median(seconds["toolkit \(task)"]!)
        for decoder in ["toolkit", "jansson", "foundation"] {
            let samples = seconds["\(decoder) \(task)"]!
            let middle = median(samples)
            let perSecond = Double(count) / middle
            table += "| \(decoder) | \(task) | \(Int(perSecond.rounded())) | \(String(format: "%.2f", middle / Double(count) * 1e6)) | \(String(format: "%.3f–%.3f", samples.min()!, samples.max()!)) | \(String(format: "%.2f×", middle / ours)) |\n"
            rows.append([
                "case": "json \(decoder) \(task)", "records": count, "rounds": rounds,
                "median_s": middle, "min_s": samples.min()!, "max_s": samples.max()!,
                "records_per_s": perSecond, "us_per_record": middle / Double(count) * 1e6,
                "time_vs_toolkit": middle / ours, "checksum": checksums["\(decoder) \(task)"]!,
            ])
        }
    }
    table += "\n| decoder | member order (\(orderProbe.prefix(24))…) | exact number text | syntax error (column \(brokenColumn) expected) |\n|---|---|---|---|\n"
    for decoder in ["toolkit", "jansson", "foundation"] {
        let promise = promises[decoder]!
        table += "| \(decoder) | \(promise.order) | \(promise.numbers) | \(promise.errors.replacingOccurrences(of: "\n", with: " ")) |\n"
        rows.append(["case": "json \(decoder) guarantees", "member_order": promise.order, "number_text": promise.numbers, "syntax_error": promise.errors])
    }
    table += "\njansson's records equal the toolkit's on the first 20,000 lines: \(mismatches == 0 ? "yes" : "no, \(mismatches) differ")\n"
    print(table, terminator: "")
    if let outPath {
        var text = ""
        for row in rows {
            text += String(decoding: try JSONSerialization.data(withJSONObject: row, options: [.sortedKeys]), as: UTF8.self) + "\n"
        }
        try text.write(toFile: outPath, atomically: true, encoding: .utf8)
    }
    if mismatches > 0 { exit(1) }
}

do { try main() } catch {
    FileHandle.standardError.write(Data("json-decode-bench: \(error)\n".utf8))
    exit(1)
}
