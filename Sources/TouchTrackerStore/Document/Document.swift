import TouchTrackerCore

/// A drawing as the document format spells it:
///
///     {"format": "touchtracker", "version": 1,
///      "lines":   [{"begin": {"x": 10, "y": 20}, "end": {"x": 30, "y": 40}, "color": "#000000", "width": 10}],
///      "circles": [{"center": {"x": 50, "y": 50}, "radius": 20, "color": "#000000", "width": 10}]}
///
/// Decoding validates as it goes and throws `DocumentError`s naming the
/// offending value's path, whatever `Decoder` is used, so a document can be
/// embedded in other `Codable` types (the output of `touchtracker replay`).
/// To read and write whole documents, use `DocumentCodec`, which is also
/// strict about the JSON text and writes the fields in the contract's order.
public struct Document: Codable, Hashable, Sendable {
  public static let format = "touchtracker"
  public static let version = 1

  public var drawing: Drawing

  public init(_ drawing: Drawing) {
    self.drawing = drawing
  }

  enum CodingKeys: String, CodingKey {
    case format, version, lines, circles
  }

  /// Checks the format and version before anything else, so a document of
  /// another kind is reported as such rather than as missing fields.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let format = try container.decode(String.self, forKey: .format)
    guard format == Self.format else { throw DocumentError.unsupportedFormat(format) }
    let version = try container.decode(Double.self, forKey: .version)
    guard version == Double(Self.version) else {
      throw DocumentError.unsupportedVersion(JSONNumber.text(version))
    }
    let lines = try container.decode([LineRecord].self, forKey: .lines).map(\.line)
    let circles = try container.decode([CircleRecord].self, forKey: .circles).map(\.circle)
    drawing = Drawing(lines: lines, circles: circles)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Self.format, forKey: .format)
    try container.encode(Self.version, forKey: .version)
    try container.encode(drawing.lines.map(LineRecord.init), forKey: .lines)
    try container.encode(drawing.circles.map(CircleRecord.init), forKey: .circles)
  }
}
