/// TouchTracker assembled: an application whose window shows a draw view
/// controller. Hosts (the CLI, the browser, tests) talk to this.
public final class TouchTrackerApp {
  public let application: Application
  public let controller: DrawViewController
  private var nextSyntheticTouchID = -1_000_000

  public init(size: Size = Size(width: 800, height: 600), options: DrawingOptions = DrawingOptions()) {
    application = Application(windowSize: size)
    controller = DrawViewController()
    application.window.rootViewController = controller
    controller.drawView.options = options
    controller.drawView.becomeFirstResponder()
  }

  /// A finger still down holds its view, and the view's recognizers hold its
  /// record, which lists them: cancelling what is down breaks those cycles, so an app that is
  /// let go (the page's `tt_init` starting over) is freed with its views.
  deinit {
    application.cancelAllTouches(at: application.clock.now)
  }

  public var drawView: DrawView { controller.drawView }
  public var drawing: Drawing { drawView.drawing }
  public var clock: Clock { application.clock }

  public func send(_ touches: [TouchInput], at time: Double) throws(TouchInputError) {
    try application.send(touches, at: time)
  }

  public func advanceClock(to time: Double) {
    application.advanceClock(to: time)
  }

  /// Runs the clock on until no timer is pending (a trace's end).
  public func settle() {
    while let next = application.clock.nextFireTime {
      application.advanceClock(to: next)
    }
  }

  /// Taps the visible button (menu item, palette choice) titled `title`
  /// with a synthesized touch at its center.
  public func tap(title: String, at time: Double) throws(TapError) {
    guard let button = visibleButtons.first(where: { $0.title == title }) else { throw .noVisibleControl(title) }
    let center = button.convert(toWindow: button.bounds.center)
    nextSyntheticTouchID -= 1
    let id = nextSyntheticTouchID
    do {
      try application.send([TouchInput(id: id, phase: .began, location: center)], at: time)
      try application.send([TouchInput(id: id, phase: .ended, location: center)], at: time)
    } catch {
      throw .refused(error)
    }
  }

  /// Buttons on screen right now, front-most last.
  public var visibleButtons: [Button] {
    var result: [Button] = []
    collectButtons(in: application.window, into: &result)
    return result
  }

  private func collectButtons(in view: View, into result: inout [Button]) {
    guard !view.isHidden else { return }
    if let button = view as? Button { result.append(button) }
    for subview in view.subviews { collectButtons(in: subview, into: &result) }
  }

  public func undo() { drawView.undo() }
  public func redo() { drawView.redo() }

  public var state: AppState {
    AppState(
      selectedLine: drawView.selectedLineIndex, menu: application.menuController.visibleItemTitles,
      paletteVisible: controller.isPaletteVisible, linesInProgress: drawView.linesInProgressCount,
      circlesInProgress: drawView.circlesInProgressCount, selectedCircle: drawView.selectedCircleIndex)
  }

  /// Resizes the window and the canvas (the browser window changed size).
  public func resize(to size: Size) {
    application.window.frame = Rect(origin: .zero, size: size)
    drawView.frame = Rect(origin: .zero, size: size)
    controller.centerPalette()
  }

  /// What the host's own controls cover: menus and the palette move out from under them.
  public func setSafeAreaInsets(_ insets: EdgeInsets) {
    guard application.window.safeAreaInsets != insets else { return }
    application.window.safeAreaInsets = insets
    controller.centerPalette(onlyIfCovered: true)
    application.window.setNeedsDisplay()
  }

  /// The live layer: work in progress, selection, menu, palette.
  public func renderLiveLayer() -> RenderList { application.window.render() }
}

/// What a user sees besides the drawing, as `touchtracker replay` reports it.
public struct AppState: Equatable, Sendable {
  public var selectedLine: Int?
  public var menu: [String]
  public var paletteVisible: Bool
  public var linesInProgress: Int
  public var circlesInProgress: Int
  /// The selected circle's position; written only when there is one, so
  /// the state of every drawing without a selected circle reads as before.
  public var selectedCircle: Int?

  public init(
    selectedLine: Int?, menu: [String], paletteVisible: Bool, linesInProgress: Int, circlesInProgress: Int,
    selectedCircle: Int? = nil
  ) {
    self.selectedLine = selectedLine
    self.selectedCircle = selectedCircle
    self.menu = menu
    self.paletteVisible = paletteVisible
    self.linesInProgress = linesInProgress
    self.circlesInProgress = circlesInProgress
  }
}

extension AppState {
  /// The members `touchtracker replay` reports, in the contract's order;
  /// the page's state export writes the same ones first.
  func write(to json: inout JSONObjectWriter) {
    if let selectedLine {
      json.number("selectedLine", Double(selectedLine))
    } else {
      json.null("selectedLine")
    }
    json.strings("menu", menu)
    json.bool("paletteVisible", paletteVisible)
    json.number("linesInProgress", Double(linesInProgress))
    json.number("circlesInProgress", Double(circlesInProgress))
    if let selectedCircle { json.number("selectedCircle", Double(selectedCircle)) }
  }
}

public enum TapError: Error, Equatable {
  case noVisibleControl(String)
  case refused(TouchInputError)

  public var message: String {
    switch self {
    case .noVisibleControl(let title): "No visible control titled \(QuotedToken.quoted(title))"
    case .refused(let error): error.message
    }
  }
}
