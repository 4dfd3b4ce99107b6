import Testing
import TouchTrackerCore
import TouchTrackerTestSupport

/// The saved document: exactly the DESIGN.md contract, and one clear
/// sentence for every way a file can be wrong.
@Suite struct DocumentCoderTests {
  /// The example of DESIGN.md, "Contracts > Document JSON", as written there.
  static let contractExample = """
    {"format": "touchtracker", "version": 1,
     "lines":   [{"begin": {"x": 10, "y": 20}, "end": {"x": 30, "y": 40}, "color": "#000000", "width": 10}],
     "circles": [{"center": {"x": 50, "y": 50}, "radius": 20, "color": "#000000", "width": 10}]}
    """

  static let contractDrawing = Drawing(
    lines: [Line(begin: Point(x: 10, y: 20), end: Point(x: 30, y: 40), color: .black, width: 10)],
    circles: [Circle(center: Point(x: 50, y: 50), radius: 20, color: .black, width: 10)])

  // MARK: Encoding

  @Test func encodesTheContractExampleExactly() throws {
    let encoded = DocumentCoder.encodeString(Self.contractDrawing)
    #expect(
      encoded
        == ##"{"format":"touchtracker","version":1,"lines":[{"begin":{"x":10,"y":20},"end":{"x":30,"y":40},"color":"#000000","width":10}],"circles":[{"center":{"x":50,"y":50},"radius":20,"color":"#000000","width":10}]}"##
    )
    // The same JSON as the contract, key for key and in the same order.
    #expect(try JSONParser.parse(encoded) == JSONParser.parse(Self.contractExample))
  }

  @Test func decodesTheContractExample() throws {
    #expect(try DocumentCoder.decode(Self.contractExample).withoutIDs == Self.contractDrawing)
  }

  @Test func anEmptyDrawingStillNamesFormatVersionAndBothLists() {
    #expect(DocumentCoder.encodeString(Drawing()) == #"{"format":"touchtracker","version":1,"lines":[],"circles":[]}"#)
  }

  @Test func colorsAreLowercaseHexAndFractionsShort() {
    let drawing = Drawing(lines: [
      Line(
        begin: Point(x: 0.5, y: -1.25), end: Point(x: 1.0 / 3.0, y: 799.99999), color: Color(rgb: 0xABCDEF), width: 2.5)
    ])
    #expect(
      DocumentCoder.encodeString(drawing)
        == ##"{"format":"touchtracker","version":1,"lines":[{"begin":{"x":0.5,"y":-1.25},"end":{"x":0.3333,"y":800},"color":"#abcdef","width":2.5}],"circles":[]}"##
    )
  }

  @Test func uppercaseColorsAreReadAndWrittenLowercase() throws {
    let text =
      ##"{"format":"touchtracker","version":1,"lines":[{"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":"#FF8C00","width":10}],"circles":[]}"##
    let drawing = try DocumentCoder.decode(text)
    #expect(drawing.lines.first?.color == .orange)
    #expect(DocumentCoder.encodeString(drawing).contains(##""color":"#ff8c00""##))
  }

  // MARK: Round trips

  @Test func decodingWhatWasEncodedGivesTheSameDrawing() throws {
    var generator = SplitMix64(seed: 7)
    for size in [0, 1, 2, 17, 500] {
      let drawing = Self.randomDrawing(lines: size, circles: size / 3, using: &generator)
      #expect(try DocumentCoder.decode(DocumentCoder.encodeString(drawing)).withoutIDs == drawing)
    }
  }

  @Test func linesKeepTheOrderTheyWereFinishedIn() throws {
    let lines = (0..<10).map { Line(begin: Point(x: Double($0), y: 0), end: Point(x: 0, y: Double(9 - $0))) }
    let decoded = try DocumentCoder.decode(DocumentCoder.encodeString(Drawing(lines: lines)))
    #expect(decoded.lines.withoutIDs == lines)
  }

  /// Coordinates on a ten-thousandth grid (what the format keeps), any color, positive widths.
  static func randomDrawing(lines: Int, circles: Int, using generator: inout SplitMix64) -> Drawing {
    func coordinate() -> Double { Double(Int.random(in: -100_000_000...100_000_000, using: &generator)) / 10_000 }
    func color() -> Color { Color(rgb: UInt32.random(in: 0...0xFFFFFF, using: &generator)) }
    func width() -> Double { Double(Int.random(in: 1...400_000, using: &generator)) / 10_000 }
    var drawing = Drawing()
    for _ in 0..<lines {
      drawing.lines.append(
        Line(
          begin: Point(x: coordinate(), y: coordinate()), end: Point(x: coordinate(), y: coordinate()), color: color(),
          width: width()))
    }
    for _ in 0..<circles {
      drawing.circles.append(
        Circle(
          center: Point(x: coordinate(), y: coordinate()), radius: abs(coordinate()), color: color(), width: width()))
    }
    return drawing
  }

  // MARK: Errors, word for word

  static let validLine = ##"{"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":"#000000","width":10}"##
  static let validCircle = ##"{"center":{"x":1,"y":2},"radius":3,"color":"#000000","width":10}"##

  static func document(lines: [String] = [], circles: [String] = []) -> String {
    #"{"format":"touchtracker","version":1,"lines":["# + lines.joined(separator: ",") + #"],"circles":["#
      + circles.joined(separator: ",") + "]}"
  }

  @Test(arguments: [
    // Wrong format or version
    (#"{"format":"svg","version":1}"#, "Unsupported format 'svg'; expected 'touchtracker'"),
    (#"{"format":2,"version":1}"#, "Unsupported format 2; expected 'touchtracker'"),
    (#"{"format":"touchtracker","version":2}"#, "Unsupported version 2; expected 1"),
    (#"{"format":"touchtracker","version":1.5}"#, "Unsupported version 1.5; expected 1"),
    (#"{"format":"touchtracker","version":"1"}"#, "Unsupported version '1'; expected 1"),
    (#"{"version":1}"#, "Missing 'format' at the top level"),
    (#"{"format":"touchtracker"}"#, "Missing 'version' at the top level"),
    ("[]", "Expected an object at the top level, found an array"),
    // Missing fields, with their path
    (document(lines: [##"{"begin":{"x":1,"y":2},"color":"#000000","width":10}"##]), "Missing 'end' at lines[0]"),
    (
      document(lines: [validLine, ##"{"begin":{"x":1},"end":{"x":3,"y":4},"color":"#000000","width":10}"##]),
      "Missing 'y' at lines[1].begin"
    ),
    (document(lines: [#"{"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"width":10}"#]), "Missing 'color' at lines[0]"),
    (
      document(circles: [##"{"center":{"x":1,"y":2},"color":"#000000","width":10}"##]), "Missing 'radius' at circles[0]"
    ),
    (document(circles: [##"{"radius":3,"color":"#000000","width":10}"##]), "Missing 'center' at circles[0]"),
    // Wrong types
    (
      document(lines: [##"{"begin":{"x":"1","y":2},"end":{"x":3,"y":4},"color":"#000000","width":10}"##]),
      "Expected a number at lines[0].begin.x, found a string"
    ),
    (
      document(lines: [##"{"begin":{"x":1,"y":2},"end":[3,4],"color":"#000000","width":10}"##]),
      "Expected an object at lines[0].end, found an array"
    ),
    (
      document(lines: [#"{"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":0,"width":10}"#]),
      "Expected a string at lines[0].color, found a number"
    ),
    (
      document(lines: [##"{"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":"#000000","width":null}"##]),
      "Expected a number at lines[0].width, found null"
    ),
    (document(lines: ["5"]), "Expected an object at lines[0], found a number"),
    (#"{"format":"touchtracker","version":1,"lines":{}}"#, "Expected an array at lines, found an object"),
    (#"{"format":"touchtracker","version":1,"circles":true}"#, "Expected an array at circles, found a boolean"),
    // Invalid colors
    (
      document(lines: [#"{"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":"red","width":10}"#]),
      "Invalid color 'red' at lines[0].color; expected '#rrggbb'"
    ),
    (
      document(lines: [validLine, ##"{"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":"#ff00","width":10}"##]),
      "Invalid color '#ff00' at lines[1].color; expected '#rrggbb'"
    ),
    (
      document(circles: [##"{"center":{"x":1,"y":2},"radius":3,"color":"#gg0000","width":10}"##]),
      "Invalid color '#gg0000' at circles[0].color; expected '#rrggbb'"
    ),
    // Non-positive widths
    (
      document(lines: [##"{"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":"#000000","width":0}"##]),
      "Width must be positive at lines[0].width"
    ),
    // Found by the decoders' fuzzing: thinner than the format writes, it would be saved as 0.
    (
      document(lines: [##"{"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":"#000000","width":0.00001}"##]),
      "Width must be at least 0.0001 at lines[0].width"
    ),
    (
      document(lines: [##"{"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":"#000000","width":-2}"##]),
      "Width must be positive at lines[0].width"
    ),
    (
      document(circles: [validCircle, ##"{"center":{"x":1,"y":2},"radius":3,"color":"#000000","width":0}"##]),
      "Width must be positive at circles[1].width"
    ),
    // Negative radius
    (
      document(circles: [##"{"center":{"x":1,"y":2},"radius":-1,"color":"#000000","width":10}"##]),
      "Negative radius at circles[0].radius"
    ),
    // Non-finite numbers never get past the JSON parser.
    (
      ##"{"format":"touchtracker","version":1,"lines":[{"begin":{"x":NaN,"y":2},"end":{"x":3,"y":4},"color":"#000000","width":10}]}"##,
      "Invalid JSON at line 1, column 61: non-finite number 'NaN'"
    ),
    (
      "{\"format\":\"touchtracker\",\"version\":1,\n\"circles\":[{\"center\":{\"x\":1,\"y\":2},\"radius\":1e999,\"color\":\"#000000\",\"width\":10}]}",
      "Invalid JSON at line 2, column 45: number out of range '1e999'"
    ),
  ])
  func badDocumentsAreRefusedWithOneSentence(text: String, message: String) {
    #expect(decodeError(text) == message)
  }

  @Test func aZeroRadiusCircleIsADot() throws {
    let drawing = try DocumentCoder.decode(
      Self.document(circles: [##"{"center":{"x":1,"y":2},"radius":0,"color":"#000000","width":10}"##]))
    #expect(drawing.circles.withoutIDs == [Circle(center: Point(x: 1, y: 2), radius: 0, color: .black, width: 10)])
  }

  private func decodeError(_ text: String) -> String? {
    do {
      _ = try DocumentCoder.decode(text)
      return nil
    } catch {
      return error.message
    }
  }
}
