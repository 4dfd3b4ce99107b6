import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TouchTrackerServer

/// Bad requests get a 400 or 413 with the reason, and never change the
/// stored drawing.
@Suite struct DrawingsAPIBadRequestTests {
  static let badDocuments: [(body: String, message: String)] = [
    ("", "Invalid JSON: unexpected end of text"),
    ("{", "Invalid JSON: unexpected end of text"),
    ("<html>", "Invalid JSON: unexpected '<' at line 1, column 1"),
    (
      documentText(lines: 1).replacingOccurrences(of: "3.5", with: "NaN"),
      "Invalid JSON: unexpected 'NaN' at line 1, column 81"
    ),
    (
      documentText(lines: 1).replacingOccurrences(of: "3.5", with: "Infinity"),
      "Invalid JSON: unexpected 'Infinity' at line 1, column 81"
    ),
    (
      documentText(lines: 2).replacingOccurrences(of: "\"x\":1,", with: "\"x\":1e999,"),
      "Non-finite number at lines[0].begin.x"
    ),
    (documentText(lines: 1).replacingOccurrences(of: "touchtracker", with: "foo"), "Unsupported format 'foo'"),
    (documentText(lines: 1).replacingOccurrences(of: "\"version\":1", with: "\"version\":2"), "Unsupported version 2"),
    (documentText(lines: 1, color: "#12"), "Invalid color '#12' at lines[0].color"),
    (
      documentText(lines: 1).replacingOccurrences(of: "\"width\":10", with: "\"width\":0"),
      "Non-positive width 0 at lines[0].width"
    ),
    (#"{"format":"touchtracker","version":1,"lines":[]}"#, "Missing field 'circles'"),
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

  @Test func aBodyOver32MiBIs413AndChangesNothing() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/d", method: .put, body: documentText(lines: 1).buffer)
      // Valid JSON padded with whitespace past the limit.
      let padding = String(repeating: " ", count: APIError.maximumBodySize)
      let body = (documentText(lines: 2) + padding).buffer
      try await client.execute(uri: "/api/drawings/d", method: .put, body: body) {
        #expect($0.status == .contentTooLarge)
        #expect($0.text == #"{"error":"Request body is larger than 32 MiB"}"#)
      }
      let declared: HTTPFields = [.contentLength: String(body.readableBytes)]
      try await client.execute(uri: "/api/drawings/d", method: .put, headers: declared, body: body) {
        #expect($0.status == .contentTooLarge)
      }
      try await client.execute(uri: "/api/drawings/d", method: .get) {
        #expect($0.text == storedDocumentText(lines: 1))
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
