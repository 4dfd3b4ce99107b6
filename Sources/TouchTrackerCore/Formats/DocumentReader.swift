/// Reads a document straight into lines and circles, with no JSON value
/// tree: the fast path of `DocumentCoder.decode`, in constant memory beyond
/// the drawing itself when the bytes come in chunks (`touchtracker render`
/// of a million lines).
///
/// It takes only the shape `DocumentCoder.encode` writes, give or take
/// whitespace and key order: the four root keys, shapes of the known keys
/// with plain ASCII strings, numbers of at most `longestNumber` bytes.
/// Anything else, valid or not (an unknown key, an escape in a string, a
/// duplicate key, a wrong type, a syntax error), makes it give up with
/// `Unusual`, and the caller decodes the same bytes through `JSONParser` and
/// `JSONCursor`, which accept every valid document and name every problem.
/// So what it reads is exactly what the tree decoder reads, and no error
/// message depends on it; `validate` and `assignIDs` run after either.
///
/// - Complexity: O(n) in the document's bytes; no allocation per shape
///   besides the growth of the drawing's arrays.
///
/// The page opens documents through it too (the wasm's `tt_load_document`).
struct DocumentReader {
  /// Bytes read and not yet consumed start at `position`.
  private var bytes: [UInt8]
  private var position = 0
  /// Fills the buffer it is given from the rest of the document and returns
  /// how many bytes it wrote (0 at the end); nil when `bytes` is all there is.
  private let source: ((UnsafeMutableBufferPointer<UInt8>) -> Int)?
  private var isExhausted: Bool
  /// Where the source writes each chunk before it joins `bytes`.
  private var chunk: [UInt8] = []

  /// A number longer than this (in bytes) is left to the tree decoder.
  static let longestNumber = 40
  /// How much is read from the source at a time.
  static let chunkSize = 1 << 20

  /// The document is not in the shape this reader takes (or not valid).
  struct Unusual: Error {}

  /// Reads the whole document in `bytes`.
  init(bytes: [UInt8]) {
    self.bytes = bytes
    source = nil
    isExhausted = true
  }

  /// Reads the document from `source` a chunk at a time (the CLI's files,
  /// the server's bodies, the page's input buffer: held once, not copied).
  init(source: @escaping (UnsafeMutableBufferPointer<UInt8>) -> Int) {
    bytes = []
    self.source = source
    isExhausted = false
  }

  /// The drawing the document holds, before `validate` and `assignIDs`.
  mutating func read() throws(Unusual) -> Drawing {
    var drawing = Drawing()
    var seen: UInt8 = 0
    try expect(UInt8(ascii: "{"))
    repeat {
      let key = try readKey()
      let bit: UInt8
      if key == .format {
        try readFormat()
        bit = 1
      } else if key == .version {
        guard try readNumber() == DocumentCoder.version else { throw Unusual() }
        bit = 2
      } else if key == .lines {
        drawing.lines = try readArray { (reader: inout DocumentReader) throws(Unusual) in try reader.readLine() }
        bit = 4
      } else if key == .circles {
        drawing.circles = try readArray { (reader: inout DocumentReader) throws(Unusual) in try reader.readCircle() }
        bit = 8
      } else {
        throw Unusual()
      }
      guard seen & bit == 0 else { throw Unusual() }
      seen |= bit
    } while try endOfMember(UInt8(ascii: "}"))
    guard seen & 3 == 3 else { throw Unusual() }
    skipWhitespace()
    guard peek() == nil else { throw Unusual() }
    return drawing
  }

  // MARK: Shapes

  private mutating func readLine() throws(Unusual) -> Line {
    var line = Line(begin: .zero, end: .zero)
    var seen: UInt8 = 0
    try expect(UInt8(ascii: "{"))
    repeat {
      let key = try readKey()
      let bit: UInt8
      if key == .begin {
        line.begin = try readPoint()
        bit = 1
      } else if key == .end {
        line.end = try readPoint()
        bit = 2
      } else if key == .color {
        line.color = try readColor()
        bit = 4
      } else if key == .width {
        line.width = try readWidth()
        bit = 8
      } else if key == .id {
        line.id = try readID()
        bit = 16
      } else {
        throw Unusual()
      }
      guard seen & bit == 0 else { throw Unusual() }
      seen |= bit
    } while try endOfMember(UInt8(ascii: "}"))
    guard seen & 15 == 15 else { throw Unusual() }
    return line
  }

  private mutating func readCircle() throws(Unusual) -> Circle {
    var circle = Circle(center: .zero, radius: 0)
    var seen: UInt8 = 0
    try expect(UInt8(ascii: "{"))
    repeat {
      let key = try readKey()
      let bit: UInt8
      if key == .center {
        circle.center = try readPoint()
        bit = 1
      } else if key == .radius {
        circle.radius = try readNumber()
        guard circle.radius >= 0 else { throw Unusual() }
        bit = 2
      } else if key == .color {
        circle.color = try readColor()
        bit = 4
      } else if key == .width {
        circle.width = try readWidth()
        bit = 8
      } else if key == .id {
        circle.id = try readID()
        bit = 16
      } else {
        throw Unusual()
      }
      guard seen & bit == 0 else { throw Unusual() }
      seen |= bit
    } while try endOfMember(UInt8(ascii: "}"))
    guard seen & 15 == 15 else { throw Unusual() }
    return circle
  }

  private mutating func readPoint() throws(Unusual) -> Point {
    var point = Point.zero
    var seen: UInt8 = 0
    try expect(UInt8(ascii: "{"))
    repeat {
      let key = try readKey()
      if key == .x, seen & 1 == 0 {
        point.x = try readNumber()
        seen |= 1
      } else if key == .y, seen & 2 == 0 {
        point.y = try readNumber()
        seen |= 2
      } else {
        throw Unusual()
      }
    } while try endOfMember(UInt8(ascii: "}"))
    guard seen == 3 else { throw Unusual() }
    return point
  }

  /// `[]` or `[element, ...]`.
  private mutating func readArray<Element>(
    _ element: (inout DocumentReader) throws(Unusual) -> Element
  ) throws(Unusual) -> [Element] {
    var elements: [Element] = []
    try expect(UInt8(ascii: "["))
    skipWhitespace()
    if peek() == UInt8(ascii: "]") {
      position += 1
      return elements
    }
    repeat {
      elements.append(try element(&self))
    } while try endOfMember(UInt8(ascii: "]"))
    return elements
  }

  /// After a member or element: true after a comma, false after `close`.
  private mutating func endOfMember(_ close: UInt8) throws(Unusual) -> Bool {
    skipWhitespace()
    guard let byte = peek() else { throw Unusual() }
    position += 1
    if byte == UInt8(ascii: ",") { return true }
    guard byte == close else { throw Unusual() }
    return false
  }

  // MARK: Fields, as DocumentCoder checks them

  private mutating func readFormat() throws(Unusual) {
    let (start, count) = try readPlainString()
    guard spells(start, count, "touchtracker") else { throw Unusual() }
  }

  /// `DocumentCoder.width`'s rule.
  private mutating func readWidth() throws(Unusual) -> Double {
    let width = try readNumber()
    guard width > 0, width >= DocumentCoder.minimumWidth else { throw Unusual() }
    return width
  }

  /// `DocumentCoder.id`'s rule.
  private mutating func readID() throws(Unusual) -> ShapeID {
    let number = try readNumber()
    guard number >= 1, number <= Double(ShapeID.maximum.rawValue), number == number.rounded(.towardZero) else {
      throw Unusual()
    }
    return ShapeID(rawValue: UInt64(number))
  }

  /// `#rrggbb`, any case, as `Color(hex:)` reads it.
  private mutating func readColor() throws(Unusual) -> Color {
    let (start, count) = try readPlainString()
    guard count == 7, bytes[start] == UInt8(ascii: "#") else { throw Unusual() }
    var value: UInt32 = 0
    for byte in bytes[start + 1..<start + 7] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw Unusual()
      }
      value = value << 4 | UInt32(digit)
    }
    return Color(rgb: value)
  }

  // MARK: Tokens

  /// The keys this reader knows; `other` for any other string.
  private enum Key {
    case format, version, lines, circles, id, begin, end, color, width, x, y, center, radius
    // Changes (`ChangeCoder`), their bounds and a live message's members.
    case op, at, line, circle, bounds, height, changes, type, key
    case other
  }

  /// A key and its colon.
  private mutating func readKey() throws(Unusual) -> Key {
    skipWhitespace()
    let (start, count) = try readPlainString()
    // Named before reading on: reading more moves the bytes.
    let key = name(start, count)
    skipWhitespace()
    guard peek() == UInt8(ascii: ":") else { throw Unusual() }
    position += 1
    skipWhitespace()
    return key
  }

  private func name(_ start: Int, _ count: Int) -> Key {
    switch count {
    case 1:
      if bytes[start] == UInt8(ascii: "x") { return .x }
      if bytes[start] == UInt8(ascii: "y") { return .y }
    case 2:
      if spells(start, count, "id") { return .id }
      if spells(start, count, "op") { return .op }
      if spells(start, count, "at") { return .at }
    case 3:
      if spells(start, count, "end") { return .end }
      if spells(start, count, "key") { return .key }
    case 4:
      if spells(start, count, "line") { return .line }
      if spells(start, count, "type") { return .type }
    case 5:
      if spells(start, count, "begin") { return .begin }
      if spells(start, count, "color") { return .color }
      if spells(start, count, "width") { return .width }
      if spells(start, count, "lines") { return .lines }
    case 6:
      if spells(start, count, "format") { return .format }
      if spells(start, count, "center") { return .center }
      if spells(start, count, "radius") { return .radius }
      if spells(start, count, "circle") { return .circle }
      if spells(start, count, "bounds") { return .bounds }
      if spells(start, count, "height") { return .height }
    case 7:
      if spells(start, count, "version") { return .version }
      if spells(start, count, "circles") { return .circles }
      if spells(start, count, "changes") { return .changes }
    default: break
    }
    return .other
  }

  /// A string of at most 32 printable ASCII bytes without escapes: where its
  /// bytes start in `bytes`, and how many. They stay there until the next read.
  private mutating func readPlainString() throws(Unusual) -> (start: Int, count: Int) {
    ensure(34)
    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw Unusual() }
    let start = position + 1
    var end = start
    let limit = min(bytes.count, start + 33)
    while end < limit {
      let byte = bytes[end]
      if byte == UInt8(ascii: "\"") {
        position = end + 1
        return (start, end - start)
      }
      guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { throw Unusual() }
      end += 1
    }
    throw Unusual()
  }

  private func spells(_ start: Int, _ count: Int, _ word: StaticString) -> Bool {
    guard count == word.utf8CodeUnitCount else { return false }
    let text = word.utf8Start
    for offset in 0..<count where bytes[start + offset] != text[offset] { return false }
    return true
  }

  /// A JSON number (RFC 8259's grammar, as `JSONParser` takes it), finite.
  private mutating func readNumber() throws(Unusual) -> Double {
    ensure(DocumentReader.longestNumber + 1)
    let start = position
    let end = min(bytes.count, start + DocumentReader.longestNumber + 1)
    var index = start
    if index < end, bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < end else { throw Unusual() }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else {
      let first = index
      index = skipDigits(from: index, to: end)
      guard index > first else { throw Unusual() }
    }
    if index < end, bytes[index] == UInt8(ascii: ".") {
      let first = index + 1
      index = skipDigits(from: first, to: end)
      guard index > first else { throw Unusual() }
    }
    if index < end, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      let first = index
      index = skipDigits(from: first, to: end)
      guard index > first else { throw Unusual() }
    }
    // Too long to be sure the number ended here: the tree decoder reads it.
    guard index - start <= DocumentReader.longestNumber else { throw Unusual() }
    let value = JSONNumber.parse(bytes[start..<index])
    guard value.isFinite else { throw Unusual() }
    position = index
    return value
  }

  /// Where the run of digits from `index` (before `end`) stops.
  private func skipDigits(from index: Int, to end: Int) -> Int {
    var index = index
    while index < end, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
    return index
  }

  private mutating func expect(_ byte: UInt8) throws(Unusual) {
    skipWhitespace()
    guard peek() == byte else { throw Unusual() }
    position += 1
  }

  private mutating func skipWhitespace() {
    while true {
      while position < bytes.count {
        let byte = bytes[position]
        guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
        position += 1
      }
      guard refill() else { return }
    }
  }

  /// The byte at `position`, reading more when the buffer is used up; nil at the end.
  private mutating func peek() -> UInt8? {
    if position == bytes.count && !refill() { return nil }
    return bytes[position]
  }

  // MARK: Chunks

  /// Makes at least `count` bytes available from `position`, unless the document ends first.
  private mutating func ensure(_ count: Int) {
    while bytes.count - position < count && refill() {}
  }

  /// Reads the next chunk after what is left; false when nothing more came.
  private mutating func refill() -> Bool {
    guard let source, !isExhausted else { return false }
    if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: DocumentReader.chunkSize) }
    let read = chunk.withUnsafeMutableBufferPointer { source($0) }
    guard read > 0 else {
      isExhausted = true
      return false
    }
    // What is left and the chunk, as block copies: element by element (a
    // slice appended, `update(from:count:)`) the page's decoding was 1.6x
    // slower from chunks than from one array.
    let leftover = bytes.count - position
    let count = min(read, chunk.count)
    let start = position
    bytes = [UInt8](unsafeUninitializedCapacity: leftover + count) { [bytes, chunk] buffer, initialized in
      let base = UnsafeMutableRawPointer(buffer.baseAddress!)
      if leftover > 0 { bytes.withUnsafeBytes { base.copyMemory(from: $0.baseAddress! + start, byteCount: leftover) } }
      chunk.withUnsafeBytes { (base + leftover).copyMemory(from: $0.baseAddress!, byteCount: count) }
      initialized = leftover + count
    }
    position = 0
    return true
  }
}

// MARK: - Changes

/// `ChangeCoder`'s fast path, as `read()` is `DocumentCoder`'s: changes in
/// the shape `ChangeCoder.encode` writes (and the page's records, with
/// their `bounds`), give or take whitespace and key order. Anything else,
/// valid or not (another key, a key twice, a shape without an id, a number
/// out of the format's range), gives up with `Unusual`, and the caller reads
/// the same bytes through the tree, which names every problem.
extension DocumentReader {
  /// One change, and nothing after it.
  mutating func readWholeChange() throws(Unusual) -> Change {
    let change = try readChange()
    try expectEnd()
    return change
  }

  /// `{"changes": [CHANGE, ...]}`, and nothing after it. The root may also
  /// hold `type` and `key` (a live `changes` message), as plain strings,
  /// which the tree decoder skips.
  mutating func readChangeList() throws(Unusual) -> [Change] {
    try readChangesMessage().changes
  }

  /// `readChangeList`, with the root's `type` and `key` when it has them.
  mutating func readChangesMessage() throws(Unusual) -> (type: String?, key: String?, changes: [Change]) {
    var changes: [Change]?
    var type: String?
    var key: String?
    try expect(UInt8(ascii: "{"))
    repeat {
      switch try readKey() {
      case .changes where changes == nil:
        changes = try readArray { (reader: inout DocumentReader) throws(Unusual) in try reader.readChange() }
      case .type where type == nil: type = try readString()
      case .key where key == nil: key = try readString()
      default: throw Unusual()  // another member, or one twice
      }
    } while try endOfMember(UInt8(ascii: "}"))
    guard let changes else { throw Unusual() }
    try expectEnd()
    return (type, key, changes)
  }

  private enum Op { case add, delete, move, clear }

  /// One change object, with exactly the members its `op` reads.
  private mutating func readChange() throws(Unusual) -> Change {
    var op: Op?
    var lines: [Line]?
    var circles: [Circle]?
    var position: Double?
    var line: ShapeID?
    var circle: ShapeID?
    var begin: Point?
    var end: Point?
    var center: Point?
    var seen: UInt16 = 0
    try expect(UInt8(ascii: "{"))
    repeat {
      let key = try readKey()
      let bit: UInt16
      switch key {
      case .op:
        op = try readOp()
        bit = 1
      case .lines:
        lines = try readArray { (reader: inout DocumentReader) throws(Unusual) in try reader.readLine() }
        bit = 2
      case .circles:
        circles = try readArray { (reader: inout DocumentReader) throws(Unusual) in try reader.readCircle() }
        bit = 4
      case .at:
        position = try readNumber()
        bit = 8
      case .line:
        line = try readID()
        bit = 16
      case .circle:
        circle = try readID()
        bit = 32
      case .begin:
        begin = try readPoint()
        bit = 64
      case .end:
        end = try readPoint()
        bit = 128
      case .center:
        center = try readPoint()
        bit = 256
      case .bounds:
        try skipBounds()
        bit = 512
      default:
        throw Unusual()
      }
      guard seen & bit == 0 else { throw Unusual() }
      seen |= bit
    } while try endOfMember(UInt8(ascii: "}"))
    guard let op else { throw Unusual() }
    switch op {
    case .add:
      guard line == nil, circle == nil, begin == nil, end == nil, center == nil else { throw Unusual() }
      let drawing = Drawing(lines: lines ?? [], circles: circles ?? [])
      guard drawing.lines.allSatisfy({ $0.id.isValid }), drawing.circles.allSatisfy({ $0.id.isValid }),
        (try? DocumentCoder.validate(drawing)) != nil
      else { throw Unusual() }
      var at: Int?
      if let position {
        guard position >= 0, position <= 1e15, position == position.rounded(.towardZero) else { throw Unusual() }
        at = Int(position)
      }
      return .add(lines: drawing.lines, circles: drawing.circles, at: at)
    case .delete:
      guard lines == nil, circles == nil, position == nil, begin == nil, end == nil, center == nil else {
        throw Unusual()
      }
      if let line, circle == nil { return .deleteLine(line) }
      if let circle, line == nil { return .deleteCircle(circle) }
      throw Unusual()
    case .move:
      guard lines == nil, circles == nil, position == nil else { throw Unusual() }
      if let line, circle == nil, let begin, let end, center == nil {
        guard Self.isWritable(begin), Self.isWritable(end) else { throw Unusual() }
        return .moveLine(line, begin: begin, end: end)
      }
      if let circle, line == nil, let center, begin == nil, end == nil {
        guard Self.isWritable(center) else { throw Unusual() }
        return .moveCircle(circle, center: center)
      }
      throw Unusual()
    case .clear:
      guard seen & ~512 == 1 else { throw Unusual() }  // its op, and bounds or none
      return .clear
    }
  }

  /// Within the format's range (`readNumber` already refused what is not finite).
  private static func isWritable(_ point: Point) -> Bool {
    abs(point.x) <= DocumentCoder.maximumMagnitude && abs(point.y) <= DocumentCoder.maximumMagnitude
  }

  private mutating func readOp() throws(Unusual) -> Op {
    let (start, count) = try readPlainString()
    if spells(start, count, "add") { return .add }
    if spells(start, count, "delete") { return .delete }
    if spells(start, count, "move") { return .move }
    if spells(start, count, "clear") { return .clear }
    throw Unusual()
  }

  /// A record's `{"x": X, "y": Y, "width": W, "height": H}`: read, each
  /// member once, and dropped (changes do not keep it).
  private mutating func skipBounds() throws(Unusual) {
    var seen: UInt8 = 0
    try expect(UInt8(ascii: "{"))
    repeat {
      let key = try readKey()
      let bit: UInt8
      switch key {
      case .x: bit = 1
      case .y: bit = 2
      case .width: bit = 4
      case .height: bit = 8
      default: throw Unusual()
      }
      _ = try readNumber()
      guard seen & bit == 0 else { throw Unusual() }
      seen |= bit
    } while try endOfMember(UInt8(ascii: "}"))
  }

  /// A string of printable ASCII without escapes, of any length.
  private mutating func readString() throws(Unusual) -> String {
    guard peek() == UInt8(ascii: "\"") else { throw Unusual() }
    position += 1
    var text: [UInt8] = []
    while let byte = peek() {
      position += 1
      if byte == UInt8(ascii: "\"") { return String(decoding: text, as: UTF8.self) }
      guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { throw Unusual() }
      text.append(byte)
    }
    throw Unusual()
  }

  /// Only whitespace is left.
  private mutating func expectEnd() throws(Unusual) {
    skipWhitespace()
    guard peek() == nil else { throw Unusual() }
  }
}
