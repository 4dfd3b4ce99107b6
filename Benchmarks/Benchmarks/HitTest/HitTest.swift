import Benchmark
import BenchmarkSupport
import TouchTrackerCore

// Row 1: the nearest line within 20 pt of a tap, among `count` random lines.
// Each iteration times, back to back, LineIndex.nearest on all 64 taps (the
// index built beforehand, as DrawView keeps it) and the classic 21-sample scan
// on the next tap in turn, and records both per tap and their ratio, so the
// ratio's median comes from pairs measured a moment apart. Answers are
// checked by `bench-tool check-hit-test`.

let oursMetric = BenchmarkMetric.custom("ours ns per tap", polarity: .prefersSmaller, useScalingFactor: false)
let classicMetric = BenchmarkMetric.custom("classic ns per tap", polarity: .prefersSmaller, useScalingFactor: false)
let speedupMetric = BenchmarkMetric.custom("speedup x100", polarity: .prefersLarger, useScalingFactor: false)

func measurePair(_ benchmark: Benchmark, _ scenario: HitTestScenario) {
  var found = 0
  let ours = Stopwatch.time { found = scenario.ours() }
  var classic: Int?
  let classicTime = Stopwatch.time { classic = scenario.classicNextTap() }
  blackHole(found)
  blackHole(classic)
  let oursPerTap = Double(ours) / Double(scenario.taps.count)
  benchmark.measurement(oursMetric, Int(oursPerTap.rounded()))
  benchmark.measurement(classicMetric, classicTime)
  benchmark.measurement(speedupMetric, Int((Double(classicTime) / oursPerTap * 100).rounded()))
}

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [oursMetric, classicMetric, speedupMetric],
    // Raw numbers in every output (Scripts/benchmark.sh reads the exported samples).
    units: [oursMetric: .count, classicMetric: .count, speedupMetric: .count],
    warmupIterations: 1,
    maxDuration: .seconds(2),
    maxIterations: 200
  )

  for count in HitTestScenario.counts {
    Benchmark(
      "lines=\(count)",
      configuration: .init(maxDuration: .seconds(count >= 1_000_000 ? 4 : 2))
    ) { benchmark, scenario in
      measurePair(benchmark, scenario)
    } setup: {
      HitTestScenario(count: count)
    }
  }

  // Sensitivity: long lines (both ends anywhere on the canvas) are the worst case for a grid.
  Benchmark("long lines=100000") { benchmark, scenario in
    measurePair(benchmark, scenario)
  } setup: {
    HitTestScenario(count: 100_000, lengths: .anywhere)
  }
}
