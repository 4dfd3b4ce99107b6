import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TouchTrackerServer

/// Access control on (`--access-control`): every drawing route needs the
/// admin token or the drawing's edit or view link, as `Authorization:
/// Bearer KEY`; without one the answer is the 404 of a drawing that does
/// not exist, and nothing changes.
@Suite struct AccessControlTests {
  static let admin = String(repeating: "A", count: 31) + "a"

  static func run(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
    try await TestServer.run(configure: { $0.accessControl = AccessControl(adminToken: admin) }) { _, client in
      try await body(client)
    }
  }

  static func bearer(_ key: String?) -> HTTPFields {
    guard let key else { return [:] }
    return [.authorization: "Bearer \(key)"]
  }

  /// Makes drawing `d` (two lines) as the admin and returns its links.
  static func drawingWithLinks(_ client: any TestClientProtocol) async throws -> (edit: String, view: String) {
    try await client.execute(
      uri: "/api/drawings/d", method: .put, headers: bearer(admin), body: documentText(lines: 2).buffer
    ) { #expect($0.status == .ok) }
    return try await client.execute(uri: "/api/drawings/d/links", method: .get, headers: bearer(admin)) { response in
      #expect(response.status == .ok)
      let object = try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: String]
      #expect(object?["access"] == "admin")
      return (try #require(object?["edit"]), try #require(object?["view"]))
    }
  }

  static func stored(_ client: any TestClientProtocol) async throws -> String {
    try await client.execute(uri: "/api/drawings/d", method: .get, headers: bearer(admin)) { $0.text }
  }

  static let routes: [(String, HTTPRequest.Method, String?)] = [
    ("/api/drawings/d", .get, nil),
    ("/api/drawings/d", .head, nil),
    ("/api/drawings/d", .put, documentText(lines: 5)),
    ("/api/drawings/d", .delete, nil),
    ("/api/drawings/d/changes?since=0", .get, nil),
    ("/api/drawings/d/changes", .post, #"{"changes":[{"op":"clear"}]}"#),
    ("/api/drawings/d/links", .get, nil),
    ("/api/drawings/d/links", .post, nil),
    ("/api/drawings/d/live", .get, nil),
  ]

  @Test(arguments: [nil, "wrong", String(repeating: "B", count: 32), "Basic xyz"])
  func withoutAKeyEveryDrawingRouteAnswersAsIfThereWereNoDrawingAndChangesNothing(key: String?) async throws {
    try await Self.run { client in
      _ = try await Self.drawingWithLinks(client)
      let before = try await Self.stored(client)
      for (uri, method, body) in Self.routes {
        let headers: HTTPFields = key == "Basic xyz" ? [.authorization: "Basic xyz"] : Self.bearer(key)
        try await client.execute(uri: uri, method: method, headers: headers, body: body.map { $0.buffer }) { response in
          #expect(response.status == .notFound, "\(method) \(uri)")
          if method != .head { #expect(response.text == #"{"error":"No drawing named 'd'"}"#, "\(method) \(uri)") }
        }
      }
      // The same answer as for a name nobody uses, so a guess learns nothing.
      try await client.execute(uri: "/api/drawings/nobody", method: .get) {
        #expect($0.status == .notFound && $0.text == #"{"error":"No drawing named 'nobody'"}"#)
      }
      #expect(try await Self.stored(client) == before)
    }
  }

  @Test func listingNeedsTheAdminToken() async throws {
    try await Self.run { client in
      let (edit, view) = try await Self.drawingWithLinks(client)
      for key in [nil, edit, view] {
        try await client.execute(uri: "/api/drawings", method: .get, headers: Self.bearer(key)) {
          #expect($0.status == .forbidden)
          #expect($0.text == #"{"error":"Listing drawings needs the admin token (printed when the server started)"}"#)
        }
      }
      try await client.execute(uri: "/api/drawings", method: .get, headers: Self.bearer(Self.admin)) {
        #expect($0.status == .ok && $0.text.contains(#""name":"d""#))
      }
    }
  }

  @Test func aViewLinkReadsButEveryWriteIsRefusedAndNothingStored() async throws {
    try await Self.run { client in
      let (_, view) = try await Self.drawingWithLinks(client)
      let before = try await Self.stored(client)
      try await client.execute(uri: "/api/drawings/d", method: .get, headers: Self.bearer(view)) {
        #expect($0.status == .ok && $0.text == before)
      }
      try await client.execute(uri: "/api/drawings/d/changes?since=1", method: .get, headers: Self.bearer(view)) {
        #expect($0.status == .ok)
      }
      try await client.execute(uri: "/api/drawings/d/links", method: .get, headers: Self.bearer(view)) {
        #expect($0.status == .ok && $0.text == #"{"access":"view","view":"\#(view)"}"#)
      }
      for (uri, method, body) in Self.routes where method == .put || method == .post {
        try await client.execute(uri: uri, method: method, headers: Self.bearer(view), body: body.map { $0.buffer }) {
          #expect($0.status == .forbidden, "\(method) \(uri)")
        }
      }
      try await client.execute(uri: "/api/drawings/d", method: .put, headers: Self.bearer(view), body: "{}".buffer) {
        #expect($0.text == #"{"error":"This link to 'd' is view-only: it cannot change the drawing"}"#)
      }
      try await client.execute(uri: "/api/drawings/d", method: .delete, headers: Self.bearer(view)) {
        #expect($0.status == .forbidden)
      }
      #expect(try await Self.stored(client) == before)
    }
  }

  @Test func anEditLinkReadsAndWritesItsDrawingOnlyAndCannotDeleteIt() async throws {
    try await Self.run { client in
      let (edit, view) = try await Self.drawingWithLinks(client)
      try await client.execute(
        uri: "/api/drawings/d/changes", method: .post, headers: Self.bearer(edit),
        body: #"{"changes":[{"op":"clear"}]}"#.buffer
      ) { #expect($0.status == .ok && $0.text == #"{"revision":2}"#) }
      try await client.execute(
        uri: "/api/drawings/d", method: .put, headers: Self.bearer(edit), body: documentText(lines: 1).buffer
      ) { #expect($0.status == .ok) }
      try await client.execute(uri: "/api/drawings/d/links", method: .get, headers: Self.bearer(edit)) {
        #expect($0.text == #"{"access":"edit","edit":"\#(edit)","view":"\#(view)"}"#)
      }
      try await client.execute(uri: "/api/drawings/d", method: .delete, headers: Self.bearer(edit)) {
        #expect($0.status == .forbidden)
        #expect($0.text == #"{"error":"Deleting a drawing needs the admin token (printed when the server started)"}"#)
      }
      try await client.execute(uri: "/api/drawings/d/links", method: .post, headers: Self.bearer(edit)) {
        #expect($0.status == .forbidden)
      }
      // Another drawing's links open nothing here.
      try await client.execute(uri: "/api/drawings/e", method: .put, headers: Self.bearer(edit), body: "{}".buffer) {
        #expect($0.status == .notFound)
      }
      #expect(try await Self.stored(client) == storedDocumentText(lines: 1))
    }
  }

  @Test func rotatingTheLinksRevokesTheOldOnes() async throws {
    try await Self.run { client in
      let (edit, view) = try await Self.drawingWithLinks(client)
      let rotated = try await client.execute(
        uri: "/api/drawings/d/links", method: .post, headers: Self.bearer(Self.admin)
      ) {
        #expect($0.status == .ok)
        return $0.text
      }
      #expect(!rotated.contains(edit) && !rotated.contains(view))
      for key in [edit, view] {
        try await client.execute(uri: "/api/drawings/d", method: .get, headers: Self.bearer(key)) {
          #expect($0.status == .notFound)
        }
      }
    }
  }

  @Test func deletingADrawingRevokesItsLinks() async throws {
    try await Self.run { client in
      let (edit, _) = try await Self.drawingWithLinks(client)
      try await client.execute(uri: "/api/drawings/d", method: .delete, headers: Self.bearer(Self.admin)) {
        #expect($0.status == .noContent)
      }
      _ = try await Self.drawingWithLinks(client)
      try await client.execute(uri: "/api/drawings/d", method: .get, headers: Self.bearer(edit)) {
        #expect($0.status == .notFound)
      }
    }
  }

  @Test func withAccessControlOffLinksAreMadeAndEveryoneMayDoAnything() async throws {
    try await TestServer.run { _, client in
      let text = try await client.execute(uri: "/api/drawings/d/links", method: .get) { $0.text }
      #expect(
        text.range(
          of: #"^\{"access":"open","edit":"[A-Za-z0-9_-]{32}","view":"[A-Za-z0-9_-]{32}"\}$"#,
          options: .regularExpression) != nil)
      try await client.execute(uri: "/api/drawings/d", method: .put, body: documentText(lines: 1).buffer) {
        #expect($0.status == .ok)
      }
      try await client.execute(uri: "/api/drawings", method: .get) { #expect($0.status == .ok) }
    }
  }

  @Test func theBearerKeyIsReadFromTheAuthorizationHeaderOnly() {
    #expect(AccessCheck.bearerKey("Bearer abc") == "abc")
    #expect(AccessCheck.bearerKey("bearer  abc ") == "abc")
    #expect(AccessCheck.bearerKey("Basic abc") == nil)
    #expect(AccessCheck.bearerKey("Bearer") == nil)
    #expect(AccessCheck.bearerKey(nil) == nil)
  }
}
