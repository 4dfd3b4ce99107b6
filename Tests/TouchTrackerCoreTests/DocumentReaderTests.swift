import Testing
import TouchTrackerCore
import TouchTrackerTestSupport

/// Documents in the shape the app writes are read straight into lines, in
/// chunks if need be; everything else goes through the JSON tree, with the
/// same result and the same errors (`DecoderOracle` checks it on mutants too).
@Suite struct DocumentReaderTests {
  /// `bytes` handed over `size` bytes at a time.
  static func chunks(of bytes: [UInt8], size: Int) -> (UnsafeMutableBufferPointer<UInt8>) -> Int {
    var offset = 0
    return { buffer in
      let count = min(size, buffer.count, bytes.count - offset)
      for index in 0..<count { buffer[index] = bytes[offset + index] }
      offset += count
      return count
    }
  }

  static let drawing: Drawing = {
    var lines: [Line] = []
    for index in 0..<50 {
      let step = Double(index)
      let begin = Point(x: step * 1.25, y: -step)
      let end = Point(x: 1e6 - step, y: 0.0001)
      lines.append(Line(begin: begin, end: end, color: Color(rgb: UInt32(index * 5_000)), width: 0.5 + step))
    }
    let circle = Circle(center: Point(x: 5, y: 6), radius: 0, color: .blue, width: 2)
    return Drawing(lines: lines, circles: [circle])
  }()

  @Test(arguments: [1, 3, 64, 1 << 20])
  func aDocumentTheAppWroteIsReadInChunksOfAnySize(size: Int) throws {
    let bytes = DocumentCoder.encode(Self.drawing)
    let read = try DocumentCoder.decode(chunksFrom: Self.chunks(of: bytes, size: size))
    #expect(read == (try DocumentCoder.decode(bytes: bytes)))
    #expect(read?.withoutIDs == Self.drawing)
  }

  @Test func whitespaceKeyOrderAndMissingIDsAreTheReadersToo() throws {
    let text = """
       { "lines" : [ { "width" : 3 , "color" : "#ABCDEF", "end": {"y": 4, "x": 3}, "begin": {"x": 1, "y": 2}, "id": 7 },
       \t{"begin": {"x": 1e2, "y": -0.5E-1}, "end": {"x": 0, "y": 0}, "color": "#000000", "width": 10}],
      "version": 1.0, "format": "touchtracker" }\r\n
      """
    let read = try #require(try DocumentCoder.decode(chunksFrom: Self.chunks(of: Array(text.utf8), size: 5)))
    #expect(
      read
        == Drawing(lines: [
          Line(
            id: ShapeID(rawValue: 7), begin: Point(x: 1, y: 2), end: Point(x: 3, y: 4), color: Color(rgb: 0xABCDEF),
            width: 3),
          Line(
            id: ShapeID(rawValue: 8), begin: Point(x: 100, y: -0.05), end: Point(x: 0, y: 0), color: .black, width: 10),
        ]))
  }

  /// Valid, but not in the app's shape: the tree decodes it, chunks give nil.
  @Test(arguments: [
    #"{"format":"touchtracker","version":1,"lines":[],"note":"mine"}"#,
    #"{"format":"touchtr\u0061cker","version":1}"#,
    ##"{"format":"touchtracker","version":1,"lines":[{"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":"#000000","width":1.00000000000000000000000000000000000000001}]}"##,
  ])
  func aValidDocumentInAnotherShapeStillOpens(text: String) throws {
    let bytes = Array(text.utf8)
    #expect(try DocumentCoder.decode(chunksFrom: Self.chunks(of: bytes, size: 4)) == nil)
    #expect(try DocumentCoder.decode(bytes: bytes) == DocumentCoder.decode(JSONParser.parse(bytes: bytes)))
  }

  /// The errors are the tree decoder's, word for word.
  @Test(arguments: [
    (
      ##"{"format":"touchtracker","version":1,"lines":[{"begin":{"x":2e9,"y":2},"end":{"x":3,"y":4},"color":"#000000","width":1}]}"##,
      "Number out of range at lines[0].begin.x"
    ),
    (
      ##"{"format":"touchtracker","version":1,"lines":[{"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":"#000000","width":1,"width":2}]}"##,
      "Invalid JSON at line 1, column 118: duplicate key 'width'"
    ),
    (
      ##"{"format":"touchtracker","version":1,"lines":[{"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":"#00000g","width":1}]}"##,
      "Invalid color '#00000g' at lines[0].color; expected '#rrggbb'"
    ),
    (#"{"format":"touchtracker","version":2}"#, "Unsupported version 2; expected 1"),
    (
      ##"{"format":"touchtracker","version":1,"lines":[{"id":3,"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":"#000000","width":1},{"id":3,"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":"#000000","width":1}]}"##,
      "Duplicate id 3 at lines[1].id"
    ),
  ])
  func aBadDocumentGetsTheSameErrorEitherWay(text: String, message: String) {
    let bytes = Array(text.utf8)
    #expect(throws: FormatError(message)) { try DocumentCoder.decode(bytes: bytes) }
    let chunked = Result { () throws(FormatError) in
      try DocumentCoder.decode(chunksFrom: Self.chunks(of: bytes, size: 2))
    }
    switch chunked {
    case .success(nil): break  // left to decode(bytes:)
    case .success(let drawing?): Issue.record("read \(drawing)")
    case .failure(let error): #expect(error.message == message)
    }
  }
}
