/// The color palette a three-finger swipe up opens: one button a choice.
///
/// Its colors are chosen so that no finished line can be taken for a state
/// of the app: "Red" is darker than the red of a line being drawn and "Green"
/// darker than the green of a selected line. Each swatch has a light ring so
/// dark colors show on the dark palette, the current choice is marked, and
/// "By Angle" shows the hue wheel it draws with.
public final class PaletteView: View {
  /// The choices, in order: a title and the color (nil: colors by angle).
  public static let choices: [(title: String, color: Color?)] = [
    ("Black", .black), ("Red", Color(rgb: 0xb0001e)), ("Green", Color(rgb: 0x00733a)), ("Blue", .blue),
    ("Orange", .orange), ("Purple", .purple), ("By Angle", nil),
  ]

  public let buttons: [Button]
  /// The position of the current choice in `choices`.
  public private(set) var chosenIndex: Int?

  public override var inspectorName: String { "PaletteView" }

  /// `chosen`: the title of the current choice. `room`: the space there is;
  /// the buttons go in as many columns as it takes to fit its height (a
  /// phone held sideways has room for three rows), narrower when the columns
  /// would be wider than the room.
  init(target: Responder, chosen: String, room: Size = Size(width: .infinity, height: .infinity)) {
    var buttons: [Button] = []
    let height = 44.0
    let count = PaletteView.choices.count
    let rowsThatFit = Int(max(0, min(Double(count), (room.height - 16) / (height + 8))))
    let columns = rowsThatFit >= count ? 1 : rowsThatFit >= (count + 1) / 2 ? 2 : 3
    let rows = (count + columns - 1) / columns
    let width = max(100, min(148, (room.width - 16) / Double(columns) - 8))
    for (index, choice) in PaletteView.choices.enumerated() {
      let frame = Rect(
        x: 12 + Double(index / rows) * (width + 8), y: 12 + Double(index % rows) * (height + 8),
        width: width, height: height)
      let button = PaletteButton(title: choice.title, frame: frame)
      button.swatchColor = choice.color ?? DrawingOptions.hueColor(angle: 1)
      button.showsHues = choice.color == nil
      button.isChosen = choice.title == chosen
      if button.isChosen { chosenIndex = index }
      button.addTarget(target, action: .chooseColor, for: .touchUpInside)
      buttons.append(button)
    }
    self.buttons = buttons
    super.init(
      frame: Rect(
        x: 0, y: 0, width: 16 + Double(columns) * (width + 8), height: 12 + Double(rows) * (height + 8) + 4))
    backgroundColor = Color(rgb: 0x2a2a2a)
    cornerRadius = 14
    for button in buttons { addSubview(button) }
  }

  /// The title of the choice that `mode` is.
  static func title(for mode: DrawingOptions.ColorMode) -> String {
    switch mode {
    case .byAngle: "By Angle"
    case .fixed(let color): choices.first { $0.color == color }?.title ?? ""
    }
  }
}

/// A palette choice: a ringed swatch (the hue wheel for "By Angle"), the
/// title, and a check mark and lighter face on the current choice.
final class PaletteButton: Button {
  var showsHues = false
  var isChosen = false

  override func draw(in context: inout RenderContext) {
    let face = isHighlighted ? highlightedFillColor : isChosen ? Color(rgb: 0x5a5a5a) : fillColor
    context.fill(bounds, color: face, cornerRadius: cornerRadius)
    let side = 18.0
    let swatch = Rect(x: 10, y: (bounds.height - side) / 2, width: side, height: side)
    context.fill(swatch.insetBy(dx: -2, dy: -2), color: .white, cornerRadius: 5)
    if showsHues {
      for step in 0..<6 {
        let strip = Rect(x: swatch.minX + Double(step) * 3, y: swatch.minY, width: 3, height: side)
        context.fill(strip, color: DrawingOptions.hueColor(angle: Double(step) * 1.05), cornerRadius: 0)
      }
    } else if let swatchColor {
      context.fill(swatch, color: swatchColor, cornerRadius: 4)
    }
    context.drawText(
      title, center: Point(x: bounds.center.x + 12, y: bounds.center.y), size: fontSize, color: titleColor)
    if isChosen {
      let x = bounds.maxX - 22
      let y = bounds.center.y
      context.strokeSegment(from: Point(x: x - 6, y: y), to: Point(x: x - 2, y: y + 4), color: .white, width: 2.5)
      context.strokeSegment(from: Point(x: x - 2, y: y + 4), to: Point(x: x + 6, y: y - 5), color: .white, width: 2.5)
    }
  }
}

extension Action {
  static let chooseColor = Action("chooseColor:")
  static let showPalette = Action("showPalette:")
}
