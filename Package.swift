// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Fanout",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Fanout", targets: ["FanoutCore", "FanoutJSON", "FanoutImport", "FanoutRender"]),
        .executable(name: "fanout", targets: ["fanout"]),
        .executable(name: "FanoutFuzz", targets: ["FanoutFuzz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        // Domain core: model, derivation, checks. No I/O.
        .target(name: "FanoutCore", dependencies: ["FanoutJSON"]),
        // Streaming byte-level JSON reader and canonical writer.
        .target(name: "FanoutJSON"),
        // Schemas and the adapters that fill the core from an export.
        .target(
            name: "FanoutImport",
            dependencies: [
                "FanoutCore", "FanoutJSON", "SystemZlib",
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
        // Site pages, reports and snapshots.
        .target(
            name: "FanoutRender",
            dependencies: [
                "FanoutCore", "FanoutJSON", "CCmark",
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        // Deterministic synthetic exports for tests and benchmarks.
        .target(name: "FanoutGenerate"),
        .executableTarget(
            name: "fanout",
            dependencies: [
                "FanoutCore", "FanoutJSON", "FanoutImport", "FanoutRender", "FanoutGenerate",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // libFuzzer target for the reader and the walker (`make fuzz`); a plain build makes a replayer of inputs.
        .executableTarget(name: "FanoutFuzz", dependencies: ["FanoutCore", "FanoutJSON", "FanoutImport"]),
        .testTarget(name: "FanoutJSONTests", dependencies: ["FanoutJSON"], resources: [.copy("JSONTestSuite")]),
        .testTarget(name: "FanoutCoreTests", dependencies: ["FanoutCore", "FanoutJSON"]),
        .testTarget(name: "FanoutImportTests", dependencies: ["FanoutImport", "FanoutCore", "FanoutJSON"]),
        .testTarget(name: "FanoutRenderTests", dependencies: ["FanoutRender", "FanoutCore"]),
        .testTarget(name: "FanoutGenerateTests", dependencies: ["FanoutGenerate", "FanoutImport", "FanoutCore", "FanoutJSON"]),
        .testTarget(name: "FanoutCLITests", dependencies: ["FanoutJSON", "FanoutGenerate"], exclude: ["Golden"]),
    ]
)
