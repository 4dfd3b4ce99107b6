import Foundation
import Testing
import TouchTrackerCore
import TouchTrackerStore

@Suite struct DocumentCodecTests {
  static let sample = Drawing(
    lines: [
      Line(begin: Point(x: 10, y: 20), end: Point(x: 30.5, y: 40), color: .orange, width: 10),
      Line(begin: Point(x: -0.1, y: 1e-7), end: Point(x: 1e300, y: 123_456.789), color: .black, width: 0.25),
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

  @Test func anEmptyDrawingHasEmptyArrays() throws {
    let text = String(decoding: try DocumentCodec.encode(Drawing()), as: UTF8.self)
    #expect(text == #"{"format":"touchtracker","version":1,"lines":[],"circles":[]}"#)
  }

  @Test func decodingWhatWasEncodedGivesTheSameDrawing() throws {
    #expect(try DocumentCodec.decode(DocumentCodec.encode(Self.sample)) == Self.sample)
  }

  @Test func linesKeepTheirOrder() throws {
    let lines = (0..<50).map { Line(begin: Point(x: Double($0), y: 0), end: Point(x: 0, y: Double($0))) }
    let decoded = try DocumentCodec.decode(DocumentCodec.encode(Drawing(lines: lines)))
    #expect(decoded.lines == lines)
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
    #expect(drawing == Drawing(lines: [Line(begin: Point(x: 10, y: 20), end: Point(x: 30.5, y: 40), color: .orange)]))
  }

  @Test func encodingANonFiniteNumberNamesWhereItIs() {
    var drawing = Self.sample
    drawing.lines[1].end.y = .nan
    #expect(
      throws: DocumentError.nonFiniteNumber(at: DocumentPath([.key("lines"), .index(1), .key("end"), .key("y")]))
    ) {
      try DocumentCodec.encode(drawing)
    }
    #expect(
      DocumentError.nonFiniteNumber(at: DocumentPath([.key("lines"), .index(1), .key("end"), .key("y")]))
        .description == "Non-finite number at lines[1].end.y")
  }

  @Test func aDocumentEmbedsInOtherCodableTypes() throws {
    struct Output: Codable, Equatable {
      var drawing: Document
    }
    let output = Output(drawing: Document(Self.sample))
    #expect(try JSONDecoder().decode(Output.self, from: JSONEncoder().encode(output)) == output)
  }

  @Test func embeddedDocumentsAreValidatedToo() {
    let text =
      #"{"drawing":{"format":"touchtracker","version":1,"lines":[],"circles":[{"center":{"x":0,"y":0},"#
      + ##""radius":-1,"color":"#000000","width":1}]}}"##
    #expect(
      throws: DocumentError.negativeRadius(
        "-1", at: DocumentPath([.key("drawing"), .key("circles"), .index(0), .key("radius")]))
    ) {
      try JSONDecoder().decode([String: Document].self, from: Data(text.utf8))
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
    #expect(try DocumentCodec.decode(data).lines == lines)
  }
}
