/// How new lines get their color and width. Only lines finished after a
/// change are affected; every finished line keeps its own style.
public struct DrawingOptions: Hashable, Sendable {
  public enum ColorMode: Hashable, Sendable {
    /// Every new line gets this color.
    case fixed(Color)
    /// The angle of the finished line picks its color from a hue wheel.
    case byAngle
  }

  public enum WidthMode: Hashable, Sendable {
    case fixed
    /// The finger's average speed while drawing sets the width: slow is thin, fast is thick.
    case bySpeed
  }

  public var colorMode = ColorMode.fixed(.black) {
    didSet { if case .fixed(let color) = colorMode { chosenColor = color } }
  }
  /// The last fixed color chosen. It outlives "by angle": turning colors by
  /// angle off goes back to it (it used to go back to black, losing the
  /// palette's choice).
  public private(set) var chosenColor = Color.black
  public var widthMode = WidthMode.fixed
  public var lineWidth = 10.0
  /// Palm rejection: while a pen is in use (`DrawView.isPenInUse(at:)`),
  /// fingers do not draw; they still tap, select and move lines. On by
  /// default: it changes nothing until a pen touches the screen.
  public var penOnlyDraws = true

  public init(colorMode: ColorMode = .fixed(.black), widthMode: WidthMode = .fixed) {
    self.colorMode = colorMode
    self.widthMode = widthMode
    if case .fixed(let color) = colorMode { chosenColor = color }
  }

  /// Colors by angle on, or off back to the chosen color.
  public var colorsByAngle: Bool {
    get { colorMode == .byAngle }
    set { colorMode = newValue ? .byAngle : .fixed(chosenColor) }
  }

  /// The width for a line drawn at `speed` points per second.
  public func width(forSpeed speed: Double) -> Double {
    switch widthMode {
    case .fixed: lineWidth
    case .bySpeed: max(2, min(40, 2 + speed / 60))
    }
  }

  /// The width of a pen's line pressed with `force` (UIKit's: 1.0 an
  /// average press, so the page's pressure 0.5): the standard width times
  /// the force, from 1 to 40 points. A light press (0.2) draws 2 points, an
  /// average one 10, the browser's full pressure (force 2) 20. It applies
  /// whatever the width mode: a pen's pressure is its own width.
  public func width(forPenForce force: Double) -> Double {
    max(1, min(40, lineWidth * force))
  }

  /// The color for a finished line with this geometry.
  public func color(for segment: Segment) -> Color {
    switch colorMode {
    case .fixed(let color): color
    case .byAngle: DrawingOptions.hueColor(angle: segment.angle)
    }
  }

  /// A fully saturated color whose hue is `angle` (radians) around the wheel.
  static func hueColor(angle: Double) -> Color {
    let turns = angle / (2 * Double.pi)
    let h = (turns - Double(Int(turns))) * 6
    let sector = Int(h) % 6
    let f = h - Double(Int(h))
    let v = 0.85
    let p = 0.0
    let q = v * (1 - f)
    let t = v * f
    let (r, g, b): (Double, Double, Double)
    switch sector {
    case 0: (r, g, b) = (v, t, p)
    case 1: (r, g, b) = (q, v, p)
    case 2: (r, g, b) = (p, v, t)
    case 3: (r, g, b) = (p, q, v)
    case 4: (r, g, b) = (t, p, v)
    default: (r, g, b) = (v, p, q)
    }
    return Color(red: UInt8(r * 255 + 0.5), green: UInt8(g * 255 + 0.5), blue: UInt8(b * 255 + 0.5))
  }
}
