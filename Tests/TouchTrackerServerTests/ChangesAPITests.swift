import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TouchTrackerCore

@testable import TouchTrackerServer

/// `POST /api/drawings/NAME/changes` and `GET .../changes?since=R`.
@Suite struct ChangesAPITests {
  /// A line object with an id, as the page sends it.
  static func lineJSON(_ id: Int, x: Double = 1) -> String {
    ##"{"id":\##(id),"begin":{"x":\##(x),"y":2},"end":{"x":3.5,"y":4},"color":"#FF8C00","width":10}"##
  }

  static func addJSON(_ ids: Int...) -> String {
    #"{"op":"add","lines":["# + ids.map { lineJSON($0) }.joined(separator: ",")
      + #"],"bounds":{"x":0,"y":0,"width":1,"height":1}}"#
  }

  static func body(_ changes: String...) -> String {
    #"{"changes":["# + changes.joined(separator: ",") + "]}"
  }

  static func line(_ id: UInt64) -> Line {
    Line(id: ShapeID(rawValue: id), begin: Point(x: 1, y: 2), end: Point(x: 3.5, y: 4), color: Color(hex: "#ff8c00")!)
  }

  /// The document the server should return after `changes`, from the core.
  static func document(after changes: [Change]) -> String {
    var drawing = Drawing()
    for change in changes { drawing.apply(change) }
    return DocumentCoder.encodeString(drawing)
  }

  static func error(_ response: TestResponse) throws -> String? {
    try JSONDecoder().decode([String: String].self, from: Data(response.body.readableBytesView))["error"]
  }

  @Test func postingChangesCreatesTheDrawingAndAnswersTheRevisionAfterTheLast() async throws {
    try await TestServer.run { _, client in
      try await client.execute(
        uri: "/api/drawings/d/changes", method: .post, headers: [.ifMatch: #""0""#],
        body: Self.body(Self.addJSON(1, 2)).buffer
      ) {
        #expect($0.status == .ok)
        #expect($0.text == #"{"revision":1}"#)
        #expect($0.headers[.eTag] == #""1""#)
        #expect($0.headers[.xRevision] == "1")
        #expect($0.headers[.contentType] == "application/json; charset=utf-8")
      }
      let move = #"{"op":"move","line":1,"begin":{"x":9,"y":9},"end":{"x":0,"y":0}}"#
      try await client.execute(
        uri: "/api/drawings/d/changes", method: .post, headers: [.ifMatch: #""1""#],
        body: Self.body(Self.addJSON(3), move, #"{"op":"delete","line":2}"#).buffer
      ) {
        #expect($0.text == #"{"revision":4}"#)
        #expect($0.headers[.eTag] == #""4""#)
      }
      let expected = Self.document(after: [
        .add(lines: [Self.line(1), Self.line(2)], circles: [], at: nil),
        .add(lines: [Self.line(3)], circles: [], at: nil),
        .moveLine(ShapeID(rawValue: 1), begin: Point(x: 9, y: 9), end: Point(x: 0, y: 0)),
        .deleteLine(ShapeID(rawValue: 2)),
      ])
      try await client.execute(uri: "/api/drawings/d", method: .get) {
        #expect($0.text == expected)
        #expect($0.headers[.eTag] == #""4""#)
      }
      try await client.execute(uri: "/api/drawings", method: .get) {
        #expect($0.text.contains(#""lineCount":2,"name":"d","revision":4"#))
      }
    }
  }

  @Test func aStaleIfMatchIs409WithTheRevisionAndAppendsNothing() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/d/changes", method: .post, body: Self.body(Self.addJSON(1)).buffer)
      try await client.execute(uri: "/api/drawings/d/changes", method: .post, body: Self.body(Self.addJSON(2)).buffer)
      try await client.execute(
        uri: "/api/drawings/d/changes", method: .post, headers: [.ifMatch: #""1""#],
        body: Self.body(#"{"op":"clear"}"#).buffer
      ) {
        #expect($0.status == .conflict)
        #expect($0.text == #"{"error":"Drawing 'd' is at revision 2, not 1","revision":2}"#)
      }
      try await client.execute(uri: "/api/drawings/d/changes?since=0", method: .get) {
        #expect($0.headers[.xRevision] == "2")
      }
    }
  }

  @Test func aRetryWithTheSameIdempotencyKeyAppendsNothing() async throws {
    try await TestServer.run { _, client in
      let headers: HTTPFields = [.ifMatch: #""0""#, .idempotencyKey: "tab-7_batch-1"]
      for _ in 0..<3 {
        try await client.execute(
          uri: "/api/drawings/d/changes", method: .post, headers: headers,
          body: Self.body(Self.addJSON(1), Self.addJSON(2)).buffer
        ) {
          #expect($0.status == .ok)
          #expect($0.text == #"{"revision":2}"#)
          #expect($0.headers[.eTag] == #""2""#)
        }
      }
      try await client.execute(uri: "/api/drawings/d/changes?since=0", method: .get) {
        #expect($0.text.hasSuffix(#"],"revision":2}"#))
      }
    }
  }

  @Test(arguments: ["", "has space", String(repeating: "k", count: 65), "é", "a/b"])
  func aBadIdempotencyKeyIs400(key: String) async throws {
    try await TestServer.run { _, client in
      try await client.execute(
        uri: "/api/drawings/d/changes", method: .post, headers: [.idempotencyKey: key],
        body: Self.body(Self.addJSON(1)).buffer
      ) {
        #expect($0.status == .badRequest)
        let error = try Self.error($0)
        #expect(error == "Invalid Idempotency-Key header '\(key)': use 1 to 64 letters, digits, '_' or '-'")
      }
      try await client.execute(uri: "/api/drawings/d", method: .get) { #expect($0.status == .notFound) }
    }
  }

  static let badBodies: [(body: String, message: String)] = [
    ("", "Invalid JSON at line 1, column 1: unexpected end of input"),
    ("[]", "Expected an object at the top level, found an array"),
    (#"{"changes":{}}"#, "changes"),
    (body(addJSON(1), #"{"op":"paint"}"#), "changes[1].op"),
    (
      body(##"{"op":"add","lines":[{"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":"#000000","width":10}]}"##),
      "changes[0].lines[0]"
    ),
    (
      body(addJSON(1), #"{"op":"add","lines":[\#(lineJSON(4, x: 1e12))]}"#),
      "Number out of range at changes[1].lines[0].begin.x"
    ),
    (body(#"{"op":"move","line":1,"begin":{"x":1,"y":2},"end":{"x":"3","y":4}}"#), "changes[0].end.x"),
    (body(#"{"op":"delete","line":0}"#), "changes[0].line"),
    (body(#"{"op":"delete"}"#), "changes[0]"),
    (body(addJSON(1).replacingOccurrences(of: "3.5", with: "NaN")), "non-finite number 'NaN'"),
    (body(addJSON(5, 5)), "Duplicate id 5 at changes[0].lines[1].id"),
    // Ids past 2^53 - 1 are named as sent, not as 9000000000000000000.
    (
      body(#"{"op":"delete","line":9223372036854775808}"#),
      "Invalid id 9223372036854775808 at changes[0].line; expected an integer from 1 to 9007199254740991"
    ),
    (
      body(addJSON(1).replacingOccurrences(of: #""id":1"#, with: #""id":18446744073709551616"#)),
      "Invalid id 18446744073709551616 at changes[0].lines[0].id; expected an integer from 1 to 9007199254740991"
    ),
    (
      body(#"{"op":"delete","circle":-9223372036854775808}"#),
      "Invalid id -9223372036854775808 at changes[0].circle"
    ),
  ]

  /// Every bad body is refused before the store is touched, naming the
  /// problem and where; the drawing stays as it was.
  @Test(arguments: badBodies)
  func aBadBodyIs400NamingWhereAndChangesNothing(body: String, message: String) async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/d/changes", method: .post, body: Self.body(Self.addJSON(1)).buffer)
      try await client.execute(uri: "/api/drawings/d/changes", method: .post, body: body.buffer) {
        #expect($0.status == .badRequest)
        let error = try #require(try Self.error($0))
        #expect(error.contains(message), "\(error)")
      }
      try await client.execute(uri: "/api/drawings/d/changes?since=0", method: .get) {
        #expect($0.headers[.xRevision] == "1")
      }
    }
  }

  @Test func aBodyOver32MiBIs413() async throws {
    try await TestServer.run { _, client in
      let body = (Self.body(Self.addJSON(1)) + String(repeating: " ", count: APIError.maximumBodySize)).buffer
      try await client.execute(uri: "/api/drawings/d/changes", method: .post, body: body) {
        #expect($0.status == .contentTooLarge)
        #expect($0.text == #"{"error":"Request body is larger than 32 MiB"}"#)
      }
      try await client.execute(uri: "/api/drawings/d", method: .get) { #expect($0.status == .notFound) }
    }
  }

  @Test func changesSinceARevisionAreTheStoredChangesInOrder() async throws {
    try await TestServer.run { _, client in
      try await client.execute(
        uri: "/api/drawings/d/changes", method: .post,
        body: Self.body(Self.addJSON(1), #"{"op":"delete","line":1}"#, #"{"op":"clear"}"#).buffer)
      let add = String(decoding: ChangeCoder.encode(.add(lines: [Self.line(1)], circles: [], at: nil)), as: UTF8.self)
      try await client.execute(uri: "/api/drawings/d/changes?since=1", method: .get) {
        #expect($0.status == .ok)
        #expect(
          $0.text
            == #"{"changes":[{"change":{"op":"delete","line":1},"revision":2},{"change":{"op":"clear"},"revision":3}],"revision":3}"#
        )
        #expect($0.headers[.eTag] == #""3""#)
        #expect($0.headers[.cacheControl] == "no-store")
      }
      try await client.execute(uri: "/api/drawings/d/changes?since=0", method: .get) {
        #expect($0.text.hasPrefix(#"{"changes":[{"change":\#(add),"revision":1},"#))
      }
      try await client.execute(uri: "/api/drawings/d/changes?since=3", method: .get) {
        #expect($0.text == #"{"changes":[],"revision":3}"#)
      }
      let get = try await client.execute(uri: "/api/drawings/d/changes?since=1", method: .get)
      try await client.execute(uri: "/api/drawings/d/changes?since=1", method: .head) {
        #expect($0.status == .ok)
        #expect($0.body.readableBytes == 0)
        #expect($0.headers[.contentLength] == String(get.body.readableBytes))
      }
    }
  }

  @Test func changesReplacedByADocumentOrAheadOfTheDrawingAre410() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/d/changes", method: .post, body: Self.body(Self.addJSON(1)).buffer)
      try await client.execute(uri: "/api/drawings/d/changes?since=5", method: .get) {
        #expect($0.status == .gone)
        #expect($0.text == #"{"error":"Drawing 'd' is at revision 1, behind 5; read the whole document","revision":1}"#)
      }
      try await client.execute(uri: "/api/drawings/d", method: .put, body: documentText(lines: 2).buffer)
      try await client.execute(uri: "/api/drawings/d/changes?since=1", method: .get) {
        #expect($0.status == .gone)
        #expect(
          $0.text
            == #"{"error":"The changes of drawing 'd' after revision 1 were compacted into its document (at revision 2); read the whole document","revision":2}"#
        )
      }
      try await client.execute(uri: "/api/drawings/d/changes?since=2", method: .get) {
        #expect($0.text == #"{"changes":[],"revision":2}"#)
      }
    }
  }

  @Test func changesOfAMissingOrDeletedDrawingAre404() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/d/changes?since=0", method: .get) {
        #expect($0.status == .notFound)
        #expect($0.text == #"{"error":"No drawing named 'd'"}"#)
      }
      try await client.execute(uri: "/api/drawings/d/changes", method: .post, body: Self.body(Self.addJSON(1)).buffer)
      try await client.execute(uri: "/api/drawings/d", method: .delete) { #expect($0.status == .noContent) }
      try await client.execute(uri: "/api/drawings/d/changes?since=1", method: .get) { #expect($0.status == .notFound) }
    }
  }

  @Test(arguments: [
    ("", "Missing query parameter 'since': the revision the client has, like ?since=3"),
    ("?since=", "Invalid query parameter since='': expected a revision like 3"),
    ("?since=-1", "Invalid query parameter since='-1': expected a revision like 3"),
    ("?since=two", "Invalid query parameter since='two': expected a revision like 3"),
    ("?since=99999999999999999999", "Invalid query parameter since='99999999999999999999': expected a revision like 3"),
  ])
  func aMissingOrBadSinceIs400(query: String, message: String) async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/d/changes", method: .post, body: Self.body(Self.addJSON(1)).buffer)
      try await client.execute(uri: "/api/drawings/d/changes\(query)", method: .get) {
        #expect($0.status == .badRequest)
        let error = try Self.error($0)
        #expect(error == message)
      }
    }
  }

  @Test func badNamesAndIfMatchAre400() async throws {
    try await TestServer.run { _, client in
      try await client.execute(
        uri: "/api/drawings/bad%20name/changes", method: .post, body: Self.body(Self.addJSON(1)).buffer
      ) {
        #expect($0.status == .badRequest)
      }
      try await client.execute(
        uri: "/api/drawings/d/changes", method: .post, headers: [.ifMatch: "soon"],
        body: Self.body(Self.addJSON(1)).buffer
      ) {
        #expect($0.status == .badRequest)
        let error = try Self.error($0)
        #expect(error == #"Invalid If-Match header 'soon': expected a revision like "3""#)
      }
      try await client.execute(uri: "/api/drawings/d", method: .get) { #expect($0.status == .notFound) }
    }
  }

  @Test func optionsOnChangesSaysWhatIsAllowed() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/d/changes", method: .options) {
        #expect($0.status == .noContent)
        #expect($0.headers[.allow] == "GET, HEAD, POST, OPTIONS")
      }
    }
  }

  @Test func appendingFromAnotherOriginOrHostIsRefused() async throws {
    try await TestServer.run { _, client in
      try await client.execute(
        uri: "/api/drawings/d/changes", method: .post,
        headers: [.hostHeader: "127.0.0.1:8080", .origin: "http://evil.example"],
        body: Self.body(Self.addJSON(1)).buffer
      ) {
        #expect($0.status == .forbidden)
      }
      try await client.execute(
        uri: "/api/drawings/d/changes", method: .post, headers: [.hostHeader: "rebind.attacker.example"],
        body: Self.body(Self.addJSON(1)).buffer
      ) {
        #expect($0.status == .misdirectedRequest)
      }
      try await client.execute(
        uri: "/api/drawings/d/changes", method: .post,
        headers: [.hostHeader: "localhost:8080", .origin: "http://localhost:8080"],
        body: Self.body(Self.addJSON(1)).buffer
      ) {
        #expect($0.status == .ok)
      }
    }
  }

  /// The list reads summary columns only: a drawing whose document is
  /// damaged still lists (and is never served).
  @Test func aDamagedDocumentDoesNotBreakTheList() async throws {
    try await TestServer.run { server, client in
      try await client.execute(uri: "/api/drawings/a", method: .put, body: documentText(lines: 2).buffer)
      try await client.execute(uri: "/api/drawings/b", method: .put, body: documentText(lines: 3).buffer)
      try await damage(drawing: "a", in: server.databasePath)
      try await client.execute(uri: "/api/drawings", method: .get) {
        #expect($0.status == .ok)
        #expect($0.text.contains(#""lineCount":2,"name":"a""#) && $0.text.contains(#""lineCount":3,"name":"b""#))
      }
      try await client.execute(uri: "/api/drawings/a", method: .get) { #expect($0.status == .internalServerError) }
    }
  }
}
