import TouchTrackerCore

/// How the core comes to hold a million lines, for the memory row.
public enum MemoryScenario {
  public static let lineCount = 1_000_000

  /// Opening a saved drawing: decode the document, load it, then what the
  /// page does next: a tap (builds the hit-test index) and one frame (builds
  /// the static layer).
  public static func open(_ document: [UInt8]) -> TouchTrackerApp {
    let app = TouchTrackerApp(size: RandomDrawing.canvas)
    let drawing = try! DocumentCoder.decode(bytes: document)
    app.drawView.load(drawing)
    _ = app.drawView.indexOfLine(at: Point(x: 1, y: 1))
    _ = app.drawView.staticLayer
    return app
  }

  /// Drawing by hand: strokes of ten fingers (down, one move, up: three
  /// events, ten lines). The caller renders a frame at the end: the static
  /// layer is built afresh on every call, so frames in between would only
  /// add time, not memory.
  public static func draw(lines: [Line], on app: TouchTrackerApp) {
    let fingers = 10
    var time = 0.0
    var start = 0
    while start < lines.count {
      let batch = lines[start..<min(start + fingers, lines.count)]
      let began = batch.enumerated().map { TouchInput(id: $0.offset + 1, phase: .began, location: $0.element.begin) }
      let moved = batch.enumerated().map { TouchInput(id: $0.offset + 1, phase: .moved, location: $0.element.end) }
      let ended = batch.enumerated().map { TouchInput(id: $0.offset + 1, phase: .ended, location: $0.element.end) }
      try! app.send(began, at: time)
      try! app.send(moved, at: time + 1.0 / 60)
      try! app.send(ended, at: time + 2.0 / 60)
      time += 1
      start += fingers
    }
  }

  /// Strokes long enough that no tap recognizes (every line moves at least 10 pt).
  public static func handDrawnLines(count: Int) -> [Line] {
    RandomDrawing.lines(count: count).map { line in
      line.segment.length >= 12 ? line : Line(begin: line.begin, end: line.begin + Point(x: 12, y: 12))
    }
  }
}
