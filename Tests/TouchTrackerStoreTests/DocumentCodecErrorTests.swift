import Foundation
import Testing
import TouchTrackerStore

/// Every message `DocumentCodec.decode` gives, word for word. In the
/// documents below, `⟪...⟫` marks the text a message points at: the marks
/// are removed before decoding, and "@" in the expected message becomes the
/// line and column where the marked text starts.
@Suite struct DocumentCodecErrorTests {
  static let line = ##"{"begin":{"x":10,"y":20},"end":{"x":30,"y":40},"color":"#000000","width":10}"##
  static let circle = ##"{"center":{"x":50,"y":50},"radius":20,"color":"#000000","width":10}"##

  /// A valid document with `line` and `circle` replaced as given.
  static func document(lines: [String] = [line], circles: [String] = [circle]) -> String {
    #"{"format":"touchtracker","version":1,"lines":["# + lines.joined(separator: ",") + #"],"circles":["#
      + circles.joined(separator: ",") + "]}"
  }

  static func line(_ replacing: String, with replacement: String) -> String {
    line.replacingOccurrences(of: replacing, with: replacement)
  }

  static func circle(_ replacing: String, with replacement: String) -> String {
    circle.replacingOccurrences(of: replacing, with: replacement)
  }

  static let cases: [(document: String, message: String)] = [
    // Not JSON at all, or not strict JSON.
    ("", "Invalid JSON: unexpected end of text"),
    ("   \n ", "Invalid JSON: unexpected end of text"),
    (#"{"format":"touchtracker","#, "Invalid JSON: unexpected end of text"),
    (#"{"format":"touchtr"#, "Invalid JSON: unexpected end of text"),
    (#"⟪<⟫html>"#, "Invalid JSON: unexpected '<' @"),
    (document(lines: [line("\"x\":10", with: "\"x\":⟪NaN⟫")]), "Invalid JSON: unexpected 'NaN' @"),
    (document(lines: [line("\"x\":10", with: "\"x\":⟪Infinity⟫")]), "Invalid JSON: unexpected 'Infinity' @"),
    (document(lines: [line("\"x\":10", with: "\"x\":⟪-Infinity⟫")]), "Invalid JSON: invalid number '-Infinity' @"),
    (document(lines: [line("\"x\":10", with: "\"x\":⟪01⟫")]), "Invalid JSON: invalid number '01' @"),
    (document(lines: [line("\"x\":10", with: "\"x\":⟪1.⟫")]), "Invalid JSON: invalid number '1.' @"),
    (document(lines: [line("\"x\":10", with: "\"x\":⟪.5⟫")]), "Invalid JSON: unexpected '.5' @"),
    (document(lines: [line("\"x\":10", with: "\"x\":⟪1e⟫")]), "Invalid JSON: invalid number '1e' @"),
    (document(lines: [line("\"x\":10", with: "\"x\":⟪'10'⟫")]), "Invalid JSON: unexpected ''' @"),
    (document(lines: [line("\"x\":10", with: "\"x\":⟪tru⟫")]), "Invalid JSON: unexpected 'tru' @"),
    (document(lines: [line("\"width\":10", with: "\"width\":10,⟪}⟫")]), "Invalid JSON: unexpected '}' @"),
    (document(lines: [line + ",⟪]⟫"]), "Invalid JSON: unexpected ']' @"),
    (document(circles: []) + " ⟪x⟫", "Invalid JSON: unexpected 'x' @"),
    (document(lines: [line("#000000", with: "#00⟪\\x⟫00")]), "Invalid JSON: invalid escape '\\x' @"),
    (document(lines: [line("#000000", with: "#00⟪\\u12G⟫")]), "Invalid JSON: invalid escape '\\u12G' @"),
    (document(lines: [line("#000000", with: "#00⟪\t⟫00")]), "Invalid JSON: control character in a string @"),
    ("{\n  \"format\": \"touchtracker\",\n  \"version\": ⟪nul⟫\n}", "Invalid JSON: unexpected 'nul' @"),
    ("{\"é\": \"ü\", ⟪,⟫}", "Invalid JSON: unexpected ',' @"),
    (
      String(repeating: "[", count: 64) + "⟪[⟫" + String(repeating: "]", count: 65),
      "Invalid JSON: nesting deeper than 64 @"
    ),

    // Numbers a Double cannot hold.
    (document(lines: [line("\"x\":10", with: "\"x\":1e999")]), "Non-finite number at lines[0].begin.x"),
    (
      document(lines: [line, line, line, line("\"x\":10", with: "\"x\":-1E+999")]),
      "Non-finite number at lines[3].begin.x"
    ),
    (
      document(lines: [line("\"x\":10", with: "\"x\":" + String(repeating: "9", count: 400))]),
      "Non-finite number at lines[0].begin.x"
    ),
    (
      document(circles: [circle("\"radius\":20", with: "\"radius\":1e-999")]),
      "Number out of range '1e-999' at circles[0].radius"
    ),

    // JSON, but not a document.
    ("[]", "Expected an object"),
    ("null", "Expected an object"),
    (#"{"version":1,"lines":[],"circles":[]}"#, "Missing field 'format'"),
    (#"{"format":"foo","version":1,"lines":[],"circles":[]}"#, "Unsupported format 'foo'"),
    (#"{"format":"foo"}"#, "Unsupported format 'foo'"),
    (#"{"format":1,"version":1,"lines":[],"circles":[]}"#, "Expected a string at format"),
    (#"{"format":"touchtracker","lines":[],"circles":[]}"#, "Missing field 'version'"),
    (#"{"format":"touchtracker","version":2,"lines":[],"circles":[]}"#, "Unsupported version 2"),
    (#"{"format":"touchtracker","version":1.5,"lines":[],"circles":[]}"#, "Unsupported version 1.5"),
    (#"{"format":"touchtracker","version":"1","lines":[],"circles":[]}"#, "Expected a number at version"),
    (#"{"format":"touchtracker","version":1,"circles":[]}"#, "Missing field 'lines'"),
    (#"{"format":"touchtracker","version":1,"lines":[]}"#, "Missing field 'circles'"),
    (#"{"format":"touchtracker","version":1,"lines":{},"circles":[]}"#, "Expected an array at lines"),
    (#"{"format":"touchtracker","version":1,"lines":null,"circles":[]}"#, "Expected an array at lines"),
    (document(lines: ["5"]), "Expected an object at lines[0]"),
    (document(lines: [line, line("\"color\":\"#000000\",", with: "")]), "Missing field 'color' at lines[1]"),
    (document(lines: [line("\"y\":20", with: "\"z\":20")]), "Missing field 'y' at lines[0].begin"),
    (document(lines: [line("\"x\":10", with: "\"x\":\"10\"")]), "Expected a number at lines[0].begin.x"),
    (document(lines: [line("\"x\":30", with: "\"x\":null")]), "Expected a number at lines[0].end.x"),
    (document(lines: [line("\"x\":10", with: "\"x\":10,\"x\":11")]), "Duplicate key 'x' at lines[0].begin"),
    (#"{"\ud83d\ude00":1,"😀":2}"#, "Duplicate key '😀'"),
    (#"{"a\nb":{"\u00e9":1,"é":2}}"#, "Duplicate key 'é' at a\nb"),
    (document(lines: [line("#000000", with: "#000")]), "Invalid color '#000' at lines[0].color"),
    (document(circles: [circle, circle("#000000", with: "#12")]), "Invalid color '#12' at circles[1].color"),
    (document(circles: [circle("#000000", with: "red")]), "Invalid color 'red' at circles[0].color"),
    (
      document(circles: [circle("\"color\":\"#000000\"", with: "\"color\":0")]), "Expected a string at circles[0].color"
    ),
    (document(lines: [line("\"width\":10", with: "\"width\":0")]), "Non-positive width 0 at lines[0].width"),
    (document(lines: [line("\"width\":10", with: "\"width\":-2.5")]), "Non-positive width -2.5 at lines[0].width"),
    (document(circles: [circle("\"width\":10", with: "\"width\":-0")]), "Non-positive width 0 at circles[0].width"),
    (document(circles: [circle("\"radius\":20", with: "\"radius\":-5")]), "Negative radius -5 at circles[0].radius"),
  ]

  @Test(arguments: cases)
  func decodingRejectsTheDocumentWithAMessageNamingTheProblemAndWhere(document: String, message: String) {
    let (text, expected) = Self.resolveMarks(document, message)
    let error = #expect(throws: DocumentError.self) { try DocumentCodec.decode(Data(text.utf8)) }
    #expect(error?.description == expected)
  }

  @Test func textThatIsNotUTF8IsRejected() {
    var data = Data(Self.document().utf8)
    data[data.count - 5] = 0xff
    #expect(throws: DocumentError.invalidJSON("the text is not UTF-8")) { try DocumentCodec.decode(data) }
    #expect(DocumentError.invalidJSON("the text is not UTF-8").description == "Invalid JSON: the text is not UTF-8")
  }

  @Test func theValidDocumentOfTheseCasesDecodes() throws {
    let drawing = try DocumentCodec.decode(Data(Self.document().utf8))
    #expect(drawing.lines.count == 1 && drawing.circles.count == 1)
  }

  /// Removes the marks and puts their line and column into the message.
  static func resolveMarks(_ document: String, _ message: String) -> (text: String, message: String) {
    guard let mark = document.range(of: "⟪") else { return (document, message) }
    let before = document[..<mark.lowerBound]
    let line = before.filter { $0 == "\n" }.count + 1
    let column = before.count - (before.lastIndex(of: "\n").map { before[...$0].count } ?? 0) + 1
    let text = document.replacingOccurrences(of: "⟪", with: "").replacingOccurrences(of: "⟫", with: "")
    return (text, message.replacingOccurrences(of: "@", with: "at line \(line), column \(column)"))
  }
}
