/// Turns a render list into a standalone SVG document: the CLI's `render`
/// and the browser's "Export SVG" both use it, so they agree to the pixel.
public enum SVGWriter {
  public static func svg(for list: RenderList, size: Size) -> String {
    var out: [UInt8] = []
    func text(_ string: String) { out.append(contentsOf: string.utf8) }
    func number(_ value: Double) { JSONNumber.append(value, to: &out) }
    text("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
    number(size.width)
    text("\" height=\"")
    number(size.height)
    text("\" viewBox=\"0 0 ")
    number(size.width)
    text(" ")
    number(size.height)
    text("\">\n")
    for command in list.commands {
      switch command {
      case .segment(let a, let b, let color, let width):
        text("<line x1=\"")
        number(a.x)
        text("\" y1=\"")
        number(a.y)
        text("\" x2=\"")
        number(b.x)
        text("\" y2=\"")
        number(b.y)
        text("\" stroke=\"\(color.hex)\" stroke-width=\"")
        number(width)
        text("\" stroke-linecap=\"round\"/>\n")
      case .circle(let center, let radius, let color, let width):
        text("<circle cx=\"")
        number(center.x)
        text("\" cy=\"")
        number(center.y)
        text("\" r=\"")
        number(radius)
        text("\" fill=\"none\" stroke=\"\(color.hex)\" stroke-width=\"")
        number(width)
        text("\"/>\n")
      case .fill(let rect, let color, let cornerRadius):
        text("<rect x=\"")
        number(rect.minX)
        text("\" y=\"")
        number(rect.minY)
        text("\" width=\"")
        number(rect.width)
        text("\" height=\"")
        number(rect.height)
        if cornerRadius > 0 {
          text("\" rx=\"")
          number(cornerRadius)
        }
        text("\" fill=\"\(color.hex)\"/>\n")
      case .clip:
        break  // only the page's tiled static layer clips; a document is written untiled
      case .text(let string, let center, let size, let color):
        text("<text x=\"")
        number(center.x)
        text("\" y=\"")
        number(center.y)
        text("\" font-size=\"")
        number(size)
        text("\" fill=\"\(color.hex)\" text-anchor=\"middle\" dominant-baseline=\"central\">")
        text(escaped(string))
        text("</text>\n")
      }
    }
    text("</svg>\n")
    return String(decoding: out, as: UTF8.self)
  }

  /// The finished drawing as SVG, on the app's gray background.
  public static func svg(for drawing: Drawing, size: Size) -> String {
    let view = DrawView(frame: Rect(origin: .zero, size: size))
    view.load(drawing)
    return svg(for: view.staticLayer, size: size)
  }

  private static func escaped(_ string: String) -> String {
    var result = ""
    for character in string {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      default: result.append(character)
      }
    }
    return result
  }
}
