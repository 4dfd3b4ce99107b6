/// The app as the browser page drives it: touches queued per animation frame,
/// a clock fed from event timestamps, and the buffers the page reads.
///
/// Nothing here is wasm-specific, so it builds natively and is tested with
/// the manual clock (`PageHostTests`); `Wasm/` holds only the exported
/// shims that forward to the one `PageHost` of the page.
///
/// Everything the page sends is checked here first. A browser can lose a
/// `pointerup`, report a finger twice in one frame or hand over NaN; none of
/// that may trap or make the core refuse a whole event with other fingers in it.
final class PageHost {
  /// The app the page shows: its own, or a recording's while it plays back.
  private(set) var app: TouchTrackerApp
  /// The page's fingers, queued a frame at a time and delivered as events.
  private var feed = TouchFeed()
  /// How far the touches' times trail the frames' (`tick(at:)`).
  private var inputLag = InputLag()
  /// Samples the page reported for its next `report` (`PageHost+Samples.swift`).
  var samples = PageSamples()

  /// Counts finished changes (add, delete, move, clear, undo, redo): the page saves when it moves.
  private(set) var changeCount = 0
  /// What the server has of this person's changes and what goes next (`PageHost+Sync.swift`).
  var sync = SyncClient(client: "00000000")
  /// Counts input the page sent that was ignored; `lastError` says why.
  private(set) var ignoredInputCount = 0
  private(set) var lastError = ""

  private var staticLayerSerial = 0
  private var staticLayerKey = (version: -1, size: Size.zero)
  /// The drawing version and size of the static layer the page last painted.
  private var paintedVersion = -1
  private var paintedSize = Size.zero
  /// How the page applies the static buffers to what it painted.
  private(set) var staticMode = StaticMode.whole

  /// `tt_static_mode`'s answer: how to apply the last `tt_render_static`.
  enum StaticMode: Int32, CaseIterable {
    /// Clear the cached layer and paint the list.
    case whole = 0
    /// Paint the list (new lines, tile by tile) over the cached layer.
    case append = 1
    /// Paint the list over the cached layer: tiles painted again.
    case repaint = 2
    /// Paint every tile, over what the cache shows: the list is the first
    /// tile; `renderStaticPart` hands out the others one by one.
    case wholeInParts = 3

    /// The name the page uses (`STATIC` in Web/core/bridge.js).
    var name: String {
      switch self {
      case .whole: "whole"
      case .append: "append"
      case .repaint: "repaint"
      case .wholeInParts: "wholeInParts"
      }
    }
  }

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
  /// The diagnostic records since the page last took them, one JSON object
  /// a line, while the inspector is on (`tt_inspect`); empty otherwise.
  private var records: [UInt8] = []
  /// Records not kept because the page had not taken the earlier ones.
  private(set) var droppedRecords = 0
  /// The most bytes of records kept between two takes (a page in the
  /// background stops taking them; the inspector does not need them all).
  static let maximumRecordBytes = 1 << 22

  /// The session being recorded (`startRecording()`), nil when not recording.
  var recording: Trace?
  /// The recording that plays instead of the page's own input, if any.
  var player: TracePlayer?

  init(size: Size) {
    app = TouchTrackerApp(size: size)
    app.drawView.model.publishesChanges = true
    attach()
  }

  private func attach() {
    app.drawView.onChange = { [unowned(unsafe) self] _ in self.changeCount += 1 }
    feed.onDeliver = { [unowned(unsafe) self] inputs, time in self.record(.touches(inputs), at: time) }
  }

  /// Shows `newApp` instead (a recording's playback): the page paints it
  /// whole and the inspector, if on, follows it.
  func adopt(_ newApp: TouchTrackerApp) {
    let inspecting = isInspecting
    isInspecting = false
    app.drawView.onChange = nil
    app = newApp
    attach()
    isInspecting = inspecting
    feed.removeAll()
    paintedVersion = -1
    paintedSize = .zero
    wholeParts = nil
    staticLayerKey = (version: -1, size: .zero)
  }

  /// The app outlives this body by a moment (it goes with the stored
  /// properties) and cancels its fingers then; that must not call back here.
  deinit {
    app.drawView.onChange = nil
    app.application.observer = nil
    staticFloats.deallocate()
    staticText.deallocate()
    liveFloats.deallocate()
    liveText.deallocate()
    probe.deallocate()
    input.deallocate()
    output.deallocate()
  }

  // MARK: Inspector

  /// Whether the application reports its diagnostic records.
  /// Off, no observer is set: the touch path allocates nothing for it.
  var isInspecting: Bool {
    get { app.application.observer != nil }
    set {
      records.removeAll()
      droppedRecords = 0
      guard newValue else {
        app.application.observer = nil
        return
      }
      app.application.observer = { [unowned(unsafe) self] time, record in
        guard self.records.count < PageHost.maximumRecordBytes else {
          self.droppedRecords += 1
          return
        }
        self.records.append(contentsOf: record.json(time: time))
        self.records.append(0x0A)
      }
    }
  }

  /// Moves the records since the last call into `output` (JSON lines) and
  /// returns their length: 0 when there are none, -1 when memory ran out.
  func takeRecords() -> Int {
    guard !records.isEmpty else { return 0 }
    let length = setOutput(records)
    records.removeAll(keepingCapacity: true)
    return length
  }

  // MARK: Touches and time

  /// What became of one finger's report (`tt_touch`'s result; `STATUS` in
  /// Web/core/bridge.js); the page stops tracking a pointer the core says is not down.
  typealias TouchStatus = TouchFeed.Status

  /// Queues one finger's change for the next `commit(at:)`, with what its
  /// hardware reports (`PageHost.hardware(...)` reads the page's numbers)
  /// and the samples `addSample` collected for it since its last report.
  func report(
    id: Int, phaseCode: Int32, location: Point, time: Double, type: TouchType = .direct,
    hardware: TouchHardware = .unknown
  ) -> TouchStatus {
    var samples = takeSamples(for: id)
    guard player == nil else { return ignore(.refused, "A recording is playing") }
    // At the trace format's resolution, so a recording replays exactly.
    let time = Trace.quantized(time)
    samples.fit(to: hardware.maximumPossibleForce, before: time)
    if time.isFinite { inputLag.noteInput(at: time) }
    let status = feed.report(
      id: id, phaseCode: phaseCode, location: Point(x: Trace.quantized(location.x), y: Trace.quantized(location.y)),
      time: time, type: type, hardware: hardware, coalesced: samples.coalesced, predicted: samples.predicted,
      to: app.application)
    return status == .queued ? .queued : ignore(status, feed.lastError)
  }

  /// Delivers the queued touches as one event, at the latest of `time`, the
  /// queued touches' timestamps and the clock (time never goes back).
  /// Returns `.queued` when delivered (or nothing was queued), `.refused` when
  /// the application refused the event.
  @discardableResult
  func commit(at time: Double) -> TouchStatus {
    let status = feed.commit(at: Trace.quantized(time), to: app.application)
    return status == .queued ? .queued : ignore(status, feed.lastError)
  }

  /// Advances the clock (fires the double-tap timeout, the long press) to
  /// a frame's time less the input's lag (`InputLag`), never back.
  func tick(at time: Double) {
    guard time.isFinite, player == nil else { return }
    let lagging = Trace.quantized(time - inputLag.lag(atFrame: time))
    app.advanceClock(to: max(app.clock.now, lagging))
  }

  /// The page lost its input (hidden, blurred): every finger is cancelled.
  func cancelAll(at time: Double) {
    guard player == nil else { return }
    commit(at: time)
    perform(.cancelTouches, at: time)
    feed.removeAll()
  }

  /// Applies a command of the page's (undo, a color, a resize, ...) as a
  /// replay would (`Replay.apply`), recording it when a recording runs.
  /// At the clock's time, or `time` if later. Ignored while a recording plays.
  func perform(_ input: TraceEvent.Input, at time: Double = -.infinity) {
    guard player == nil else { return }
    let event = TraceEvent(
      time: time.isFinite ? max(app.clock.now, Trace.quantized(time)) : app.clock.now, input: input)
    record(input, at: event.time)
    // Only touches and taps can be refused, and the page sends neither through here.
    try? Replay.apply(event, at: 0, to: app)
  }

  @discardableResult
  func ignore(_ status: TouchStatus, _ message: String) -> TouchStatus {
    ignoredInputCount += 1
    lastError = message
    return status
  }

  /// Whether the page's finger `id` is drawing a line, and where its end is,
  /// so the page can draw the predicted end ahead of the finger.
  func probeLine(forTouch id: Int) -> Bool {
    guard let location = feed.lastLocation(ofTouch: id) else { return false }
    let point = app.drawView.convert(fromWindow: location)
    guard let progress = app.drawView.linesInProgress.first(where: { $0.line.end == point }) else { return false }
    let line = progress.line
    let end = app.drawView.convert(toWindow: line.end)
    let width = line.width * app.drawView.zoomScale
    probe.replace(with: [Float(end.x), Float(end.y), Float(width), Float(line.color.rgb)])
    return true
  }

  // MARK: Rendering

  /// A number that changes whenever the static layer's content or size
  /// changed since the last call: the page repaints its cache when it moves.
  /// (A method, not a property: asking is what notes the current layer.)
  func staticLayerVersion() -> Int {
    let key = (version: app.drawView.drawingVersion, size: app.drawView.screenSize)
    if key.version != staticLayerKey.version || key.size != staticLayerKey.size {
      staticLayerKey = key
      staticLayerSerial += 1
    }
    return staticLayerSerial
  }

  /// The page's cached static layer shows `staticLayerVersion` `serial`
  /// whole (every section of its repaint copied in).
  func staticLayerPainted(serial: Int) {
    if serial == staticLayerSerial { app.drawView.staticLayerPainted(version: staticLayerKey.version) }
  }

  /// Copies what the page must paint to bring its cached static layer up to
  /// date into `staticFloats`/`staticText`, and says how in `staticMode`;
  /// returns the command count. `whole` (the page cleared its copy) or a new
  /// size repaints everything; otherwise only new lines, or only the
  /// rectangle a change touched (`DrawView.staticLayerUpdate(since:)`).
  /// Everything, for a drawing of more than `wholeInPartsAbove` shapes, is
  /// handed out a tile at a time: this gives the first (`renderStaticPart`).
  func renderStaticLayer(whole: Bool) -> Int {
    let view = app.drawView
    let plan = whole || paintedSize != view.screenSize ? .whole : view.staticLayerPlan(since: paintedVersion)
    paintedVersion = view.drawingVersion
    paintedSize = view.screenSize
    var sections: [TileSection]
    var first: Int?
    switch plan {
    case .whole where Double(view.drawing.lines.count + view.drawing.circles.count) > wholeInPartsAbove:
      wholeParts = StaticLayerParts(source: view.staticLayerSource, rows: view.tileGrid.rows)
      staticMode = .wholeInParts
      return max(renderStaticPart(), 0)
    case .whole:
      wholeParts = nil
      (staticMode, sections) = (.whole, view.wholeSections(view.allTiles))
    case .append(let from, let appended):
      (staticMode, sections, first) = (.append, appended, from)
    case .repaint(_, let damaged):
      (staticMode, sections) = (.repaint, damaged)
    }
    return hand(view.staticLayer(sections: sections, onlyLinesFrom: first))
  }

  /// The whole layer being handed out a tile at a time, if one is.
  private var wholeParts: StaticLayerParts?
  /// A whole layer of more shapes (lines and circles) than this is handed
  /// out a tile at a time (`tt_static_parts_above`): building 100,000 lines'
  /// list at once blocks the page for ~50–100 ms, a million's for ~450 ms;
  /// in parts, the lines are sorted into tiles once, a number at a time, and
  /// each tile's list is built from its own lines (~1 ms at 100,000).
  var wholeInPartsAbove = 20_000.0

  /// Lines sorted into tiles by one `renderStaticPart` call (~0.5 ms in the
  /// wasm, ~4 ms the first time; twice that while the tile painters take
  /// both cores of a small machine, so a frame that calls it twice stays short).
  var linesSortedPerPart = 10_000

  /// The next tile of the whole layer under way (`StaticMode.wholeInParts`)
  /// into the static buffers: its section, a clip, the background, and every
  /// shape that meets it as the drawing was when the layer began. Returns
  /// its command count; -1 while the lines are still being sorted into
  /// tiles (`linesSortedPerPart` a call: call again); 0 after the last tile.
  func renderStaticPart() -> Int {
    guard let parts = wholeParts else { return 0 }
    guard parts.sort(linesSortedPerPart) else { return -1 }
    guard let list = parts.nextTile() else {
      wholeParts = nil
      return 0
    }
    return hand(list)
  }

  private func hand(_ list: RenderList) -> Int {
    guard staticFloats.replace(with: list.floats), staticText.replace(with: list.textBytes) else { return 0 }
    return list.count
  }

  /// Copies the live layer into `liveFloats`/`liveText`; returns its command count.
  func renderLiveLayer() -> Int {
    let list = app.renderLiveLayer()
    guard liveFloats.replace(with: list.floats), liveText.replace(with: list.textBytes) else { return 0 }
    return list.count
  }

  // MARK: Settings and state

  var colorsByAngle: Bool {
    get { app.drawView.options.colorsByAngle }
    set { changeOptions { options in options.colorsByAngle = newValue } }
  }

  /// What the page's own controls cover (toolbar, messages). Refused unless
  /// every inset is finite and not negative; each is capped at the window's side.
  func setSafeArea(_ insets: EdgeInsets) {
    let values = [insets.top, insets.left, insets.bottom, insets.right]
    guard values.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
      ignoredInputCount += 1
      lastError = "Safe area insets must be finite and not negative"
      return
    }
    func side(_ value: Double) -> Double { Trace.quantized(min(value, PageInterface.maximumCanvasSide)) }
    let insets = EdgeInsets(
      top: side(insets.top), left: side(insets.left), bottom: side(insets.bottom), right: side(insets.right))
    guard insets != app.application.window.safeAreaInsets else { return }
    perform(.safeArea(insets))
  }

  var widthsBySpeed: Bool {
    get { app.drawView.options.widthMode == .bySpeed }
    set { changeOptions { options in options.widthMode = newValue ? .bySpeed : .fixed } }
  }

  /// Changes the options as a page command does (recorded, as a replay applies it).
  private func changeOptions(_ change: (inout DrawingOptions) -> Void) {
    var options = app.drawView.options
    change(&options)
    perform(.options(options))
  }

  /// Palm rejection (`DrawingOptions.penOnlyDraws`).
  var penOnlyDraws: Bool {
    get { app.drawView.options.penOnlyDraws }
    set { changeOptions { options in options.penOnlyDraws = newValue } }
  }

  /// The state as JSON: what `touchtracker replay` reports, plus what the toolbar shows.
  var stateJSON: [UInt8] {
    var json = JSONObjectWriter()
    app.state.write(to: &json)
    json.number("lines", Double(app.drawing.lines.count))
    json.number("circles", Double(app.drawing.circles.count))
    json.bool("canUndo", app.drawView.model.canUndo)
    json.bool("canRedo", app.drawView.model.canRedo)
    json.bool("colorsByAngle", colorsByAngle)
    json.bool("widthsBySpeed", widthsBySpeed)
    json.bool("penOnlyDraws", penOnlyDraws)
    json.number("changeCount", Double(changeCount))
    json.number("touchesDown", Double(feed.touchesDown))
    json.number("ignoredInput", Double(ignoredInputCount))
    json.string("lastError", lastError)
    if let palette = app.controller.palette { json.json("palette", Self.paletteJSON(palette)) }
    return json.finish()
  }

  /// The open palette's buttons in window coordinates: where the page lays
  /// the real buttons that screen readers and the keyboard reach, over the
  /// ones drawn on the canvas (`Web/ui/palette-choices.js`).
  private static func paletteJSON(_ palette: PaletteView) -> [UInt8] {
    var list: [UInt8] = [UInt8(ascii: "[")]
    for (index, button) in palette.buttons.enumerated() {
      if index > 0 { list.append(UInt8(ascii: ",")) }
      var json = JSONObjectWriter()
      json.string("title", button.title)
      json.number("x", palette.frame.minX + button.frame.minX)
      json.number("y", palette.frame.minY + button.frame.minY)
      json.number("width", button.frame.width)
      json.number("height", button.frame.height)
      json.bool("chosen", index == palette.chosenIndex)
      list += json.finish()
    }
    list.append(UInt8(ascii: "]"))
    return list
  }
}
