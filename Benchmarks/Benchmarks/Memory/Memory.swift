import Benchmark
import BenchmarkSupport
import TouchTrackerCore

// Row 5: bytes the core holds per finished line at 1M lines.
//
// Method: package-benchmark's malloc interposer counts the bytes requested
// from malloc minus the bytes freed between startMeasurement() and
// stopMeasurement() (`memoryLeakedBytes`). Everything built inside that
// window and still alive at its end is what the core holds; it is released
// only after the window closes. Transient garbage (the JSON tree while
// decoding, arrays outgrown while appending) is freed inside the window and
// does not count. `peakMemoryResidentDelta` (sampled RSS) is a cross-check
// that also sees allocator overhead.

nonisolated(unsafe) var keptAlive: [AnyObject] = []
nonisolated(unsafe) var keptDrawing: Drawing?
nonisolated(unsafe) var keptIndex: LineIndex?
nonisolated(unsafe) var keptList: RenderList?

let lineCount = MemoryScenario.lineCount

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.memoryLeakedBytes, .peakMemoryResidentDelta, .mallocCountTotal, .wallClock],
    timeUnits: .milliseconds,
    // Raw numbers in every output (Scripts/benchmark.sh reads the exported samples).
    units: [.memoryLeakedBytes: .count, .peakMemoryResidentDelta: .count, .mallocCountTotal: .count],
    warmupIterations: 0,
    maxDuration: .seconds(1),
    maxIterations: 1
  )

  Benchmark("drawn lines=\(lineCount)") { benchmark, lines in
    benchmark.startMeasurement()
    let app = TouchTrackerApp(size: RandomDrawing.canvas)
    MemoryScenario.draw(lines: lines, on: app)
    _ = app.drawView.indexOfLine(at: Point(x: 1, y: 1))
    blackHole(app.drawView.staticLayer.count)
    benchmark.stopMeasurement()
    precondition(app.drawing.lines.count == lineCount, "every stroke must become a line")
    keptAlive = [app]
  } setup: {
    MemoryScenario.handDrawnLines(count: lineCount)
  } teardown: {
    keptAlive = []
  }

  Benchmark("opened lines=\(lineCount)") { benchmark, document in
    benchmark.startMeasurement()
    let app = MemoryScenario.open(document)
    benchmark.stopMeasurement()
    precondition(app.drawing.lines.count == lineCount)
    keptAlive = [app]
  } setup: {
    DocumentCoder.encode(Drawing(lines: RandomDrawing.lines(count: lineCount)))
  } teardown: {
    keptAlive = []
  }

  // The parts, to say where the bytes go.
  Benchmark("part-drawing lines=\(lineCount)") { benchmark, document in
    benchmark.startMeasurement()
    let drawing = try! DocumentCoder.decode(bytes: document)
    benchmark.stopMeasurement()
    keptDrawing = drawing
  } setup: {
    DocumentCoder.encode(Drawing(lines: RandomDrawing.lines(count: lineCount)))
  } teardown: {
    keptDrawing = nil
  }

  Benchmark("part-index lines=\(lineCount)") { benchmark, lines in
    benchmark.startMeasurement()
    let index = LineIndex(lines: lines)
    benchmark.stopMeasurement()
    keptIndex = index
  } setup: {
    RandomDrawing.lines(count: lineCount)
  } teardown: {
    keptIndex = nil
  }

  Benchmark("part-staticLayer lines=\(lineCount)") { benchmark, lines in
    benchmark.startMeasurement()
    let view = DrawView(frame: Rect(origin: .zero, size: RandomDrawing.canvas))
    view.load(Drawing(lines: lines))
    let list = view.staticLayer
    benchmark.stopMeasurement()
    keptList = list
  } setup: {
    RandomDrawing.lines(count: lineCount)
  } teardown: {
    keptList = nil
  }
}
