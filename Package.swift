// swift-tools-version: 6.1
import PackageDescription

/// The engine (TouchKit) and the app's core (TouchTrackerCore, built on it)
/// are Foundation-free, so the same sources also build with Embedded Swift for
/// wasm32 as one module (see Scripts/build-wasm.sh); everything that needs
/// Foundation, SQLite or networking lives in the modules above them.
let package = Package(
  name: "TouchTracker",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "touchtracker", targets: ["touchtracker"]),
    // The UIKit-style event engine alone: touches, responders, views and hit
    // testing, gesture recognizers, controls, menus and scrolling.
    .library(name: "TouchKit", targets: ["TouchKit"]),
    .library(name: "TouchTrackerCore", targets: ["TouchTrackerCore"]),
    // For Benchmarks' store-writers (issue 13's saves row, measured at the store).
    .library(name: "TouchTrackerStore", targets: ["TouchTrackerStore"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    // `swift package generate-documentation --target TouchKit` (Scripts/check-docs.sh).
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    .target(
      name: "TouchKit",
      // What every wasm build of the engine links (hashing seeds, Unicode stubs); not native.
      exclude: ["Wasm"],
      swiftSettings: [.enableExperimentalFeature("Extern")],
      linkerSettings: [.linkedLibrary("m")]
    ),
    // A second, small app built on the engine alone (the book's Hypnosister
    // with a pinch and a button), natively here and in the browser through
    // Scripts/build-wasm.sh --example.
    .target(name: "HypnosisExample", dependencies: ["TouchKit"], path: "Examples/Hypnosis", exclude: ["Wasm"]),
    .target(
      name: "TouchTrackerCore",
      dependencies: ["TouchKit"],
      exclude: ["Wasm"],
      swiftSettings: [.enableExperimentalFeature("Extern")],
      linkerSettings: [.linkedLibrary("m")]
    ),
    .target(
      name: "TouchTrackerStore",
      dependencies: [
        "TouchTrackerCore",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // zlib, for gzip of the page's files.
    .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
    .target(
      name: "TouchTrackerServer",
      dependencies: [
        "CZlib",
        "TouchTrackerCore",
        .product(name: "Prometheus", package: "swift-prometheus"),
        "TouchTrackerStore",
        "TouchTrackerWebAssets",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOFoundationCompat", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]
    ),
    // The page's files (everything under Web/, including the built
    // touchtracker.wasm when it exists) compiled into the binary, so an
    // installed `touchtracker serve` needs no files beside it.
    .target(name: "TouchTrackerWebAssets", plugins: ["EmbedWebAssets"]),
    .plugin(name: "EmbedWebAssets", capability: .buildTool(), dependencies: ["embed-web-assets"]),
    .executableTarget(name: "embed-web-assets", path: "Plugins/embed-web-assets"),
    .executableTarget(
      name: "touchtracker",
      dependencies: [
        "TouchTrackerCore",
        "TouchTrackerStore",
        "TouchTrackerServer",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // The engine's own tests: they build without the app.
    .testTarget(
      name: "TouchKitTests",
      dependencies: ["TouchKit", "TouchKitTestSupport"]
    ),
    // Views that record what they are sent, and touches to send: the engine's and the app's tests share them.
    .target(name: "TouchKitTestSupport", dependencies: ["TouchKit"], path: "Tests/TouchKitSupport"),
    .testTarget(name: "HypnosisExampleTests", dependencies: ["HypnosisExample", "TouchKitTestSupport"]),
    .testTarget(
      name: "TouchTrackerCoreTests",
      dependencies: [
        "TouchTrackerCore",
        "TouchTrackerTestSupport",
        "TouchKitTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "TouchTrackerStoreTests",
      dependencies: [
        "TouchTrackerStore", "TouchTrackerTestSupport", .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
      ]
    ),
    // What the tests share: a raw TCP connection to a live server, drawings compared without ids.
    .target(
      name: "TouchTrackerTestSupport", dependencies: ["TouchTrackerCore"], path: "Tests/Support",
      // Read from the source tree by `ChangeFixture.all`.
      exclude: ["ChangeFixtures"]),
    .testTarget(
      name: "TouchTrackerServerTests",
      dependencies: [
        "CZlib",
        "TouchTrackerServer",
        "TouchTrackerStore",
        "TouchTrackerTestSupport",
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "NIOEmbedded", package: "swift-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ]
    ),
    .testTarget(
      name: "touchtrackerTests",
      dependencies: ["touchtracker", "TouchTrackerCore", "TouchTrackerStore", "TouchTrackerTestSupport"],
      resources: [.copy("Fixtures")]
    ),
  ]
)
