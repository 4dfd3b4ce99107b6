/// A control with a title that people tap.
open class Button: Control {
  public var title: String {
    didSet { setNeedsDisplay() }
  }
  public var titleColor = Color.white
  public var fontSize = 17.0
  /// A small colored mark drawn left of the title (the palette's swatch).
  public var swatchColor: Color?
  /// The button's rounded face; the view's `backgroundColor` stays nil so the
  /// corners show what is behind.
  public var fillColor = Color.darkGray
  public var highlightedFillColor = Color.black

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
