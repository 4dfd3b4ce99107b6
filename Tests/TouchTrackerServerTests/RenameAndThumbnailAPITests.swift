import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TouchTrackerCore
import TouchTrackerStore

@testable import TouchTrackerServer

/// `POST /api/drawings/NAME/rename` and `GET /api/drawings/NAME/thumbnail`
/// (issue 10: drawings you can manage).
@Suite struct RenameAndThumbnailAPITests {
  static func rename(
    _ client: any TestClientProtocol, _ from: String, _ body: String, headers: HTTPFields = [:]
  ) async throws -> (HTTPResponse.Status, String) {
    try await client.execute(
      uri: "/api/drawings/\(from)/rename", method: .post, headers: headers, body: ByteBuffer(string: body)
    ) { ($0.status, $0.text) }
  }

  @Test func aRenamedDrawingKeepsItsDocumentLogAndRevision() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/d", method: .put, body: documentText(lines: 1).buffer)
      try await Live.post(client, #"{"changes":[\#(Live.add([9]))]}"#)
      // (Reading the document would fold the log into it in the background: read only after.)
      let (status, text) = try await Self.rename(client, "d", #"{"name":"e"}"#, headers: [.ifMatch: #""2""#])
      #expect(status == .ok)
      #expect(text == #"{"name":"e","previousRevision":2,"revision":2}"#)
      try await client.execute(uri: "/api/drawings/e/changes?since=1", method: .get) {
        #expect($0.status == .ok)
        #expect($0.text.contains(#""id":9"#) && $0.text.hasSuffix(#""revision":2}],"revision":2}"#))
      }
      try await client.execute(uri: "/api/drawings/e", method: .get) {
        let document = try JSONSerialization.jsonObject(with: Data($0.text.utf8)) as? [String: Any]
        #expect((document?["lines"] as? [Any])?.count == 2)
        #expect($0.headers[.eTag] == #""2""#)
      }
      try await client.execute(uri: "/api/drawings/d", method: .get) { #expect($0.status == .notFound) }
      try await client.execute(uri: "/api/drawings", method: .get) {
        #expect($0.text.contains(#""name":"e""#) && !$0.text.contains(#""name":"d""#))
      }
    }
  }

  /// A page that missed the rename (offline, its socket down) asks for the
  /// old name: the 404, and the 409 of a stale write, say where the drawing
  /// went and how far its revisions moved.
  @Test func theOldNameAnswersWhereTheDrawingWent() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/e", method: .put, body: documentText(lines: 1).buffer)
      try await client.execute(uri: "/api/drawings/e", method: .delete)  // e's tombstone at 2
      try await client.execute(uri: "/api/drawings/d", method: .put, body: documentText(lines: 1).buffer)
      #expect(try await Self.rename(client, "d", #"{"name":"e"}"#).0 == .ok)
      try await client.execute(uri: "/api/drawings/d", method: .get) {
        #expect($0.status == .notFound)
        #expect($0.text == #"{"error":"No drawing named 'd'","renamedTo":"e","shift":2}"#)
      }
      try await client.execute(
        uri: "/api/drawings/d/changes", method: .post, headers: [.ifMatch: #""1""#],
        body: ByteBuffer(string: #"{"changes":[\#(Live.add([9]))]}"#)
      ) {
        #expect($0.status == .conflict)
        #expect(
          $0.text
            == #"{"error":"Drawing 'd' does not exist, expected revision 1","renamedTo":"e","revision":0,"shift":2}"#)
      }
      // Changes merge by id with no revision to be stale against; `If-Match: *` says the
      // drawing exists, so the old name answers where it went instead of starting a new drawing.
      try await client.execute(
        uri: "/api/drawings/d/changes", method: .post, headers: [.ifMatch: "*", .idempotencyKey: "k-1"],
        body: ByteBuffer(string: #"{"changes":[\#(Live.add([9]))]}"#)
      ) {
        #expect($0.status == .notFound)
        #expect($0.text == #"{"error":"No drawing named 'd'","renamedTo":"e","shift":2}"#)
      }
      try await client.execute(
        uri: "/api/drawings/e/changes", method: .post, headers: [.ifMatch: #""3""#],
        body: ByteBuffer(string: #"{"changes":[\#(Live.add([9]))]}"#)
      ) { #expect($0.status == .ok, "revision 1 under d is 3 under e") }
      try await client.execute(
        uri: "/api/drawings/d", method: .put, headers: [.ifMatch: #""1""#], body: documentText(lines: 1).buffer
      ) {
        #expect($0.status == .conflict)
        #expect($0.text.contains(#""renamedTo":"e","revision":0,"shift":2}"#), "a stale PUT too")
      }
      try await client.execute(uri: "/api/drawings/nobody", method: .get) {
        #expect($0.text == #"{"error":"No drawing named 'nobody'"}"#)
      }
    }
  }

  @Test func aRenameIsRefusedWithAReasonAndChangesNothing() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/d", method: .put, body: documentText(lines: 1).buffer)
      try await client.execute(uri: "/api/drawings/taken", method: .put, body: documentText(lines: 2).buffer)
      let refusals: [(String, HTTPFields, HTTPResponse.Status, String)] = [
        (
          #"{"name":"taken"}"#, [:], .conflict,
          #"{"error":"A drawing named 'taken' already exists: choose another name"}"#
        ),
        (#"{"name":"d"}"#, [:], .conflict, #"{"error":"A drawing named 'd' already exists: choose another name"}"#),
        (
          #"{"name":"a b"}"#, [:], .badRequest,
          #"{"error":"Invalid drawing name 'a b': use 1 to 64 letters, digits, '_' or '-'"}"#
        ),
        (#"{"to":"e"}"#, [:], .badRequest, #"{"error":"A rename needs the new name as the body {\"name\": \"NEW\"}"}"#),
        ("e", [:], .badRequest, #"{"error":"A rename needs the new name as the body {\"name\": \"NEW\"}"}"#),
        (
          #"{"name":"e"}"#, [.ifMatch: #""7""#], .conflict,
          #"{"error":"Drawing 'd' is at revision 1, not 7","revision":1}"#
        ),
      ]
      for (body, headers, status, error) in refusals {
        let answer = try await Self.rename(client, "d", body, headers: headers)
        #expect(answer == (status, error), "\(body)")
      }
      #expect(
        try await Self.rename(client, "nobody", #"{"name":"e"}"#) == (
          .notFound, #"{"error":"No drawing named 'nobody'"}"#
        ))
      try await client.execute(uri: "/api/drawings/d", method: .get) {
        #expect($0.text == storedDocumentText(lines: 1))
      }
      try await client.execute(uri: "/api/drawings/taken", method: .get) {
        #expect($0.text == storedDocumentText(lines: 2))
      }
      try await client.execute(uri: "/api/drawings/e", method: .get) { #expect($0.status == .notFound) }
    }
  }

  /// Whoever watches the old name live is told the new one and let go;
  /// whoever watches the new name starts over there.
  @Test func liveClientsOfTheOldNameAreToldTheNewOne() async throws {
    try await Live.run { port, http in
      try await Live.post(http, #"{"changes":[\#(Live.add([1]))]}"#)
      try await LiveTestClient.live(port: port, since: 1) { old in
        #expect(try await old.receive() == .text(#"{"type":"welcome","revision":1}"#))
        try await LiveTestClient.live(port: port, drawing: "e", since: 0, client: "0000000b") { new in
          #expect(try await new.receive() == .text(#"{"type":"welcome","revision":0}"#))
          let (status, _) = try await Self.rename(http, "d", #"{"name":"e"}"#)
          #expect(status == .ok)
          let (messages, close) = try await old.untilClosed()
          #expect(messages == [#"{"type":"renamed","name":"e","shift":0}"#])
          #expect(close == .close(code: 1000, reason: ""))
          #expect(try await new.receive() == .text(#"{"type":"reset","revision":1}"#))
        }
      }
    }
  }

  /// The router matches a path with a trailing slash or doubled slashes as
  /// the plain one: an edit link must not rename through them either.
  @Test func anEditLinkCannotRenameThroughAnotherSpellingOfThePath() async throws {
    try await AccessControlTests.run { client in
      let links = try await AccessControlTests.drawingWithLinks(client)
      for uri in ["/api/drawings/d/rename/", "/api/drawings/d//rename", "/api/drawings/d/rename//"] {
        let status = try await client.execute(
          uri: uri, method: .post, headers: AccessControlTests.bearer(links.edit),
          body: ByteBuffer(string: #"{"name":"e"}"#)
        ) { $0.status }
        #expect(status != .ok, "\(uri) answered 200")
      }
      try await client.execute(
        uri: "/api/drawings/d", method: .get, headers: AccessControlTests.bearer(links.edit)
      ) { #expect($0.status == .ok, "the drawing is still where its links point") }
    }
  }

  /// A socket that never said hello (so never showed a key) learns nothing
  /// of a rename: it is closed without the new name.
  @Test func aSocketThatNeverSaidHelloIsNotToldTheNewName() async throws {
    try await Live.run { port, http in
      try await Live.post(http, #"{"changes":[\#(Live.add([1]))]}"#)
      try await LiveTestClient.connect(port: port, path: "/api/drawings/d/live") { silent in
        #expect(silent.isUpgraded)
        try await LiveTestClient.live(port: port, since: 1) { joined in
          #expect(try await joined.receive() == .text(#"{"type":"welcome","revision":1}"#))
          let (status, _) = try await Self.rename(http, "d", #"{"name":"e"}"#)
          #expect(status == .ok)
          #expect(try await joined.untilClosed().messages == [#"{"type":"renamed","name":"e","shift":0}"#])
        }
        let (messages, _) = try await silent.untilClosed()
        #expect(messages == [], "the new name went to a socket that showed no key")
      }
    }
  }

  @Test func renamingNeedsTheAdminAndKeepsTheLinks() async throws {
    try await AccessControlTests.run { client in
      let links = try await AccessControlTests.drawingWithLinks(client)
      for key in [links.edit, links.view] {
        let (status, text) = try await Self.rename(
          client, "d", #"{"name":"e"}"#, headers: AccessControlTests.bearer(key))
        #expect(status == .forbidden)
        if key == links.edit { #expect(text.contains("Renaming a drawing needs the admin token")) }
      }
      let (status, _) = try await Self.rename(
        client, "d", #"{"name":"e"}"#, headers: AccessControlTests.bearer(AccessControlTests.admin))
      #expect(status == .ok)
      // The drawing's links open it under its new name, and nothing under the old one.
      try await client.execute(
        uri: "/api/drawings/e", method: .get, headers: AccessControlTests.bearer(links.edit)
      ) { #expect($0.text == storedDocumentText(lines: 2)) }
      try await client.execute(
        uri: "/api/drawings/d", method: .get, headers: AccessControlTests.bearer(links.edit)
      ) { #expect($0.status == .notFound) }
    }
  }

  @Test func aThumbnailIsASmallPictureCachedByRevision() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/d", method: .put, body: documentText(lines: 3).buffer)
      let svg = try await client.execute(uri: "/api/drawings/d/thumbnail?revision=1", method: .get) { response in
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == "image/svg+xml")
        #expect(response.headers[.eTag] == #""1""#)
        #expect(response.headers[.cacheControl] == "private, max-age=31536000, immutable")
        return response.text
      }
      #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 120 90\""))
      #expect(svg.contains("stroke=\"#ff8c00\""), "the lines, in their color")
      #expect(svg.hasSuffix("</svg>"))
      // Not the current revision: revalidated, not kept.
      try await client.execute(uri: "/api/drawings/d/thumbnail", method: .get) {
        #expect($0.headers[.cacheControl] == "private, no-cache")
        #expect($0.text == svg)
      }
      try await client.execute(
        uri: "/api/drawings/d/thumbnail", method: .get, headers: [.ifNoneMatch: #""1""#]
      ) {
        #expect($0.status == .notModified)
        #expect($0.text.isEmpty)
      }
      try await client.execute(uri: "/api/drawings/d", method: .put, body: documentText(lines: 0).buffer)
      try await client.execute(
        uri: "/api/drawings/d/thumbnail", method: .get, headers: [.ifNoneMatch: #""1""#]
      ) {
        #expect($0.status == .ok)
        #expect($0.headers[.eTag] == #""2""#)
        #expect($0.text != svg)
      }
      try await client.execute(uri: "/api/drawings/nobody/thumbnail", method: .get) {
        #expect($0.status == .notFound)
      }
    }
  }

  /// The picture's size is bounded whatever the drawing's: a scribble of
  /// many lines over the same few pixels is written once, and at most
  /// `segmentLimit` shapes are written.
  @Test func aThumbnailIsBoundedWhateverTheDrawing() async throws {
    var drawing = Drawing()
    for i in 0..<10_000 {
      let x = Double(i % 5000) * 2
      drawing.lines.append(Line(begin: Point(x: x, y: 0), end: Point(x: x, y: Double(i % 7) * 300)))
    }
    let svg = Thumbnail.svg(of: drawing)
    let segments = svg.components(separatedBy: "M").count - 1
    #expect(segments <= Thumbnail.segmentLimit)
    #expect(svg.utf8.count < 200_000)
    // Many lines onto the same spot: one segment.
    let same = Drawing(lines: Array(repeating: Line(begin: Point(x: 0, y: 0), end: Point(x: 100, y: 100)), count: 500))
    #expect(Thumbnail.svg(of: same).components(separatedBy: "M").count - 1 == 1)
    #expect(
      Thumbnail.placeholder(
        for: DrawingSummary(
          name: try DrawingName("big"), revision: 1, updatedAt: Date(), lineCount: 30_000, circleCount: 0)
      ).contains(">30000 lines<"))
    #expect(
      !Thumbnail.draws(
        DrawingSummary(name: try DrawingName("big"), revision: 1, updatedAt: Date(), lineCount: 30_000, circleCount: 0))
    )
  }
}
