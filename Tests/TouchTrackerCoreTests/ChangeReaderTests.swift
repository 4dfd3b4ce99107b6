import Testing

@testable import TouchTrackerCore

/// Changes in the shape `ChangeCoder.encode` writes, and the page's records
/// with their `bounds`, are read straight into changes (`DocumentReader`),
/// without a JSON tree: what the server does for every live message, every
/// `POST .../changes` and every change a compaction folds. Anything else is
/// left to the tree, which reads it the same (`DecoderOracle.checkChanges`).
@Suite struct ChangeReaderTests {
  static func straight(_ text: String) -> Change? {
    var reader = DocumentReader(bytes: Array(text.utf8))
    return try? reader.readWholeChange()
  }

  static func straightList(_ text: String) -> [Change]? {
    var reader = DocumentReader(bytes: Array(text.utf8))
    return try? reader.readChangeList()
  }

  static let line = Line(
    id: ShapeID(rawValue: 7), begin: Point(x: 1.5, y: -2), end: Point(x: 30, y: 40), color: Color(rgb: 0xFF8000),
    width: 10)
  static let circle = Circle(id: ShapeID(rawValue: 8), center: Point(x: 5, y: 6), radius: 2, color: .black, width: 1)

  static let changes: [Change] = [
    .add(lines: [line], circles: [circle], at: 3),
    .add(lines: [line], circles: [], at: nil),
    .deleteLine(ShapeID(rawValue: 12)),
    .deleteCircle(ShapeID(rawValue: 3)),
    .moveLine(ShapeID(rawValue: 4), begin: Point(x: 1, y: 2), end: Point(x: -3, y: 400)),
    .moveCircle(ShapeID(rawValue: 9), center: Point(x: 0.25, y: 1e9)),
    .clear,
  ]

  @Test func everyChangeTheAppWritesIsReadStraight() throws {
    for change in Self.changes {
      let bounds = Rect(origin: Point(x: -1, y: 2), size: Size(width: 30, height: 0.5))
      for bytes in [ChangeCoder.encode(change), ChangeCoder.encode(change, bounds: bounds)] {
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(Self.straight(text) == change, "\(text)")
        #expect(try ChangeCoder.decode(bytes: bytes) == ChangeCoder.decodeThroughTree(bytes: bytes))
      }
    }
    let list = ChangeCoder.encodeList(Self.changes)
    #expect(Self.straightList(String(decoding: list, as: UTF8.self)) == Self.changes)
  }

  /// A live `changes` message: its `type` and `key` are skipped, whatever
  /// the key's length, and whitespace and key order do not matter.
  @Test func aLiveMessageIsReadStraight() {
    let key = String(repeating: "k", count: 64)
    let text = """
       { "changes" : [ {"bounds": {"height": 1, "width": 2, "y": 3, "x": 4}, "line": 12, "op": "delete"} ],
      "key": "\(key)", "type": "changes" }\n
      """
    #expect(Self.straightList(text) == [.deleteLine(ShapeID(rawValue: 12))])
    let message = ChangeCoder.readChangesMessage(bytes: Array(text.utf8))
    #expect(message?.type == "changes" && message?.key == key)
    #expect(message?.changes == [.deleteLine(ShapeID(rawValue: 12))])
  }

  /// Valid, but not the app's shape, or not valid: left to the tree, which
  /// reads the valid ones and names the problem in the others.
  @Test(arguments: [
    #"{"op":"delete","line":1,"note":"mine"}"#,
    #"{"op":"delete","line":1,"circle":2}"#,
    ##"{"op":"add","lines":[{"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":"#000000","width":1}]}"##,
    #"{"op":"add","at":1.5}"#,
    #"{"op":"move","line":1,"begin":{"x":1,"y":2},"end":{"x":3e9,"y":4}}"#,
    #"{"op":"delete","line":1,"line":2}"#,
    #"{"op":"cl\u0065ar"}"#,
    #"{"op":"clear"} x"#,
    #"{"changes":[],"type":"changes","type":"changes"}"#,
    #"{"changes":[],"since":3}"#,
  ])
  func anythingElseIsLeftToTheTree(text: String) {
    #expect(Self.straight(text) == nil)
    #expect(Self.straightList(text) == nil)
    #expect(ChangeCoder.readChangesMessage(bytes: Array(text.utf8)) == nil)
    #expect(DecoderOracle.checkChanges(Array(text.utf8)) == nil)
  }
}
