import Foundation
import Testing
import TouchTrackerCore
import TouchTrackerStore
import TouchTrackerTestSupport

/// The store reads and writes documents through the core's codec (whose
/// messages `DocumentCoderTests` pin word for word); these tests pin what the
/// store adds: `Data` in and out, UTF-8, and never writing a number that
/// would not read back the same.
@Suite struct DocumentCodecTests {
  static let sample = Drawing(
    lines: [
      Line(begin: Point(x: 10, y: 20), end: Point(x: 30.5, y: 40), color: .orange, width: 10),
      Line(
        begin: Point(x: -0.1, y: 0.0001), end: Point(x: 999_999_999.9999, y: 123_456.789), color: .black, width: 0.25),
    ],
    circles: [Circle(center: Point(x: 50, y: 50), radius: 0, color: Color(rgb: 0xabcdef), width: 2.5)]
  )

  @Test func encodingWritesTheContractsFieldsInOrderWithIntegralNumbersWithoutFractions() throws {
    let drawing = Drawing(
      lines: [Line(begin: Point(x: 10, y: 20), end: Point(x: 30.5, y: 40), color: .orange, width: 10)],
      circles: [Circle(center: Point(x: 50, y: -50), radius: 20, color: Color(rgb: 0xABCDEF), width: 2.5)]
    )
    let text = String(decoding: try DocumentCodec.encode(drawing), as: UTF8.self)
    #expect(
      text == #"{"format":"touchtracker","version":1,"#
        + ##""lines":[{"begin":{"x":10,"y":20},"end":{"x":30.5,"y":40},"color":"#ff8c00","width":10}],"##
        + ##""circles":[{"center":{"x":50,"y":-50},"radius":20,"color":"#abcdef","width":2.5}]}"##
    )
  }

  @Test func decodingWhatWasEncodedGivesTheSameDrawing() throws {
    #expect(try DocumentCodec.decode(DocumentCodec.encode(Self.sample)).withoutIDs == Self.sample)
  }

  @Test func decodingAcceptsWhitespaceAnyKeyOrderUnknownFieldsUppercaseColorsAndEscapedKeys() throws {
    let text = """
      {
        "lines": [ { "width": 1e1, "color": "#FF8C00", "end": {"y": 40, "x": 30.5},
                     "begin": {"x": 10, "y": 20, "pressure": 0.5} } ],
        "circles": [],
        "version": 1.0,
        "form\\u0061t": "touchtracker",
        "title": "ignored"
      }
      """
    let drawing = try DocumentCodec.decode(Data(text.utf8))
    #expect(
      drawing.withoutIDs
        == Drawing(lines: [Line(begin: Point(x: 10, y: 20), end: Point(x: 30.5, y: 40), color: .orange)]))
  }

  @Test func decodingPassesTheCoresMessageThrough() {
    let text =
      ##"{"format":"touchtracker","version":1,"lines":[{"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":"#12","width":1}]}"##
    #expect(throws: DocumentError(description: "Invalid color '#12' at lines[0].color; expected '#rrggbb'")) {
      try DocumentCodec.decode(Data(text.utf8))
    }
  }

  @Test func textThatIsNotUTF8IsRejected() {
    var data = Data(#"{"format":"touchtracker","version":1,"lines":[],"circles":[]}"#.utf8)
    data[data.count - 5] = 0xff
    #expect(throws: DocumentError(description: "Invalid JSON: the text is not UTF-8")) {
      try DocumentCodec.decode(data)
    }
  }

  @Test(arguments: [
    (Double.nan, "Non-finite number at lines[1].end.y"),
    (Double.infinity, "Non-finite number at lines[1].end.y"),
    (1e10, "Number out of range at lines[1].end.y"),
  ])
  func encodingRefusesANumberThatWouldNotReadBack(value: Double, message: String) {
    var drawing = Self.sample
    drawing.lines[1].end.y = value
    #expect(throws: DocumentError(description: message)) { try DocumentCodec.encode(drawing) }
  }

  @Test func decodingRefusesNumbersBeyondTheLimit() {
    let text =
      ##"{"format":"touchtracker","version":1,"circles":[{"center":{"x":1,"y":2},"radius":1e12,"color":"#000000","width":1}]}"##
    #expect(throws: DocumentError(description: "Number out of range at circles[0].radius")) {
      try DocumentCodec.decode(Data(text.utf8))
    }
  }

  @Test func aHundredThousandLineDrawingRoundTripsWellUnder32MiB() throws {
    let lines = (0..<100_000).map { index in
      Line(
        begin: Point(x: Double(index % 1000) + 0.25, y: 123.5),
        end: Point(x: 640.125, y: Double(index % 700)),
        color: .purple,
        width: 10
      )
    }
    let data = try DocumentCodec.encode(Drawing(lines: lines))
    #expect(data.count < 16 * 1024 * 1024)
    #expect(try DocumentCodec.decode(data).lines.withoutIDs == lines)
  }
}
