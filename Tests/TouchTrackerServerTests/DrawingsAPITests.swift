import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TouchTrackerServer

@Suite struct DrawingsAPITests {
  @Test func theListIsEmptyAtFirst() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings", method: .get) { response in
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == "application/json; charset=utf-8")
        #expect(response.text == "[]")
      }
    }
  }

  @Test func putCreatesADrawingThatGetReturnsExactlyWithItsRevision() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/default", method: .put, body: documentText(lines: 2).buffer) {
        #expect($0.status == .ok)
        #expect($0.text == #"{"revision":1}"#)
        #expect($0.headers[.eTag] == #""1""#)
        #expect($0.headers[.xRevision] == "1")
      }
      try await client.execute(uri: "/api/drawings/default", method: .get) { response in
        #expect(response.status == .ok)
        #expect(response.text == storedDocumentText(lines: 2))
        #expect(response.headers[.contentType] == "application/json; charset=utf-8")
        #expect(response.headers[.eTag] == #""1""#)
        #expect(response.headers[.xRevision] == "1")
      }
    }
  }

  @Test func putWithTheCurrentRevisionInIfMatchSavesTheNextRevision() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/d", method: .put, body: documentText(lines: 1).buffer)
      for (ifMatch, revision) in [(#""1""#, 2), (#"W/"2""#, 3), ("3", 4)] {
        try await client.execute(
          uri: "/api/drawings/d", method: .put, headers: [.ifMatch: ifMatch], body: documentText(lines: revision).buffer
        ) {
          #expect($0.status == .ok)
          #expect($0.text == #"{"revision":\#(revision)}"#)
        }
      }
      try await client.execute(uri: "/api/drawings/d", method: .get) {
        #expect($0.text == storedDocumentText(lines: 4))
      }
    }
  }

  @Test func putWithAStaleRevisionIsAConflictThatLeavesTheDrawingAlone() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/d", method: .put, body: documentText(lines: 1).buffer)
      try await client.execute(uri: "/api/drawings/d", method: .put, body: documentText(lines: 2).buffer)
      try await client.execute(
        uri: "/api/drawings/d", method: .put, headers: [.ifMatch: #""1""#], body: documentText(lines: 9).buffer
      ) {
        #expect($0.status == .conflict)
        #expect($0.text == #"{"error":"Drawing 'd' is at revision 2, not 1","revision":2}"#)
      }
      try await client.execute(uri: "/api/drawings/d", method: .get) {
        #expect($0.text == storedDocumentText(lines: 2))
        #expect($0.headers[.eTag] == #""2""#)
      }
    }
  }

  @Test func putWithARevisionForADrawingThatDoesNotExistIsAConflict() async throws {
    try await TestServer.run { _, client in
      try await client.execute(
        uri: "/api/drawings/new", method: .put, headers: [.ifMatch: #""3""#], body: documentText(lines: 1).buffer
      ) {
        #expect($0.status == .conflict)
        #expect($0.text == #"{"error":"Drawing 'new' does not exist, expected revision 3","revision":0}"#)
      }
      try await client.execute(uri: "/api/drawings/new", method: .get) { #expect($0.status == .notFound) }
    }
  }

  @Test func theListShowsEachDrawingsRevisionAndCounts() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/b", method: .put, body: documentText(lines: 3).buffer)
      try await client.execute(uri: "/api/drawings/a", method: .put, body: documentText(lines: 1).buffer)
      try await client.execute(uri: "/api/drawings/a", method: .put, body: documentText(lines: 2).buffer)
      try await client.execute(uri: "/api/drawings", method: .get) { response in
        struct Entry: Decodable, Equatable {
          var name: String
          var revision: Int
          var lineCount: Int
          var circleCount: Int
          var updatedAt: Date
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let entries = try decoder.decode([Entry].self, from: Data(response.body.readableBytesView))
        #expect(entries.map(\.name) == ["a", "b"])
        #expect(entries.map(\.revision) == [2, 1])
        #expect(entries.map(\.lineCount) == [2, 3])
        #expect(entries.map(\.circleCount) == [0, 0])
        #expect(entries.allSatisfy { abs($0.updatedAt.timeIntervalSinceNow) < 60 })
      }
    }
  }

  @Test func deleteRemovesTheDrawing() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/d", method: .put, body: documentText(lines: 1).buffer)
      try await client.execute(uri: "/api/drawings/d", method: .delete) {
        #expect($0.status == .noContent)
        #expect($0.body.readableBytes == 0)
      }
      try await client.execute(uri: "/api/drawings/d", method: .get) { #expect($0.status == .notFound) }
      try await client.execute(uri: "/api/drawings/d", method: .delete) { #expect($0.status == .notFound) }
    }
  }

  @Test func deleteWithAStaleRevisionIsAConflictThatKeepsTheDrawing() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/d", method: .put, body: documentText(lines: 1).buffer)
      try await client.execute(uri: "/api/drawings/d", method: .put, body: documentText(lines: 2).buffer)
      try await client.execute(uri: "/api/drawings/d", method: .delete, headers: [.ifMatch: #""1""#]) {
        #expect($0.status == .conflict)
        #expect($0.text == #"{"error":"Drawing 'd' is at revision 2, not 1","revision":2}"#)
      }
      try await client.execute(uri: "/api/drawings/d", method: .get) { #expect($0.status == .ok) }
      try await client.execute(uri: "/api/drawings/d", method: .delete, headers: [.ifMatch: #""2""#]) {
        #expect($0.status == .noContent)
      }
    }
  }

  @Test func anUnknownDrawingIs404() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/nothing", method: .get) {
        #expect($0.status == .notFound)
        #expect($0.text == #"{"error":"No drawing named 'nothing'"}"#)
      }
    }
  }

  @Test func anUnknownEndpointIsAJSON404() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/a/b", method: .get) {
        #expect($0.status == .notFound)
        #expect($0.text == #"{"error":"No such endpoint: GET /api/drawings/a/b"}"#)
      }
    }
  }

  @Test(arguments: [
    ("a.b", "a.b"), ("a%20b", "a b"), ("%C3%A9", "é"),
    (String(repeating: "x", count: 65), String(repeating: "x", count: 65)),
  ])
  func anInvalidNameIs400NamingTheName(path: String, name: String) async throws {
    try await TestServer.run { _, client in
      let message = #"{"error":"Invalid drawing name '\#(name)': use 1 to 64 letters, digits, '_' or '-'"}"#
      for method in [HTTPRequest.Method.get, .put, .delete] {
        try await client.execute(uri: "/api/drawings/\(path)", method: method, body: documentText(lines: 1).buffer) {
          #expect($0.status == .badRequest)
          #expect($0.text == message)
        }
      }
    }
  }

  @Test func anInvalidIfMatchIs400() async throws {
    try await TestServer.run { _, client in
      try await client.execute(
        uri: "/api/drawings/d", method: .put, headers: [.ifMatch: "*"], body: documentText(lines: 1).buffer
      ) {
        #expect($0.status == .badRequest)
        #expect($0.text == #"{"error":"Invalid If-Match header '*': expected a revision like \"3\""}"#)
      }
    }
  }

  /// A revision is ASCII digits, at most 18 of them (as the contract's
  /// pattern): Swift's `Int` alone also takes a sign.
  @Test(arguments: ["+3", "\"+3\"", "W/\"+3\"", "-0", "\"-0\"", "1234567890123456789", "\"\"", "3 4"])
  func anIfMatchThatIsNotDigitsIs400NamingIt(value: String) async throws {
    try await TestServer.run { _, client in
      try await client.execute(
        uri: "/api/drawings/d", method: .put, headers: [.ifMatch: value], body: documentText(lines: 1).buffer
      ) {
        #expect($0.status == .badRequest)
        let body = try JSONSerialization.jsonObject(with: Data($0.text.utf8)) as? [String: Any]
        #expect(body?["error"] as? String == "Invalid If-Match header '\(value)': expected a revision like \"3\"")
      }
    }
  }
}
