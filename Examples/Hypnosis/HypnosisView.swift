/// The book's Hypnosister: concentric circles filling the view. A pinch
/// spreads or packs the rings, and the view's color comes from whoever sets
/// `circleColor` (here a button, by target-action).
public final class HypnosisView: View {
  /// The color of every ring.
  public var circleColor = Color.lightGray {
    didSet { setNeedsDisplay() }
  }
  /// Points between one ring and the next.
  public private(set) var ringSpacing = 20.0
  /// The narrowest and widest spacing a pinch reaches.
  public static let spacingRange = 5.0...80.0

  private var spacingAtPinchStart = 20.0
  private let pinch = PinchGestureRecognizer()

  public override init(frame: Rect) {
    super.init(frame: frame)
    backgroundColor = .white
    isMultipleTouchEnabled = true
    pinch.name = "pinch"
    pinch.addTarget(self, action: HypnosisView.pinched)
    addGestureRecognizer(pinch)
  }

  static let pinched = Action("pinched:")

  public override func perform(_ action: Action, withSender sender: AnyObject?) {
    guard action == HypnosisView.pinched else { return super.perform(action, withSender: sender) }
    switch pinch.state {
    case .began:
      spacingAtPinchStart = ringSpacing
      fallthrough
    case .changed:
      ringSpacing = min(
        max(spacingAtPinchStart * pinch.scale, Self.spacingRange.lowerBound), Self.spacingRange.upperBound)
      setNeedsDisplay()
    default:
      break
    }
  }

  public override func canPerformAction(_ action: Action, withSender sender: AnyObject?) -> Bool {
    action == HypnosisView.pinched || super.canPerformAction(action, withSender: sender)
  }

  /// How many rings fit between the center and the farthest corner.
  public var ringCount: Int {
    let half = Point(x: bounds.width / 2, y: bounds.height / 2)
    return Int((half.x * half.x + half.y * half.y).squareRoot() / ringSpacing)
  }

  public override func draw(in context: inout RenderContext) {
    let center = bounds.center
    for ring in stride(from: 1, through: ringCount, by: 1) {
      context.strokeCircle(center: center, radius: Double(ring) * ringSpacing, color: circleColor, width: 10)
    }
  }
}
