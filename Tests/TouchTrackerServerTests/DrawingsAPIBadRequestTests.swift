import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TouchTrackerServer

/// Bad requests get a 400 or 413 with the reason, and never change the
/// stored drawing.
@Suite struct DrawingsAPIBadRequestTests {
  static let badDocuments: [(body: String, message: String)] = [
    ("", "Invalid JSON at line 1, column 1: unexpected end of input"),
    ("{", "Invalid JSON at line 1, column 2: expected a string key"),
    ("<html>", "Invalid JSON at line 1, column 1: unexpected character '<'"),
    (
      documentText(lines: 1).replacingOccurrences(of: "3.5", with: "NaN"),
      "Invalid JSON at line 1, column 81: non-finite number 'NaN'"
    ),
    (
      documentText(lines: 1).replacingOccurrences(of: "3.5", with: "Infinity"),
      "Invalid JSON at line 1, column 81: non-finite number 'Infinity'"
    ),
    (
      documentText(lines: 2).replacingOccurrences(of: "\"x\":1,", with: "\"x\":1e999,"),
      "Invalid JSON at line 1, column 61: number out of range '1e999'"
    ),
    (
      documentText(lines: 1).replacingOccurrences(of: "\"x\":1,", with: "\"x\":1e12,"),
      "Number out of range at lines[0].begin.x"
    ),
    (
      documentText(lines: 1).replacingOccurrences(of: "touchtracker", with: "foo"),
      "Unsupported format 'foo'; expected 'touchtracker'"
    ),
    (
      documentText(lines: 1).replacingOccurrences(of: "\"version\":1", with: "\"version\":2"),
      "Unsupported version 2; expected 1"
    ),
    (documentText(lines: 1, color: "#12"), "Invalid color '#12' at lines[0].color; expected '#rrggbb'"),
    (
      documentText(lines: 1).replacingOccurrences(of: "\"width\":10", with: "\"width\":0"),
      "Width must be positive at lines[0].width"
    ),
    (#"{"version":1,"lines":[]}"#, "Missing 'format' at the top level"),
  ]

  @Test(arguments: badDocuments)
  func aBadDocumentIs400WithTheReasonAndChangesNothing(body: String, message: String) async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/d", method: .put, body: documentText(lines: 1).buffer)
      try await client.execute(uri: "/api/drawings/d", method: .put, body: body.buffer) {
        #expect($0.status == .badRequest)
        let error = try JSONDecoder().decode([String: String].self, from: Data($0.body.readableBytesView))
        #expect(error == ["error": message])
      }
      try await client.execute(uri: "/api/drawings/d", method: .get) {
        #expect($0.text == storedDocumentText(lines: 1))
        #expect($0.headers[.eTag] == #""1""#)
      }
    }
  }

  @Test func aHundredThousandLineDrawingFits() async throws {
    try await TestServer.run { _, client in
      let body = documentText(lines: 100_000)
      try await client.execute(uri: "/api/drawings/big", method: .put, body: body.buffer) {
        #expect($0.status == .ok)
      }
      try await client.execute(uri: "/api/drawings", method: .get) {
        #expect($0.text.contains(#""lineCount":100000"#))
      }
      try await client.execute(uri: "/api/drawings/big", method: .get) {
        #expect($0.body.readableBytes == storedDocumentText(lines: 100_000).utf8.count)
      }
    }
  }
}
