/// A control with a title that people tap.
open class Button: Control {
  /// The text drawn at the button's center (or beside ``swatchColor``).
  public var title: String {
    didSet { setNeedsDisplay() }
  }
  /// The title's color while the button is enabled; white by default. A
  /// disabled button draws its title in `Color.gray`.
  public var titleColor = Color.white
  /// The title's font size, in points; 17 by default.
  public var fontSize = 17.0
  /// A small colored mark drawn left of the title (the palette's swatch).
  public var swatchColor: Color?
  /// The button's rounded face; the view's `backgroundColor` stays nil so the
  /// corners show what is behind.
  public var fillColor = Color.darkGray
  /// The face's color while the button is highlighted (a tracked finger is
  /// inside it); black by default.
  public var highlightedFillColor = Color.black

  /// A button showing `title`: a dark gray face with corners rounded by 8
  /// points and a white 17-point title.
  public init(title: String, frame: Rect = .zero) {
    self.title = title
    super.init(frame: frame)
    cornerRadius = 8
  }

  open override var inspectorName: String { "Button '\(title)'" }

  open override func draw(in context: inout RenderContext) {
    let fill = isHighlighted ? highlightedFillColor : fillColor
    context.fill(bounds, color: fill, cornerRadius: cornerRadius)
    var textCenter = bounds.center
    if let swatchColor {
      let side = min(bounds.height - 16, 18)
      context.fill(
        Rect(x: 10, y: (bounds.height - side) / 2, width: side, height: side), color: swatchColor, cornerRadius: 4)
      textCenter.x += (side + 6) / 2
    }
    context.drawText(title, center: textCenter, size: fontSize, color: isEnabled ? titleColor : .gray)
  }
}
