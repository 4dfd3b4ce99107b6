/// Owns the draw view and the palette: a three-finger swipe up opens the
/// palette, a choice sets the color of the lines drawn from then on.
public final class DrawViewController: ViewController {
  public private(set) var palette: PaletteView?
  let swipeRecognizer = SwipeGestureRecognizer()

  public override init() {
    super.init()
  }

  public var drawView: DrawView { view as! DrawView }

  public override func loadView() -> View { DrawView(frame: .zero) }

  public override func viewDidLoad() {
    swipeRecognizer.direction = .up
    swipeRecognizer.numberOfTouchesRequired = 3
    swipeRecognizer.addTarget(self, action: .showPalette)
    view.addGestureRecognizer(swipeRecognizer)
  }

  public var isPaletteVisible: Bool { palette != nil }

  public func showPalette() {
    guard palette == nil, let window = view.window else { return }
    drawView.deselect()
    let palette = PaletteView(target: self)
    window.addSubview(palette)
    self.palette = palette
    centerPalette()
  }

  /// Puts the palette in the middle of the window (again after a resize).
  func centerPalette() {
    guard let palette, let window = view.window else { return }
    palette.frame.origin = Point(
      x: max(0, (window.frame.width - palette.frame.width) / 2),
      y: max(0, (window.frame.height - palette.frame.height) / 2))
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
      drawView.log.write("swipe(_:)")
      showPalette()
    case .chooseColor:
      guard let button = sender as? Button,
        let choice = PaletteView.choices.first(where: { $0.title == button.title })
      else { return }
      drawView.options.colorMode = choice.color.map { .fixed($0) } ?? .byAngle
      hidePalette()
    default:
      break
    }
  }
}
