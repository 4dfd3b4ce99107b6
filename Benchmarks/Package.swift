// swift-tools-version: 6.1
import PackageDescription

/// TouchTracker's benchmarks (see BENCHMARKS.md). A package of its own so that
/// package-benchmark and its malloc interposer never reach the app's build.
///
/// Each benchmark target compares our code with a baseline in the same run:
/// - HitTest: LineIndex.nearest vs the classic 21-sample scan (ClassicHitTest)
/// - TouchThroughput: touches through Application and DrawView vs a classic
///   touch handler that only updates a dictionary of lines
/// - Memory: bytes the core holds per finished line
/// - JSONParse: parsing an object of 80k keys vs one of 20k (linear is 4x)
/// - Checksum: the CRC-32 every read of a drawing checks, vs the byte-at-a-time one
///
/// `bench-tool` prepares inputs and checks answers for the other rows
/// (hit-test agreement, documents for the server and the browser, the native
/// drawing a touch trace produces). `live-swarm` runs the live-sync load's
/// WebSocket clients for `server/live.py` (see its header). `store-writers`
/// appends through the stores themselves for `server/writers.py`.
let package = Package(
  name: "TouchTrackerBenchmarks",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "TouchTracker", path: ".."),
    .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
  ],
  targets: [
    .target(
      name: "BenchmarkSupport",
      dependencies: [.product(name: "TouchTrackerCore", package: "TouchTracker")]
    ),
    .executableTarget(
      name: "bench-tool",
      dependencies: ["BenchmarkSupport", .product(name: "TouchTrackerCore", package: "TouchTracker")]
    ),
    .executableTarget(
      name: "store-writers",
      dependencies: [.product(name: "TouchTrackerStore", package: "TouchTracker")]
    ),
    .executableTarget(
      name: "live-swarm",
      dependencies: [
        .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
  ]
)

for name in ["HitTest", "TouchThroughput", "Memory", "JSONParse"] {
  package.targets.append(
    .executableTarget(
      name: name,
      dependencies: [
        "BenchmarkSupport",
        .product(name: "TouchTrackerCore", package: "TouchTracker"),
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/\(name)",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
  )
}
package.targets.append(
  .executableTarget(
    name: "Checksum",
    dependencies: [
      .product(name: "TouchTrackerStore", package: "TouchTracker"),
      .product(name: "Benchmark", package: "benchmark"),
    ],
    path: "Benchmarks/Checksum",
    plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
  )
)
