/// The color palette a three-finger swipe up opens: one button a choice.
public final class PaletteView: View {
  /// The choices, in order: a title and the color (nil: colors by angle).
  public static let choices: [(title: String, color: Color?)] = [
    ("Black", .black), ("Red", .red), ("Green", .green), ("Blue", .blue), ("Orange", .orange), ("Purple", .purple),
    ("By Angle", nil),
  ]

  public let buttons: [Button]

  init(target: Responder) {
    var buttons: [Button] = []
    let width = 148.0
    let height = 44.0
    for (index, choice) in PaletteView.choices.enumerated() {
      let button = Button(
        title: choice.title, frame: Rect(x: 12, y: 12 + Double(index) * (height + 8), width: width, height: height))
      button.swatchColor = choice.color ?? DrawingOptions.hueColor(angle: 1)
      button.addTarget(target, action: .chooseColor, for: .touchUpInside)
      buttons.append(button)
    }
    self.buttons = buttons
    let count = Double(buttons.count)
    super.init(frame: Rect(x: 0, y: 0, width: width + 24, height: 12 + count * (height + 8) + 4))
    backgroundColor = Color(rgb: 0x2a2a2a)
    cornerRadius = 14
    for button in buttons { addSubview(button) }
  }
}

extension Action {
  static let chooseColor = Action("chooseColor:")
  static let showPalette = Action("showPalette:")
}
