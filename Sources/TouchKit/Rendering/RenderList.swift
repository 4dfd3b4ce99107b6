/// Drawing commands for a host to paint, in painting order.
///
/// Commands are stored flat, `RenderList.stride` Float32 values each, so the
/// browser reads them straight out of WebAssembly memory without copying or
/// parsing. Colors are 24-bit integers, exact in a Float32. Text bytes
/// (UTF-8) live in `textBytes`; a text command holds their offset and length.
///
/// Layout of one command: `[kind, a, b, c, d, width, rgb, extra]`
/// - segment (1): a,b = begin; c,d = end; width = stroke width; round caps
/// - circle (2): a,b = center; c = radius; width = stroke width
/// - fill (3): a,b = origin; c,d = size; extra = corner radius
/// - text (4): a,b = center; c = byte offset; d = byte length; width = font size
/// - clip (5): a,b = origin; c,d = size: the commands after it, up to the
///   next clip, are clipped to this rectangle (the static layer's tiles)
public struct RenderList: Equatable, Sendable {
  /// The number of Float32 values in one command: 8.
  public static let stride = 8

  /// The commands, ``stride`` values each, in painting order (the layout is
  /// above).
  public private(set) var floats: [Float] = []
  /// The UTF-8 bytes of every text command's string, one after another.
  public private(set) var textBytes: [UInt8] = []

  /// An empty list.
  public init() {}

  /// The number of commands.
  public var count: Int { floats.count / RenderList.stride }
  /// Whether the list has no commands.
  public var isEmpty: Bool { floats.isEmpty }

  /// Removes every command and text byte. By default it keeps the storage,
  /// for the next frame's commands.
  public mutating func removeAll(keepingCapacity: Bool = true) {
    floats.removeAll(keepingCapacity: keepingCapacity)
    textBytes.removeAll(keepingCapacity: keepingCapacity)
  }

  /// Makes room for `commands` commands, so appending that many allocates nothing.
  public mutating func reserveCapacity(commands: Int) {
    floats.reserveCapacity(commands * RenderList.stride)
  }

  /// Adds a segment command: a line from `a` to `b`, `width` points wide,
  /// with round caps.
  public mutating func appendSegment(from a: Point, to b: Point, color: Color, width: Double) {
    append(.segment, Float(a.x), Float(a.y), Float(b.x), Float(b.y), Float(width), color, 0)
  }

  /// Adds a circle command: the outline of a circle, `width` points wide.
  public mutating func appendCircle(center: Point, radius: Double, color: Color, width: Double) {
    append(.circle, Float(center.x), Float(center.y), Float(radius), 0, Float(width), color, 0)
  }

  /// Adds a fill command: `rect` filled, its corners rounded by
  /// `cornerRadius` points.
  public mutating func appendFill(_ rect: Rect, color: Color, cornerRadius: Double = 0) {
    append(
      .fill, Float(rect.minX), Float(rect.minY), Float(rect.width), Float(rect.height), 0, color, Float(cornerRadius))
  }

  /// Clips what follows, up to the next clip, to `rect`.
  public mutating func appendClip(_ rect: Rect) {
    append(.clip, Float(rect.minX), Float(rect.minY), Float(rect.width), Float(rect.height), 0, .black, 0)
  }

  /// Adds a text command: `text`, centered on `center`, at a font size of
  /// `size` points. Its bytes go to ``textBytes``.
  public mutating func appendText(_ text: String, center: Point, size: Double, color: Color) {
    let offset = textBytes.count
    textBytes.append(contentsOf: text.utf8)
    append(
      .text, Float(center.x), Float(center.y), Float(offset), Float(textBytes.count - offset), Float(size), color, 0)
  }

  private mutating func append(
    _ kind: RenderCommand.Kind, _ a: Float, _ b: Float, _ c: Float, _ d: Float, _ width: Float, _ color: Color,
    _ extra: Float
  ) {
    floats.append(Float(kind.rawValue))
    floats.append(a)
    floats.append(b)
    floats.append(c)
    floats.append(d)
    floats.append(width)
    floats.append(Float(color.rgb))
    floats.append(extra)
  }

  /// The commands decoded, for tests and for hosts that prefer values (the SVG writer).
  public var commands: [RenderCommand] {
    var result: [RenderCommand] = []
    result.reserveCapacity(count)
    var index = 0
    while index < floats.count {
      let f = floats[index..<index + RenderList.stride].map { Double($0) }
      let color = Color(rgb: UInt32(f[6]))
      switch RenderCommand.Kind(rawValue: Int(f[0])) {
      case .segment:
        result.append(.segment(from: Point(x: f[1], y: f[2]), to: Point(x: f[3], y: f[4]), color: color, width: f[5]))
      case .circle:
        result.append(.circle(center: Point(x: f[1], y: f[2]), radius: f[3], color: color, width: f[5]))
      case .fill:
        result.append(.fill(Rect(x: f[1], y: f[2], width: f[3], height: f[4]), color: color, cornerRadius: f[7]))
      case .clip:
        result.append(.clip(Rect(x: f[1], y: f[2], width: f[3], height: f[4])))
      case .text:
        let bytes = textBytes[Int(f[3])..<Int(f[3]) + Int(f[4])]
        let text = String(decoding: bytes, as: UTF8.self)
        result.append(.text(text, center: Point(x: f[1], y: f[2]), size: f[5], color: color))
      case nil:
        break
      }
      index += RenderList.stride
    }
    return result
  }
}

/// One decoded drawing command.
public enum RenderCommand: Equatable, Sendable {
  /// A straight line, `width` points wide, with round caps.
  case segment(from: Point, to: Point, color: Color, width: Double)
  /// The outline of a circle, `width` points wide.
  case circle(center: Point, radius: Double, color: Color, width: Double)
  /// A filled rectangle with rounded corners.
  case fill(Rect, color: Color, cornerRadius: Double)
  /// Text centered on a point, at a font size.
  case text(String, center: Point, size: Double, color: Color)
  /// Clips the commands after it, up to the next clip, to a rectangle.
  case clip(Rect)

  /// The number in the first float of a command.
  public enum Kind: Int, Sendable {
    /// A segment: 1.
    case segment = 1
    /// A circle: 2.
    case circle = 2
    /// A fill: 3.
    case fill = 3
    /// A text: 4.
    case text = 4
    /// A clip: 5.
    case clip = 5
  }
}
