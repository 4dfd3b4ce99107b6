import Benchmark
import BenchmarkSupport
import TouchTrackerCore

// Row 7: parsing one JSON object of 20k and of 80k distinct keys, back to
// back in each iteration, and their ratio (x100). Linear parsing gives ~400;
// the bar is at most 500. The quadratic duplicate-key search this
// replaced gave ~1600.

let smallMetric = BenchmarkMetric.custom("20k keys ns", polarity: .prefersSmaller, useScalingFactor: false)
let largeMetric = BenchmarkMetric.custom("80k keys ns", polarity: .prefersSmaller, useScalingFactor: false)
let ratioMetric = BenchmarkMetric.custom("80k/20k x100", polarity: .prefersSmaller, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [smallMetric, largeMetric, ratioMetric],
    units: [smallMetric: .count, largeMetric: .count, ratioMetric: .count],
    warmupIterations: 2,
    maxDuration: .seconds(4),
    maxIterations: 100
  )

  Benchmark("keys=20000,80000") { benchmark, inputs in
    let small = ManyKeys.parseTime(inputs.small)
    let large = ManyKeys.parseTime(inputs.large)
    benchmark.measurement(smallMetric, small)
    benchmark.measurement(largeMetric, large)
    benchmark.measurement(ratioMetric, Int((Double(large) / Double(small) * 100).rounded()))
  } setup: {
    (small: ManyKeys.object(count: ManyKeys.counts[0]), large: ManyKeys.object(count: ManyKeys.counts[1]))
  }
}
