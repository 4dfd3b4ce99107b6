/// Owns the draw view and the palette: a three-finger swipe up opens the
/// palette, a choice sets the color of the lines drawn from then on.
public final class DrawViewController: ViewController {
  public private(set) var palette: PaletteView?
  let swipeRecognizer = SwipeGestureRecognizer()

  public override init() {
    super.init()
  }

  public var drawView: DrawView { view as! DrawView }

  public override var inspectorName: String { "DrawViewController" }

  public override func loadView() -> View { DrawView(frame: .zero) }

  public override func viewDidLoad() {
    swipeRecognizer.name = "three-finger swipe"
    swipeRecognizer.direction = .up
    swipeRecognizer.numberOfTouchesRequired = 3
    // Hold the fingers back until the swipe fails, so the three fingers of a
    // swipe never flash as red lines (they did for 1-4 frames). A finger
    // drawing alone fails it after 10 points, where the tap recognizers let
    // go of it too, so lines start no later than before.
    swipeRecognizer.delaysTouchesBegan = true
    swipeRecognizer.maximumMovementWithFewerTouches = 10
    swipeRecognizer.addTarget(self, action: .showPalette)
    view.addGestureRecognizer(swipeRecognizer)
    drawView.updateAllowedTouchTypes()
  }

  public var isPaletteVisible: Bool { palette != nil }

  public func showPalette() {
    guard palette == nil, let window = view.window else { return }
    // A selected shape stays selected: a color chosen now recolors it.
    drawView.finishHeldMove()
    drawView.application?.menuController.hideMenu()
    let palette = PaletteView(
      target: self, chosen: PaletteView.title(for: drawView.options.colorMode),
      room: window.safeAreaFrame.size)
    window.addSubview(palette)
    self.palette = palette
    centerPalette()
  }

  /// Puts the palette in the middle of the window's safe area, clear of the
  /// host's controls (again after a resize, laid out anew if its columns no
  /// longer fit). With `onlyIfCovered`, a palette still inside the safe
  /// area stays where it is: a message appearing at the bottom must not move
  /// the button a finger is about to tap.
  func centerPalette(onlyIfCovered: Bool = false) {
    guard var palette, let window = view.window else { return }
    let area = window.safeAreaFrame
    let frame = palette.frame
    let inside =
      frame.minX >= area.minX && frame.maxX <= area.maxX && frame.minY >= area.minY && frame.maxY <= area.maxY
    if onlyIfCovered && inside { return }
    let fitting = PaletteView(
      target: self, chosen: PaletteView.title(for: drawView.options.colorMode), room: area.size)
    if fitting.frame.size != palette.frame.size {
      palette.removeFromSuperview()
      window.addSubview(fitting)
      self.palette = fitting
      palette = fitting
    }
    palette.frame.origin = Point(
      x: max(area.minX, area.minX + (area.width - palette.frame.width) / 2),
      y: max(area.minY, area.minY + (area.height - palette.frame.height) / 2))
  }

  /// As the menu: a touch that begins anywhere but on the palette closes it.
  public override func windowTouchBegan(in view: View) {
    if let palette, view.isDescendant(of: palette) { return }
    drawView.windowTouchBegan()
    guard palette != nil else { return }
    hidePalette()
  }

  public func hidePalette() {
    palette?.removeFromSuperview()
    palette = nil
  }

  public override func canPerformAction(_ action: Action, withSender sender: AnyObject?) -> Bool {
    action == .showPalette || action == .chooseColor
  }

  public override func perform(_ action: Action, withSender sender: AnyObject?) {
    switch action {
    case .showPalette:
      showPalette()
    case .chooseColor:
      guard let button = sender as? Button,
        let index = PaletteView.choices.firstIndex(where: { $0.title == button.title })
      else { return }
      chooseColor(at: index)
    default:
      break
    }
  }

  /// Takes the palette's choice at `index` (in `PaletteView.choices`) and
  /// closes the palette: what a tap on its button does, for the keyboard.
  /// With a line or circle selected, the choice recolors it (an undoable
  /// change); else new lines take it. False, changing nothing, for an index
  /// out of range.
  @discardableResult
  public func chooseColor(at index: Int) -> Bool {
    guard PaletteView.choices.indices.contains(index) else { return false }
    let mode: DrawingOptions.ColorMode = PaletteView.choices[index].color.map { .fixed($0) } ?? .byAngle
    if !drawView.recolorSelection(mode) { drawView.options.colorMode = mode }
    hidePalette()
    return true
  }
}
