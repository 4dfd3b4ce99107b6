/// The app as the browser page drives it: touches queued per animation frame,
/// a clock fed from event timestamps, and the buffers the page reads.
///
/// Everything the page sends is checked here first. A browser can lose a
/// `pointerup`, report a finger twice in one frame or hand over NaN; none of
/// that may trap or make the core refuse a whole event with other fingers in it.
final class WasmHost {
  let app: TouchTrackerApp
  private var queue = TouchQueue()
  /// Fingers the core knows are down, by the page's pointer id, at their last delivered location.
  private var down = FingersDown()

  /// Counts finished changes (add, delete, move, clear, undo, redo): the page saves when it moves.
  private(set) var changeCount = 0
  /// Counts input the page sent that was ignored; `lastError` says why.
  private(set) var ignoredInputCount = 0
  private(set) var lastError = ""

  private var staticLayerSerial = 0
  private var staticLayerKey = (version: -1, size: Size.zero)
  /// The drawing version and size of the static layer the page last painted.
  private var paintedVersion = -1
  private var paintedSize = Size.zero
  /// The static buffers hold only segments to add to what the page painted.
  private(set) var staticIsIncrement = false

  var staticFloats = ExportBuffer<Float>(capacity: 1024)
  var staticText = ExportBuffer<UInt8>(capacity: 64)
  var liveFloats = ExportBuffer<Float>(capacity: 1024)
  var liveText = ExportBuffer<UInt8>(capacity: 256)
  /// Answers to `probeLine(forTouch:)`: end x, end y, width, rgb.
  var probe = ExportBuffer<Float>(capacity: 4)
  /// Where the page writes a document to load.
  var input = ExportBuffer<UInt8>(capacity: 4096)
  /// Bytes returned to the page: an exported document, the state, an error message.
  var output = ExportBuffer<UInt8>(capacity: 4096)

  init(size: Size) {
    app = TouchTrackerApp(size: size)
    app.drawView.onChange = { [unowned(unsafe) self] _ in self.changeCount += 1 }
  }

  /// The app outlives this body by a moment (it goes with the stored
  /// properties) and cancels its fingers then; that must not call back here.
  deinit {
    app.drawView.onChange = nil
    staticFloats.deallocate()
    staticText.deallocate()
    liveFloats.deallocate()
    liveText.deallocate()
    probe.deallocate()
    input.deallocate()
    output.deallocate()
  }

  // MARK: Touches and time

  enum TouchStatus: Int32 {
    case queued = 0
    case unknownPhase = 1
    case notFinite = 2
    case notDown = 3
  }

  /// Queues one finger's change for the next `commit(at:)`.
  func report(id: Int, phaseCode: Int32, location: Point, time: Double) -> TouchStatus {
    guard let phase = TouchPhase(code: phaseCode) else {
      return ignore(.unknownPhase, "Unknown phase \(phaseCode) for touch \(id)")
    }
    guard location.isFinite, time.isFinite else {
      return ignore(.notFinite, "Touch \(id) has a non-finite location or time")
    }
    if queue.contains(id: id) { commit(at: time) }
    if phase == .began, let stale = down[id] {
      // The page never told us this finger lifted: it cannot draw on.
      queue.append(TouchInput(id: id, phase: .cancelled, location: stale), at: time)
      commit(at: time)
    }
    if phase != .began && down[id] == nil {
      return ignore(.notDown, "Touch \(id) \(phase.name) before it began")
    }
    queue.append(TouchInput(id: id, phase: phase, location: location), at: time)
    return .queued
  }

  /// Delivers the queued touches as one event, at the latest of `time`, the
  /// queued touches' timestamps and the clock (time never goes back).
  func commit(at time: Double) {
    guard !queue.isEmpty else { return }
    var eventTime = max(queue.time, app.clock.now)
    if time.isFinite { eventTime = max(eventTime, time) }
    let inputs = queue.take()
    do {
      try app.send(inputs, at: eventTime)
    } catch {
      _ = ignore(.notDown, error.message)
      return
    }
    for input in inputs {
      down[input.id] = input.phase.isFinal ? nil : input.location
    }
  }

  /// Advances the clock (fires the double-tap timeout, the long press).
  func tick(at time: Double) {
    guard time.isFinite else { return }
    app.advanceClock(to: time)
  }

  /// The page lost its input (hidden, blurred): every finger is cancelled.
  func cancelAll(at time: Double) {
    commit(at: time)
    app.application.cancelAllTouches(at: time.isFinite ? time : app.clock.now)
    down.removeAll()
  }

  private func ignore(_ status: TouchStatus, _ message: String) -> TouchStatus {
    ignoredInputCount += 1
    lastError = message
    return status
  }

  /// Whether the page's finger `id` is drawing a line, and where its end is,
  /// so the page can draw the predicted end ahead of the finger.
  func probeLine(forTouch id: Int) -> Bool {
    guard let location = down[id] else { return false }
    let point = app.drawView.convert(fromWindow: location)
    guard let progress = app.drawView.linesInProgress.first(where: { $0.line.end == point }) else { return false }
    let line = progress.line
    probe.replace(with: [Float(line.end.x), Float(line.end.y), Float(line.width), Float(line.color.rgb)])
    return true
  }

  // MARK: Rendering

  /// Bumped whenever the static layer's content or size changed.
  var staticLayerVersion: Int {
    let key = (version: app.drawView.drawingVersion, size: app.drawView.frame.size)
    if key.version != staticLayerKey.version || key.size != staticLayerKey.size {
      staticLayerKey = key
      staticLayerSerial += 1
    }
    return staticLayerSerial
  }

  /// Copies the static layer into `staticFloats`/`staticText`; returns its
  /// command count. Unless `whole` is asked for, and when only lines were
  /// added since the layer the page last painted, the buffers hold just the
  /// new segments and `staticIsIncrement` is set: the page paints them over
  /// what it has.
  func renderStaticLayer(whole: Bool) -> Int {
    let view = app.drawView
    let increment = whole || paintedSize != view.frame.size ? nil : view.staticLayerIncrement(since: paintedVersion)
    let list = increment ?? view.staticLayer
    staticIsIncrement = increment != nil
    paintedVersion = view.drawingVersion
    paintedSize = view.frame.size
    guard staticFloats.replace(with: list.floats), staticText.replace(with: list.textBytes) else { return 0 }
    return list.count
  }

  /// Copies the live layer into `liveFloats`/`liveText`; returns its command count.
  func renderLiveLayer() -> Int {
    let list = app.renderLiveLayer()
    guard liveFloats.replace(with: list.floats), liveText.replace(with: list.textBytes) else { return 0 }
    return list.count
  }

  // MARK: Document

  /// Replaces the drawing with the document in `input`; nil or the problem.
  func loadDocument(length: Int) -> String? {
    guard length >= 0, length <= input.capacity else { return "Document length \(length) is out of range" }
    input.setCount(length)
    let bytes = Array(input.elements)
    do {
      let drawing = try DocumentCoder.decode(bytes: bytes)
      app.drawView.deselect()
      app.drawView.load(drawing)
      return nil
    } catch {
      return error.message
    }
  }

  /// Puts `bytes` in `output` and returns their count, or -1 when memory
  /// ran out (never 0: the page would take an empty document for the drawing).
  func setOutput(_ bytes: [UInt8]) -> Int {
    guard output.replace(with: bytes) else { return -1 }
    return bytes.count
  }

  // MARK: Settings and state

  var colorsByAngle: Bool {
    get { app.drawView.options.colorMode == .byAngle }
    set { app.drawView.options.colorMode = newValue ? .byAngle : .fixed(.black) }
  }

  var widthsBySpeed: Bool {
    get { app.drawView.options.widthMode == .bySpeed }
    set { app.drawView.options.widthMode = newValue ? .bySpeed : .fixed }
  }

  /// The state as JSON: what `touchtracker replay` reports, plus what the toolbar shows.
  var stateJSON: [UInt8] {
    var json = JSONObjectWriter()
    app.state.write(to: &json)
    json.number("lines", Double(app.drawing.lines.count))
    json.number("circles", Double(app.drawing.circles.count))
    json.bool("canUndo", app.drawView.canUndo)
    json.bool("canRedo", app.drawView.canRedo)
    json.bool("colorsByAngle", colorsByAngle)
    json.bool("widthsBySpeed", widthsBySpeed)
    json.number("changeCount", Double(changeCount))
    json.number("touchesDown", Double(down.count))
    json.number("ignoredInput", Double(ignoredInputCount))
    json.string("lastError", lastError)
    return json.finish()
  }
}
