import Benchmark
import BenchmarkSupport
import TouchTrackerCore

// Row 7: parsing one JSON object of 20k and of 80k distinct keys, back to
// back in each iteration, and their ratio (x100). Linear parsing gives ~400;
// the issue's bar is at most 500. The quadratic duplicate-key search this
// replaced gave ~1600.

let smallMetric = BenchmarkMetric.custom("20k keys ns", polarity: .prefersSmaller, useScalingFactor: false)
let largeMetric = BenchmarkMetric.custom("80k keys ns", polarity: .prefersSmaller, useScalingFactor: false)
let ratioMetric = BenchmarkMetric.custom("80k/20k x100", polarity: .prefersSmaller, useScalingFactor: false)

// Reading changes (issue 13's and row 7's server side): one live `changes`
// message as the page sends it (one line, its record's bounds) and one
// change as the log keeps it, read straight into changes (`ChangeCoder`,
// its `DocumentReader` path) against through the JSON tree, in ns a read.
let messageStraight = BenchmarkMetric.custom("message straight ns", polarity: .prefersSmaller, useScalingFactor: false)
let messageTree = BenchmarkMetric.custom("message tree ns", polarity: .prefersSmaller, useScalingFactor: false)
let logStraight = BenchmarkMetric.custom("log change straight ns", polarity: .prefersSmaller, useScalingFactor: false)
let logTree = BenchmarkMetric.custom("log change tree ns", polarity: .prefersSmaller, useScalingFactor: false)

/// Nanoseconds a call of `read`, over `count` calls.
func nanoseconds(_ count: Int, _ read: () throws -> Void) rethrows -> Int {
  let clock = ContinuousClock()
  let elapsed = try clock.measure { for _ in 0..<count { try read() } }
  let (seconds, attoseconds) = elapsed.components
  return Int((Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(count))
}

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

  Benchmark(
    "changes straight and through the tree",
    configuration: .init(
      metrics: [messageStraight, messageTree, logStraight, logTree],
      units: [messageStraight: .count, messageTree: .count, logStraight: .count, logTree: .count])
  ) { (benchmark: Benchmark, inputs: (message: [UInt8], log: [UInt8])) in
    let count = 2_000
    benchmark.measurement(
      messageStraight, try nanoseconds(count) { _ = try ChangeCoder.decodeList(bytes: inputs.message) })
    benchmark.measurement(
      messageTree, try nanoseconds(count) { _ = try ChangeCoder.decodeListThroughTree(bytes: inputs.message) })
    benchmark.measurement(logStraight, try nanoseconds(count) { _ = try ChangeCoder.decode(bytes: inputs.log) })
    benchmark.measurement(logTree, try nanoseconds(count) { _ = try ChangeCoder.decodeThroughTree(bytes: inputs.log) })
  } setup: {
    let line = Line(
      id: ShapeID(rawValue: 123_456), begin: Point(x: 10.5, y: 20.25), end: Point(x: 300.75, y: 400.5),
      color: Color(rgb: 0x0050FF), width: 10)
    let change = Change.add(lines: [line], circles: [], at: nil)
    let bounds = Rect(origin: Point(x: 5.5, y: 15.25), size: Size(width: 300.25, height: 390.25))
    let record = String(decoding: ChangeCoder.encode(change, bounds: bounds), as: UTF8.self)
    let message = #"{"type":"changes","key":"3b1f0c2e-9d4a-4c55-8f00-0123456789ab","changes":["# + record + "]}"
    return (message: Array(message.utf8), log: ChangeCoder.encode(change))
  }
}
