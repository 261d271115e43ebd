// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Fanout",
    // macOS 15: the standard library's `Synchronization` (`Mutex`, `Atomic`), which `Locked` and the split read use.
    platforms: [.macOS(.v15)],
    products: [
        // The library another Swift program uses: load an export, derive, run the rules, render, export.
        .library(
            name: "Fanout",
            targets: [
                "FanoutJSON", "FanoutCore", "FanoutImport", "FanoutOutput", "FanoutTemplates", "FanoutReports",
                "FanoutSite", "FanoutExport",
            ]),
        // The commands, as a library, so that the CLI's logic is testable in-process.
        .library(name: "FanoutCLI", targets: ["FanoutCLI"]),
        .executable(name: "fanout", targets: ["fanout"]),
        .executable(name: "FanoutFuzz", targets: ["FanoutFuzz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        // `fanout serve`'s HTTP server (docs/serve.md), and the packages of its graph that FanoutServeHTTP
        // imports directly.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // SHA-256, which names a page of a key too long to be its own file name (docs/site.md "File names"): already
        // in the graph of the HTTP server's packages; 3.12.3 or later, as they take.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // The oracle of the hand-written EntityProto decoder (Firestore exports), in the tests only.
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    ],
    targets: [
        // Domain core: model, derivation, checks. No I/O.
        .target(name: "FanoutCore", dependencies: ["FanoutJSON", "FanoutLocked", "CPrefetch"]),
        // The one lock type, shared by the core and the outputs, which need nothing else of the core.
        .target(name: "FanoutLocked"),
        // A CPU prefetch hint, which Swift cannot express, for the key table's batched interning.
        .target(name: "CPrefetch"),
        // Streaming byte-level JSON reader and canonical writer.
        .target(name: "FanoutJSON", dependencies: ["CScan"]),
        // JSON's structure found 64 bytes at a time (SIMD), which Swift cannot express well, for the reader's skims.
        .target(name: "CScan"),
        // The CRC-32C instruction (SSE4.2), which Swift cannot express, for Firestore's LevelDB records.
        .target(name: "CChecksum"),
        // Schemas and the adapters that fill the core from an export.
        .target(
            name: "FanoutImport",
            dependencies: [
                "CChecksum", "FanoutCore", "FanoutJSON", "SystemZlib",
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        // zlib, for gzip-compressed exports (Firebase's automated backups).
        .systemLibrary(name: "SystemZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // libcmark, the CommonMark reference implementation, from the system.
        .systemLibrary(
            name: "CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"]), .brew(["cmark"])]
        ),
        // Writing files and folders atomically (a temporary sibling moved into place): every output goes through it.
        .target(name: "FanoutOutput", dependencies: ["FanoutLocked"]),
        // The template engine: Fanout's own Mustache renderer, swift-mustache for what it leaves, the template set.
        // It knows nothing of the site: the values it renders come through `TemplateValues` and `TemplateValueKinds`.
        .target(
            name: "FanoutTemplates",
            dependencies: ["FanoutLocked", .product(name: "Mustache", package: "swift-mustache")]
        ),
        // The reports: the report formats of an audit, `fanout diff`'s and `fanout history`'s, and the built-in
        // templates (the site's too, which imports this module).
        .target(name: "FanoutReports", dependencies: ["FanoutCore", "FanoutJSON", "FanoutTemplates"]),
        // The site: its pages and kinds of page, its incremental output and card store, CommonMark.
        .target(
            name: "FanoutSite",
            dependencies: [
                "FanoutCore", "FanoutJSON", "FanoutLocked", "FanoutOutput", "FanoutTemplates", "FanoutReports",
                "CCmark",
                "CPrefetch", .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Outputs that are data, not pages: the canonical snapshot, the repaired export and the tables (zlib for --gzip).
        .target(
            name: "FanoutExport",
            dependencies: ["CScan", "FanoutCore", "FanoutJSON", "FanoutImport", "FanoutOutput", "SystemZlib"]),
        // Deterministic synthetic exports for tests and benchmarks.
        .target(name: "FanoutGenerate", dependencies: ["FanoutOutput"]),
        // `fanout serve` without the HTTP stack: its path rules, what it injects into pages, and the server it needs
        // (`SiteServing`), which the executable gives; the commands and the tests build on this alone.
        .target(name: "FanoutServe", dependencies: ["FanoutCore", "FanoutLocked", "FanoutTemplates", "FanoutSite"]),
        // `fanout serve`'s HTTP server: Hummingbird 2 on SwiftNIO, live reload, the swapped site state.
        .target(
            name: "FanoutServeHTTP",
            dependencies: [
                "FanoutCore", "FanoutLocked", "FanoutTemplates", "FanoutSite", "FanoutServe",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The version (the VERSION file) and the commit that `fanout --version` prints, compiled in by C (#embed,
        // and a header `make dist` writes), which Swift cannot do at build time without a plugin.
        .target(name: "CBuildInfo"),
        // The commands, the site project's settings and the read → derive → check pipeline they share.
        .target(
            name: "FanoutCLI",
            dependencies: [
                "FanoutCore", "FanoutJSON", "FanoutImport", "FanoutOutput", "FanoutTemplates", "FanoutReports",
                "FanoutSite", "FanoutExport", "FanoutGenerate", "FanoutServe", "CBuildInfo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        // The executable: FanoutCLI's commands, given the HTTP server `serve` runs.
        .executableTarget(name: "fanout", dependencies: ["FanoutCLI", "FanoutServeHTTP"]),
        // libFuzzer target for every reader and parser of input (`make fuzz`, docs/robustness.md "Fuzzing"); a plain
        // build makes a replayer of inputs.
        // FanoutSite, FanoutReports and FanoutCLI: templates, JSON reports, history files and fanout.toml (RenderFuzz).
        .executableTarget(
            name: "FanoutFuzz",
            dependencies: [
                "FanoutCore", "FanoutJSON", "FanoutImport", "FanoutTemplates", "FanoutReports", "FanoutSite",
                "FanoutCLI",
            ]),
        // What every test target shares (CONTRIBUTING.md "Testing"): temporary folders that delete themselves, running
        // a binary and capturing its output, the repository's root, the dataset builder and the seeded generator.
        // A plain target under Tests/, not a product: only the test targets depend on it.
        .target(name: "FanoutTestSupport", dependencies: ["FanoutCore"], path: "Tests/FanoutTestSupport"),
        .testTarget(
            name: "FanoutJSONTests", dependencies: ["FanoutJSON", "FanoutTestSupport"],
            resources: [.copy("JSONTestSuite")]),
        .testTarget(name: "FanoutCoreTests", dependencies: ["FanoutTestSupport", "FanoutCore", "FanoutJSON"]),
        .testTarget(
            name: "FanoutImportTests",
            dependencies: [
                "FanoutTestSupport", "FanoutImport", "FanoutCore", "FanoutJSON",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]),
        .testTarget(name: "FanoutOutputTests", dependencies: ["FanoutTestSupport", "FanoutOutput"]),
        // FanoutSite: the engine's tests render the site's cards, and templates over the built-in ones.
        .testTarget(
            name: "FanoutTemplatesTests",
            dependencies: [
                "FanoutTestSupport", "FanoutTemplates", "FanoutSite",
                .product(name: "Mustache", package: "swift-mustache"),
            ]),
        .testTarget(
            name: "FanoutReportsTests",
            dependencies: [
                "FanoutTestSupport", "FanoutReports", "FanoutTemplates", "FanoutSite", "FanoutCore", "FanoutJSON",
            ]
        ),
        .testTarget(
            name: "FanoutSiteTests",
            // FanoutImport and FanoutGenerate: the template engines' differential test builds sites of exports.
            dependencies: [
                "FanoutTestSupport", "FanoutSite", "FanoutReports", "FanoutTemplates", "FanoutCore", "FanoutJSON",
                "FanoutImport", "FanoutGenerate",
            ]),
        .testTarget(
            name: "FanoutServeTests", dependencies: ["FanoutTestSupport", "FanoutServe", "FanoutSite", "FanoutCore"]),
        .testTarget(
            name: "FanoutExportTests",
            dependencies: [
                "FanoutTestSupport", "FanoutExport", "FanoutCore", "FanoutJSON", "FanoutGenerate", "FanoutImport",
            ]),
        .testTarget(
            name: "FanoutGenerateTests",
            dependencies: ["FanoutTestSupport", "FanoutGenerate", "FanoutImport", "FanoutCore", "FanoutJSON"]),
        // No `package` access: these tests use Fanout as another package would (LibraryExampleTests compiles the
        // library example of docs/library.md against the public API alone); internals only through `@testable import`.
        .testTarget(
            name: "FanoutCLITests",
            dependencies: [
                "FanoutCLI", "FanoutTestSupport", "FanoutCore", "FanoutJSON", "FanoutImport", "FanoutTemplates",
                "FanoutReports", "FanoutSite", "FanoutGenerate", "FanoutServe", "FanoutExport",
            ],
            exclude: ["Golden"], packageAccess: false),
    ]
)
