import TouchTrackerCore

// The `Codable` spelling of each core type in a document. The core is
// Foundation-free and builds for Embedded Swift, where `Codable` does not
// exist, so its types get these wrappers here instead of conformances.

struct PointRecord: Codable {
  var point: Point

  init(_ point: Point) {
    self.point = point
  }

  enum CodingKeys: String, CodingKey {
    case x, y
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    point = Point(x: try container.decodeFinite(.x), y: try container.decodeFinite(.y))
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(point.x, forKey: .x)
    try container.encode(point.y, forKey: .y)
  }
}

struct LineRecord: Codable {
  var line: Line

  init(_ line: Line) {
    self.line = line
  }

  enum CodingKeys: String, CodingKey {
    case begin, end, color, width
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    line = Line(
      begin: try container.decode(PointRecord.self, forKey: .begin).point,
      end: try container.decode(PointRecord.self, forKey: .end).point,
      color: try container.decodeColor(.color),
      width: try container.decodeWidth(.width)
    )
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(PointRecord(line.begin), forKey: .begin)
    try container.encode(PointRecord(line.end), forKey: .end)
    try container.encode(line.color.hex, forKey: .color)
    try container.encode(line.width, forKey: .width)
  }
}

struct CircleRecord: Codable {
  var circle: Circle

  init(_ circle: Circle) {
    self.circle = circle
  }

  enum CodingKeys: String, CodingKey {
    case center, radius, color, width
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let center = try container.decode(PointRecord.self, forKey: .center).point
    let radius = try container.decodeFinite(.radius)
    guard radius >= 0 else {
      throw DocumentError.negativeRadius(JSONNumber.text(radius), at: container.path(.radius))
    }
    circle = Circle(
      center: center,
      radius: radius,
      color: try container.decodeColor(.color),
      width: try container.decodeWidth(.width)
    )
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(PointRecord(circle.center), forKey: .center)
    try container.encode(circle.radius, forKey: .radius)
    try container.encode(circle.color.hex, forKey: .color)
    try container.encode(circle.width, forKey: .width)
  }
}

extension KeyedDecodingContainer {
  func path(_ key: Key) -> DocumentPath { DocumentPath(codingPath + [key]) }

  /// A number that is neither NaN nor infinite; `JSONDecoder` never produces
  /// those, but other decoders may.
  func decodeFinite(_ key: Key) throws -> Double {
    let value = try decode(Double.self, forKey: key)
    guard value.isFinite else { throw DocumentError.nonFiniteNumber(at: path(key)) }
    return value
  }

  /// `#rrggbb` in either case; documents are written in lowercase.
  func decodeColor(_ key: Key) throws -> Color {
    let text = try decode(String.self, forKey: key)
    guard let color = Color(hex: text) else { throw DocumentError.invalidColor(text, at: path(key)) }
    return color
  }

  func decodeWidth(_ key: Key) throws -> Double {
    let width = try decodeFinite(key)
    guard width > 0 else { throw DocumentError.nonPositiveWidth(JSONNumber.text(width), at: path(key)) }
    return width
  }
}
