// swift-tools-version:6.1
//
// Decoding the same photo records with three JSON decoders in one run: libjansson (through a
// small C shim), the toolkit's own parser (Records/) and Foundation. Run by
// bin/lib/bench_json.py; kept out of the root package so that building topregions never
// needs libjansson-dev.
import PackageDescription

let package = Package(
    name: "JSONDecodeBenchmark",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "topregions", path: "../..")],
    targets: [
        // libjansson from the system (libjansson-dev); the shim wraps its macros and inline
        // functions, which Swift cannot call.
        .target(name: "JanssonShim", linkerSettings: [.linkedLibrary("jansson")]),
        .executableTarget(
            name: "json-decode-bench",
            dependencies: [
                "JanssonShim",
                .product(name: "TopRegionsRecords", package: "topregions"),  // the root package's records library (JSON parser, record decoder)
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
