import BenchmarkSupport
import Foundation
import TouchTrackerCore

// Helpers for Scripts/benchmark.sh: inputs for the rows measured outside
// package-benchmark, and the answer checks. Output is one JSON object on stdout.
//
//   bench-tool check-hit-test           answers of ours, exact and classic on the hit-test rows' lines and taps
//   bench-tool document COUNT PATH      a document with COUNT random lines (the drawings of rows 1 and 5)
//   bench-tool trace-drawing STROKES    the document the touch-throughput trace draws natively
//   bench-tool trace-native STROKES REPEATS   updates per second of the trace natively (same process shape as node)
//   bench-tool http-writers PORT WRITERS SECONDS [health]   saves of writers.py's writers (see HTTPWriters)

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data((message + "\n").utf8))
  exit(2)
}

func json(_ object: Any) -> String {
  let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
  return String(decoding: data, as: UTF8.self)
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "check-hit-test":
  var rows: [[String: Any]] = []
  for count in HitTestScenario.counts + [-100_000] {
    let lengths: RandomDrawing.Lengths = count < 0 ? .anywhere : .strokes
    let scenario = HitTestScenario(count: abs(count), lengths: lengths)
    // Every tap the timed rows use (and more where the exact scan is cheap)
    // for ours; the classic scan is slow, so it is compared on fewer.
    let lineCount = abs(count)
    let taps = RandomDrawing.taps(count: lineCount <= 10_000 ? 1_000 : HitTestScenario.tapCount)
    let classicTaps = min(taps.count, max(16, 4_000_000 / lineCount))
    precondition(
      Array(taps.prefix(scenario.taps.count)) == scenario.taps, "the timed taps are a prefix of the checked ones")
    var oursWrong = 0
    var classicMissed = 0
    var classicExtra = 0
    var classicOtherLine = 0
    var hits = 0
    for (number, tap) in taps.enumerated() {
      let exact = LineIndex.nearestByScanning(to: tap, within: HitTestScenario.radius, in: scenario.lines)
      let ours = scenario.index.nearest(to: tap, within: HitTestScenario.radius, in: scenario.lines)
      if exact != nil { hits += 1 }
      if ours != exact { oursWrong += 1 }
      guard number < classicTaps else { continue }
      let classic = ClassicHitTest.nearestLine(to: tap, within: HitTestScenario.radius, in: scenario.lines)
      switch (exact, classic) {
      case (nil, nil): break
      case (.some, nil): classicMissed += 1
      case (nil, .some): classicExtra += 1
      case (.some(let a), .some(let b)): if a != b { classicOtherLine += 1 }
      }
    }
    rows.append([
      "lines": lineCount, "lengths": lengths.rawValue, "taps": taps.count, "hits": hits, "oursWrong": oursWrong,
      "classicTaps": classicTaps, "classicMissed": classicMissed, "classicExtra": classicExtra,
      "classicOtherLine": classicOtherLine, "timedTaps": scenario.taps.count,
    ])
  }
  print(json(["hitTest": rows]))
  if rows.contains(where: { ($0["oursWrong"] as! Int) != 0 }) {
    fail("LineIndex.nearest disagrees with the exact scan")
  }

case "document":
  guard arguments.count == 3, let count = Int(arguments[1]) else { fail("usage: bench-tool document COUNT PATH") }
  let bytes = DocumentCoder.encode(Drawing(lines: RandomDrawing.lines(count: count)))
  guard FileManager.default.createFile(atPath: arguments[2], contents: Data(bytes)) else {
    fail("Cannot write '\(arguments[2])'")
  }
  print(json(["lines": count, "bytes": bytes.count, "path": arguments[2]]))

case "trace-drawing":
  guard arguments.count == 2, let strokes = Int(arguments[1]) else { fail("usage: bench-tool trace-drawing STROKES") }
  let app = TouchTrackerApp(size: FingerTrace.windowSize)
  FingerTrace(strokes: strokes).play(on: app)
  print(DocumentCoder.encodeString(app.drawing), terminator: "")

case "trace-native":
  guard arguments.count == 3, let strokes = Int(arguments[1]), let repeats = Int(arguments[2]) else {
    fail("usage: bench-tool trace-native STROKES REPEATS")
  }
  let trace = FingerTrace(strokes: strokes)
  var rates: [Double] = []
  for _ in 0..<repeats {
    let app = TouchTrackerApp(size: FingerTrace.windowSize)
    let start = now()
    trace.play(on: app)
    rates.append(Double(trace.updateCount) / (now() - start))
  }
  rates.sort()
  print(json(["updates": trace.updateCount, "p50UpdatesPerSecond": rates[rates.count / 2], "repeats": repeats]))

case "http-writers":
  guard arguments.count >= 4, let port = Int(arguments[1]), let writers = Int(arguments[2]),
    let seconds = Double(arguments[3]), writers > 0, seconds > 0
  else {
    fail("usage: bench-tool http-writers PORT WRITERS SECONDS [health]")
  }
  print(
    json(
      HTTPWriters.run(port: port, writers: writers, seconds: seconds, health: arguments.dropFirst(4).first == "health"))
  )

default:
  fail(
    "usage: bench-tool check-hit-test | document COUNT PATH | trace-drawing STROKES | trace-native STROKES REPEATS"
      + " | http-writers PORT WRITERS SECONDS [health]")
}
