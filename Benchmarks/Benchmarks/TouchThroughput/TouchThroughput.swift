import Benchmark
import BenchmarkSupport
import TouchTrackerCore

// Row 2 (native): ten fingers drawing. Each iteration plays the trace (20
// strokes, 1,020 touch updates each) on a fresh app through
// TouchTrackerApp.send -> Application -> gesture recognizers -> DrawView, and
// right after it through the classic touch handler (a dictionary of lines,
// no engine), and records both rates and their ratio.
//
// The steady state (issue 15: no allocation per touch update): ten fingers
// already down and drawing, 100 events of ten moved touches per iteration on
// the same app. Only ours is inside startMeasurement/stopMeasurement, so
// `mallocCountTotal` is ours alone (divide by 1,000 for mallocs per update);
// the classic handler plays the same events right after, as the baseline.

let strokes = 20

let oursMetric = BenchmarkMetric.custom("ours updates per s", polarity: .prefersLarger, useScalingFactor: false)
let classicMetric = BenchmarkMetric.custom("classic updates per s", polarity: .prefersLarger, useScalingFactor: false)
let costMetric = BenchmarkMetric.custom("ours cost vs classic x100", polarity: .prefersSmaller, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [oursMetric, classicMetric, costMetric, .mallocCountTotal],
    // Raw numbers in every output (Scripts/benchmark.sh reads the exported samples).
    units: [oursMetric: .count, classicMetric: .count, costMetric: .count, .mallocCountTotal: .count],
    warmupIterations: 2,
    maxDuration: .seconds(4),
    maxIterations: 1_000
  )

  Benchmark("fingers=\(FingerTrace.fingers) updates=\(FingerTrace(strokes: strokes).updateCount)") {
    benchmark, trace in
    let app = TouchTrackerApp(size: FingerTrace.windowSize)
    let handler = ClassicTouchHandler()
    let ours = Stopwatch.time { trace.play(on: app) }
    let classic = Stopwatch.time { handler.play(trace) }
    precondition(app.drawing.lines.count == strokes * FingerTrace.fingers, "the trace must draw its lines")
    precondition(handler.finishedLines.count == strokes * FingerTrace.fingers)
    let updates = Double(trace.updateCount)
    benchmark.measurement(oursMetric, Int(updates / Double(ours) * 1e9))
    benchmark.measurement(classicMetric, Int(updates / Double(classic) * 1e9))
    benchmark.measurement(costMetric, Int((Double(ours) / Double(classic) * 100).rounded()))
  } setup: {
    FingerTrace(strokes: strokes)
  }

  Benchmark("steady moves fingers=\(SteadyMoves.fingers) updates=\(steadyEvents * SteadyMoves.fingers)") {
    benchmark, moves in
    let events = moves.nextEvents(steadyEvents)
    benchmark.startMeasurement()
    let ours = Stopwatch.time { moves.play(events) }
    benchmark.stopMeasurement()
    let classic = Stopwatch.time { moves.playClassic(events) }
    let updates = Double(steadyEvents * SteadyMoves.fingers)
    benchmark.measurement(oursMetric, Int(updates / Double(ours) * 1e9))
    benchmark.measurement(classicMetric, Int(updates / Double(classic) * 1e9))
    benchmark.measurement(costMetric, Int((Double(ours) / Double(classic) * 100).rounded()))
  } setup: {
    SteadyMoves()
  }
}

let steadyEvents = 100
