// swift-tools-version:6.1
//
// topregions: small Unix filters that answer "where is the world photographing right now?"
// from Flickr's stream of geotagged photos. See README.md and man/.
//
// Copyright 2026 the topregions maintainers.
// SPDX-License-Identifier: Apache-2.0 (LICENSE)
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "topregions",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "flickr-recent", targets: ["flickr-recent"]),
        .executable(name: "place-resolve", targets: ["place-resolve"]),
        .executable(name: "regions-load", targets: ["regions-load"]),
        .executable(name: "regions-top", targets: ["regions-top"]),
        .executable(name: "thumb-get", targets: ["thumb-get"]),
        .executable(name: "photo-cache", targets: ["photo-cache"]),
        .executable(name: "regions-serve", targets: ["regions-serve"]),
        .executable(name: "topregions", targets: ["topregions"]),
        .executable(name: "flickr-fake", targets: ["flickr-fake"]),
        // The records code (JSON parser, record decoder) for Benchmarks/JSONDecode.
        .library(name: "TopRegionsRecords", targets: ["TopRegionsRecords"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        // What the server and the fake use of Hummingbird's own foundations, declared because
        // they import it (bin/lib/check_imports.py); the versions Hummingbird 2.28.1 resolves.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // libcurl from the system (libcurl4-openssl-dev).
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // The few C calls Swift cannot make directly: libcurl opened at run time (variadic
        // curl_easy_setopt), OFD locks, SQLite's global configuration (variadic sqlite3_config).
        .target(name: "CSupport", dependencies: ["CCurl"], linkerSettings: [.linkedLibrary("sqlite3")]),

        // The core: one module per stage concern, each in its folder of
        // Sources/TopRegionsCore. The build holds the layering: a module imports only the
        // modules it lists here (docs/ARCHITECTURE.md, "Modules", draws the whole graph).
        //
        //   Support ← Records ← Ingest ← Store ← Flickr
        //   Support ← HTTP ←─────────────────── Flickr
        //             HTTP, Store ← Cache
        //             Records ← Formatting
        //             Store, Formatting ← Pages
        //             Store ← Refresh
        .target(name: "TopRegionsSupport", dependencies: ["CSupport"], path: "Sources/TopRegionsCore/Support", swiftSettings: strict),
        .target(name: "TopRegionsRecords", dependencies: ["TopRegionsSupport"], path: "Sources/TopRegionsCore/Records", swiftSettings: strict),
        // From NDJSON lines to batches ready for the store: the scanner, the batch's byte
        // buffer and layout, the decoding thread.
        .target(name: "TopRegionsIngest", dependencies: ["TopRegionsSupport", "TopRegionsRecords"], path: "Sources/TopRegionsCore/Ingest", swiftSettings: strict),
        .target(
            name: "TopRegionsStore",
            dependencies: [
                "TopRegionsSupport", "TopRegionsRecords", "TopRegionsIngest", "CSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            path: "Sources/TopRegionsCore/Store", swiftSettings: strict),
        .target(name: "TopRegionsHTTP", dependencies: ["TopRegionsSupport", "CSupport", "CCurl"], path: "Sources/TopRegionsCore/HTTP", swiftSettings: strict),
        .target(
            name: "TopRegionsFlickr", dependencies: ["TopRegionsSupport", "TopRegionsRecords", "TopRegionsStore", "TopRegionsHTTP"],
            path: "Sources/TopRegionsCore/Flickr", swiftSettings: strict),
        .target(
            name: "TopRegionsCache", dependencies: ["TopRegionsSupport", "TopRegionsRecords", "TopRegionsStore", "TopRegionsHTTP"],
            path: "Sources/TopRegionsCore/Cache", swiftSettings: strict),
        // The geography maps are drawn from (bin/lib/make-geography.py), built into the program.
        .target(name: "CGeography", exclude: ["geography.c.bin", "coasts.c.bin"]),
        .target(
            name: "TopRegionsFormatting", dependencies: ["TopRegionsSupport", "TopRegionsRecords", "CGeography"],
            path: "Sources/TopRegionsCore/Formatting", swiftSettings: strict),
        // What the command line and the server both make of a list of photos: its map (and,
        // next, its count and pages).
        .target(
            name: "TopRegionsPages", dependencies: ["TopRegionsSupport", "TopRegionsRecords", "TopRegionsStore", "TopRegionsFormatting"],
            path: "Sources/TopRegionsCore/Pages", swiftSettings: strict),
        // The refresh, flickr-recent | place-resolve | regions-load, run as stages by the
        // tools installed beside the running one (regions-top, regions-load --refresh, the
        // server's Refresh button).
        .target(
            name: "TopRegionsRefresh", dependencies: ["TopRegionsSupport", "TopRegionsStore"],
            path: "Sources/TopRegionsCore/Refresh", swiftSettings: strict),

        // The command-line surface (argument parsing, exit codes, the process's streams) over
        // the core.
        .target(
            name: "TopRegionsCLI",
            dependencies: [
                "TopRegionsSupport", "TopRegionsRecords", "TopRegionsStore", "TopRegionsHTTP", "TopRegionsFlickr",
                "TopRegionsCache", "TopRegionsFormatting", "TopRegionsPages", "TopRegionsRefresh",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),

        // regions-serve's server: the app in a browser, over the same database. It knows
        // nothing of the command line (its command is in TopRegionsToolkit), and is the only
        // part that links Hummingbird; the six filters stay as light as they are.
        .target(
            name: "TopRegionsServer",
            dependencies: [
                "CSupport", "TopRegionsSupport", "TopRegionsRecords", "TopRegionsStore", "TopRegionsHTTP", "TopRegionsCache",
                "TopRegionsFormatting", "TopRegionsPages", "TopRegionsRefresh",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),

        // The seven tools together: regions-serve's command over the server, the list of the
        // tools (the multi-call program, the documentation generator), assembled at the top.
        .target(
            name: "TopRegionsToolkit",
            dependencies: [
                "TopRegionsSupport", "TopRegionsStore", "TopRegionsHTTP", "TopRegionsCache", "TopRegionsFormatting",
                "TopRegionsCLI", "TopRegionsServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),

        .executableTarget(name: "flickr-recent", dependencies: ["TopRegionsCLI"], swiftSettings: strict),
        .executableTarget(name: "place-resolve", dependencies: ["TopRegionsCLI"], swiftSettings: strict),
        .executableTarget(name: "regions-load", dependencies: ["TopRegionsCLI"], swiftSettings: strict),
        .executableTarget(name: "regions-top", dependencies: ["TopRegionsCLI"], swiftSettings: strict),
        .executableTarget(name: "thumb-get", dependencies: ["TopRegionsCLI"], swiftSettings: strict),
        .executableTarget(name: "photo-cache", dependencies: ["TopRegionsCLI"], swiftSettings: strict),
        .executableTarget(name: "regions-serve", dependencies: ["TopRegionsToolkit"], swiftSettings: strict),
        // The seven tools in one program, run by their names (links to it) or as `topregions
        // TOOL`: what bin/install and bin/package install, so the Swift runtime and Foundation's
        // ICU tables are installed once (README, "Installing"). It links Hummingbird for
        // regions-serve; the seven executables above stay for development and the tests.
        .executableTarget(name: "topregions", dependencies: ["TopRegionsToolkit"], swiftSettings: strict),
        // Writes man/*.1 and the README's tables from the commands' declarations (bin/gen-man).
        .executableTarget(
            name: "topregions-docs",
            dependencies: ["TopRegionsCLI", "TopRegionsToolkit", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strict),

        // The offline Flickr used by tests, the demo and the benchmarks. Deliberately shares
        // no code with the toolkit, so its ground truth is an independent computation.
        .target(
            name: "FakeFlickr",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),
        .executableTarget(
            name: "flickr-fake",
            dependencies: ["FakeFlickr", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strict),

        // What the test suites share: temporary directories, running a tool or a server as a
        // process, the fake Flickr in process or as a process, a network in memory.
        .target(
            name: "TopRegionsTestSupport",
            dependencies: ["FakeFlickr", "TopRegionsHTTP"],
            path: "Tests/TestSupport",
            swiftSettings: strict),
        .testTarget(
            name: "TopRegionsCoreTests",
            dependencies: [
                "TopRegionsSupport", "TopRegionsRecords", "TopRegionsIngest", "TopRegionsStore", "TopRegionsHTTP", "TopRegionsFlickr",
                "TopRegionsCache", "TopRegionsFormatting", "TopRegionsPages", "TopRegionsRefresh", "TopRegionsCLI", "TopRegionsToolkit",
                "TopRegionsTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "TopRegionsServerTests",
            dependencies: [
                "TopRegionsServer", "TopRegionsRecords", "TopRegionsStore", "TopRegionsCache", "TopRegionsHTTP", "TopRegionsTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "FakeFlickrTests",
            dependencies: ["FakeFlickr", "TopRegionsTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["FakeFlickr", "TopRegionsTestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict),
    ]
)
