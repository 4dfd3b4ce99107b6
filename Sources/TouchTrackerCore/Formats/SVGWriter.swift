/// Turns a render list into a standalone SVG document: the CLI's `render`
/// and the browser's "Export SVG" both use it, so they agree to the pixel.
public enum SVGWriter {
  public static func svg(for list: RenderList, size: Size) -> String {
    svg(for: list, area: Rect(origin: .zero, size: size))
  }

  /// The SVG of `list` showing `area` (its `viewBox`).
  public static func svg(for list: RenderList, area: Rect) -> String {
    var document: [UInt8] = []
    write(list, area: area) { document.append(contentsOf: $0) }
    return String(decoding: document, as: UTF8.self)
  }

  /// How much SVG text `write` collects before handing it on.
  public static let chunkSize = 1 << 16

  /// Writes the SVG of `list` in chunks of about `chunkSize` bytes, each
  /// handed to `emit` in order: a million lines are written to a file
  /// without holding their text (`touchtracker render`).
  public static func write(_ list: RenderList, area: Rect, _ emit: ([UInt8]) -> Void) {
    var out: [UInt8] = []
    out.reserveCapacity(chunkSize + 256)
    // Static strings and no interpolation: each `String` built here cost the wasm hundreds of bytes.
    func text(_ string: StaticString) { string.withUTF8Buffer { out.append(contentsOf: $0) } }
    func number(_ value: Double) { NumberText.append(value, to: &out) }
    text("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
    number(area.width)
    text("\" height=\"")
    number(area.height)
    text("\" viewBox=\"")
    number(area.minX)
    text(" ")
    number(area.minY)
    text(" ")
    number(area.width)
    text(" ")
    number(area.height)
    text("\">\n")
    // Straight from the floats (see `RenderList`'s layout), not through
    // `commands`: decoding to values and escaping by `Character` cost the
    // wasm kilobytes, for an export the browser makes from these floats anyway.
    let f = list.floats
    func color(_ index: Int) { out.append(contentsOf: Color(rgb: UInt32(f[index])).hex.utf8) }
    var index = 0
    while index < f.count {
      let (a, b, c, d, width) = (
        Double(f[index + 1]), Double(f[index + 2]), Double(f[index + 3]), Double(f[index + 4]), Double(f[index + 5])
      )
      switch RenderCommand.Kind(rawValue: Int(f[index])) {
      case .segment:
        text("<line x1=\"")
        number(a)
        text("\" y1=\"")
        number(b)
        text("\" x2=\"")
        number(c)
        text("\" y2=\"")
        number(d)
        text("\" stroke=\"")
        color(index + 6)
        text("\" stroke-width=\"")
        number(width)
        text("\" stroke-linecap=\"round\"/>\n")
      case .circle:
        text("<circle cx=\"")
        number(a)
        text("\" cy=\"")
        number(b)
        text("\" r=\"")
        number(c)
        text("\" fill=\"none\" stroke=\"")
        color(index + 6)
        text("\" stroke-width=\"")
        number(width)
        text("\"/>\n")
      case .fill:
        text("<rect x=\"")
        number(a)
        text("\" y=\"")
        number(b)
        text("\" width=\"")
        number(c)
        text("\" height=\"")
        number(d)
        if f[index + 7] > 0 {
          text("\" rx=\"")
          number(Double(f[index + 7]))
        }
        text("\" fill=\"")
        color(index + 6)
        text("\"/>\n")
      case .text:
        text("<text x=\"")
        number(a)
        text("\" y=\"")
        number(b)
        text("\" font-size=\"")
        number(width)
        text("\" fill=\"")
        color(index + 6)
        text("\" text-anchor=\"middle\" dominant-baseline=\"central\">")
        for byte in list.textBytes[Int(c)..<Int(c) + Int(d)] { appendEscaped(byte, to: &out) }
        text("</text>\n")
      case .clip, nil:
        break  // only the page's tiled static layer clips; a document is written untiled
      }
      index += RenderList.stride
      if out.count >= chunkSize {
        emit(out)
        out.removeAll(keepingCapacity: true)
      }
    }
    text("</svg>\n")
    emit(out)
  }

  /// The finished drawing as SVG, on the app's gray background: a canvas
  /// of `size` at the origin (the window it was drawn in), grown to hold
  /// a drawing that goes past it (`DrawView.exportArea(canvas:)`), so
  /// lines drawn beyond the window after panning are in the picture.
  public static func svg(for drawing: Drawing, size: Size) -> String {
    let (list, area) = staticLayer(of: drawing, size: size)
    return svg(for: list, area: area)
  }

  #if !hasFeature(Embedded)
    /// The same SVG as `svg(for:size:)`, in chunks (see `write(_:area:_:)`).
    public static func write(_ drawing: Drawing, size: Size, _ emit: ([UInt8]) -> Void) {
      let (list, area) = staticLayer(of: drawing, size: size)
      write(list, area: area, emit)
    }
  #endif

  private static func staticLayer(of drawing: Drawing, size: Size) -> (RenderList, Rect) {
    let view = DrawView(frame: Rect(origin: .zero, size: size))
    view.load(drawing)
    let area = view.exportArea(canvas: size)
    // The layer's background fills the view's bounds: make them the area.
    view.frame = Rect(origin: .zero, size: area.size)
    view.bounds.origin = area.origin
    return (view.staticLayer, area)
  }

  /// One UTF-8 byte of text content, with XML's special characters escaped.
  private static func appendEscaped(_ byte: UInt8, to out: inout [UInt8]) {
    switch byte {
    case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
    case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
    case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
    case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
    default: out.append(byte)
    }
  }
}
