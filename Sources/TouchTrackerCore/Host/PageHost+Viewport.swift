/// The page's pan and zoom (wheel, keys, the zoom buttons): each is worked
/// out by the draw view (`DrawView+Viewport.swift`), then taken as the
/// viewport it leads to at the resolution traces keep, and performed as
/// that (recorded as a `viewport` event): a recording replays every touch
/// onto the same points of the drawing. Two fingers panning are touches
/// and replay as such.
extension PageHost {
  enum ViewportCommand: Int32 {
    case pan = 0, zoom = 1, actualSize = 2, fit = 3, zoomIn = 4, zoomOut = 5
  }

  /// Runs `command` (`a`, `b`, `c`: a pan's movement, or a zoom's factor
  /// and the window point it keeps); false for an unknown command or
  /// values that are not finite (counted as ignored input).
  func changeViewport(_ command: Int32, _ a: Double, _ b: Double, _ c: Double) -> Bool {
    guard player == nil else { return false }
    let view = app.drawView
    let before = (offset: view.contentOffset, zoom: view.zoomScale)
    let done: Bool
    switch ViewportCommand(rawValue: command) {
    case .pan: done = view.pan(by: Point(x: a, y: b))
    case .zoom: done = view.zoom(by: a, about: Point(x: b, y: c))
    case .actualSize: (done, _) = (true, view.zoomToActualSize())
    case .fit: (done, _) = (true, view.zoomToFit())
    case .zoomIn, .zoomOut: (done, _) = (true, view.zoomStep(in: command == ViewportCommand.zoomIn.rawValue))
    case nil: done = false
    }
    guard done else {
      ignore(.refused, "Pan and zoom need finite numbers and a known command")
      return false
    }
    let after = Point(x: Trace.quantized(view.contentOffset.x), y: Trace.quantized(view.contentOffset.y))
    let zoom = Trace.quantized(view.zoomScale)
    view.setViewport(offset: before.offset, zoom: before.zoom)
    if after != before.offset || zoom != before.zoom { perform(.viewport(after, zoom: zoom)) }
    return true
  }

  /// The viewport as a recording starts: at the resolution its trace keeps.
  func quantizedViewport() -> TraceEvent.Input {
    let view = app.drawView
    let offset = Point(x: Trace.quantized(view.contentOffset.x), y: Trace.quantized(view.contentOffset.y))
    view.setViewport(offset: offset, zoom: Trace.quantized(view.zoomScale))
    return .viewport(view.contentOffset, zoom: view.zoomScale)
  }
}
