/// Pan and zoom over a drawing larger than the window, as plain
/// view geometry from the UIKit-fidelity work: the draw view's
/// `bounds.origin` is the drawing's point at its top-left corner and its
/// `transform` scales the drawing about its center, so its frame still
/// fills the window. Touches, recognizers' locations, the menu and the live
/// layer follow through `convert`; the page's tiled static layer is mapped
/// by `transformToWindow`. Without pan or zoom (the default, and every
/// replay that does not pan) every coordinate is what it always was.
///
/// Why not a `ScrollView` holding the draw view: its drag would take the
/// one-finger lines, its pinch every two-finger circle, and its content
/// has an edge; the drawing has none (the document format's limit aside).
/// `CanvasGestureRecognizer` decides between a circle and a pan instead.
/// Which rules two fingers follow. `.book`: only two that land in one event
/// draw a circle, and nothing pans (replays of traces written before pan
/// and zoom, version 1, so they end in the drawing they always did).
/// `.panAndZoom` (the page, and traces it records, version 2): a second
/// finger within the landing window makes a circle too, and two fingers
/// moving together pan and zoom (`CanvasGestureRecognizer`).
public enum TwoFingerRules: Sendable {
  case book, panAndZoom
}

extension DrawView {
  /// How far the drawing can be zoomed out and in.
  public static let zoomRange = 0.1...8.0
  /// Space kept around the drawing by "Fit" and in exports, in points.
  public static let fitMargin = 20.0

  /// 1 when a point of the drawing is a point on screen.
  public var zoomScale: Double { transform.a }

  /// The drawing's point shown at the view's top-left corner.
  public var contentOffset: Point { bounds.origin }

  /// Shows the drawing from `offset` (its point at the view's top-left
  /// corner) at `zoom` (clamped to `zoomRange`; the offset to the document
  /// format's limit). False, changing nothing, for a value that is not finite.
  @discardableResult
  public func setViewport(offset: Point, zoom: Double) -> Bool {
    guard offset.x.isFinite, offset.y.isFinite, zoom.isFinite, zoom > 0 else { return false }
    let zoom = min(max(zoom, DrawView.zoomRange.lowerBound), DrawView.zoomRange.upperBound)
    let offset = DrawingLimits.clamp(offset)
    guard zoom != zoomScale || offset != bounds.origin else { return true }
    if zoom != zoomScale {
      let onScreen = screenFrame
      transform = zoom == 1 ? .identity : AffineTransform(scaleX: zoom, y: zoom)
      frame = onScreen
    }
    bounds.origin = offset
    restructureStaticLayer(damage: nil)
    // A tap's menu points at where the line was on screen: it goes, and the
    // selection with it, as when a touch hides it. A held line stays held.
    if !isHoldingShape, selectedLineIndex != nil || selectedCircleIndex != nil {
      clearSelection()
      application?.menuController.hideMenu()
    }
    setNeedsDisplay()
    return true
  }

  /// The view's frame as last set (a zoomed frame reads back through its
  /// transform, a rounding away from it; so would one made from its center).
  var screenFrame: Rect { Rect(origin: screenOrigin, size: screenSize) }

  /// Moves the drawing by `delta` points on screen (a wheel, a drag).
  @discardableResult
  public func pan(by delta: Point) -> Bool {
    let zoom = zoomScale
    return setViewport(offset: contentOffset - delta * (1 / zoom), zoom: zoom)
  }

  /// Zooms by `factor`, keeping the drawing's point under `point` (window
  /// coordinates) where it is.
  @discardableResult
  public func zoom(by factor: Double, about point: Point) -> Bool {
    guard factor.isFinite, factor > 0, point.x.isFinite, point.y.isFinite else { return false }
    return zoom(to: zoomScale * factor, keeping: convert(fromWindow: point), at: point)
  }

  /// Shows the drawing's point `anchor` at `point` (window coordinates) at `zoom`.
  @discardableResult
  func zoom(to scale: Double, keeping anchor: Point, at point: Point) -> Bool {
    let scale = min(max(scale, DrawView.zoomRange.lowerBound), DrawView.zoomRange.upperBound)
    let onScreen = point - screenFrame.origin
    return setViewport(offset: anchor - onScreen * (1 / scale), zoom: scale)
  }

  /// The middle of what the page's controls leave visible, in window coordinates.
  private var visibleArea: Rect {
    guard let window else { return screenFrame }
    let area = window.safeAreaFrame
    return area.width > 0 && area.height > 0 ? area : window.bounds
  }

  /// "100%": zoom 1 about the middle of the visible area.
  @discardableResult
  public func zoomToActualSize() -> Bool {
    let middle = visibleArea.center
    return zoom(to: 1, keeping: convert(fromWindow: middle), at: middle)
  }

  /// Zooms in or out a step (the `+` and `-` keys) about the middle of the visible area.
  @discardableResult
  public func zoomStep(in zoomIn: Bool) -> Bool {
    zoom(by: zoomIn ? 1.25 : 0.8, about: visibleArea.center)
  }

  /// "Fit": the whole drawing in the visible area with `fitMargin` points
  /// of the screen around it at any zoom, at 100% at most; an empty drawing
  /// goes back to where it began.
  @discardableResult
  public func zoomToFit() -> Bool {
    guard let content = drawingBounds else { return setViewport(offset: .zero, zoom: 1) }
    let area = visibleArea
    let margin = 2 * DrawView.fitMargin
    let room = Size(width: max(1, area.width - margin), height: max(1, area.height - margin))
    let scale = min(1, min(room.width / content.width, room.height / content.height))
    return zoom(to: scale, keeping: content.center, at: area.center)
  }

  /// The box around every finished line and circle as painted, or nil for
  /// an empty drawing. One pass over the lines.
  public var drawingBounds: Rect? {
    var (minX, minY, maxX, maxY) = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
    func include(_ rect: Rect) {
      (minX, minY) = (min(minX, rect.minX), min(minY, rect.minY))
      (maxX, maxY) = (max(maxX, rect.maxX), max(maxY, rect.maxY))
    }
    for line in drawing.lines { include(line.paintedBounds) }
    for circle in drawing.circles { include(circle.paintedBounds) }
    return minX <= maxX ? Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) : nil
  }

  /// What an export covers: `canvas` (the window's size at the origin, as
  /// exports always had), grown past each side the drawing crosses to hold
  /// it, with `fitMargin` beyond it. A drawing within the canvas exports as
  /// it always did.
  public func exportArea(canvas: Size) -> Rect {
    guard let content = drawingBounds else { return Rect(origin: .zero, size: canvas) }
    let margin = DrawView.fitMargin
    let minX = content.minX < 0 ? content.minX - margin : 0
    let minY = content.minY < 0 ? content.minY - margin : 0
    let maxX = content.maxX > canvas.width ? content.maxX + margin : canvas.width
    let maxY = content.maxY > canvas.height ? content.maxY + margin : canvas.height
    return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
  }

  /// Follows the two fingers of `canvasRecognizer`: the drawing's point
  /// that was between them when they landed stays between them, zoomed by
  /// how far they spread.
  func followCanvasGesture() {
    let recognizer = canvasRecognizer
    switch recognizer.state {
    case .began:
      canvasGestureStart = (convert(fromWindow: recognizer.startMidpoint), zoomScale)
      fallthrough
    case .changed:
      guard let start = canvasGestureStart else { return }
      zoom(to: start.zoom * recognizer.scale, keeping: start.anchor, at: recognizer.midpoint)
    default:
      canvasGestureStart = nil
    }
  }
}
