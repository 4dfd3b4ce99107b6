import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TouchTrackerServer

/// The live socket with access control on: the key travels in `hello`
/// (a browser cannot set headers on a WebSocket).
@Suite struct LiveAccessTests {
  static let admin = AccessControlTests.admin

  static func run(_ body: @escaping @Sendable (Int, any TestClientProtocol) async throws -> Void) async throws {
    try await Live.run(configure: { $0.accessControl = AccessControl(adminToken: admin) }, body)
  }

  static func hello(key: String?, client: String = "0000000a") -> String {
    let key = key.map { #","key":"\#($0)""# } ?? ""
    // Since 1: `drawingWithLinks` made the drawing with a PUT (revision 1).
    return #"{"type":"hello","since":1,"client":"\#(client)"\#(key)}"#
  }

  static func connect(
    _ port: Int, key: String?, client: String = "0000000a", _ body: (LiveTestClient) async throws -> Void
  ) async throws {
    try await LiveTestClient.connect(port: port, path: "/api/drawings/d/live") { socket in
      #expect(socket.isUpgraded)
      try await socket.send(hello(key: key, client: client))
      try await body(socket)
    }
  }

  @Test(arguments: [nil, "wrong", String(repeating: "B", count: 32)])
  func helloWithoutAKeyThatOpensTheDrawingIsRefusedAndTheSocketClosed(key: String?) async throws {
    try await Self.run { port, http in
      let (_, _) = try await AccessControlTests.drawingWithLinks(http)
      try await Self.connect(port, key: key) { socket in
        let (messages, close) = try await socket.untilClosed()
        #expect(
          messages == [
            #"{"type":"error","error":"No drawing named 'd' for this key in message 1: hello needs the link's key"}"#
          ])
        #expect(close == .close(code: 1008, reason: ""))
      }
    }
  }

  @Test func aViewLinkSeesTheEditLinksChangesLiveAndCannotSendAny() async throws {
    try await Self.run { port, http in
      let (edit, view) = try await AccessControlTests.drawingWithLinks(http)
      let before = try await AccessControlTests.stored(http)
      try await Self.connect(port, key: view, client: "0000000b") { viewer in
        _ = try await viewer.message(ofType: "welcome")
        try await Self.connect(port, key: edit, client: "0000000a") { editor in
          _ = try await editor.message(ofType: "welcome")
          try await editor.send(Live.changes(key: "e1", Live.add([7])))
          let ack = try await editor.message(ofType: "ack").message
          #expect(ack["revision"] as? Int == 2)
          let seen = try await viewer.message(ofType: "changes").message
          #expect(seen["revision"] as? Int == 2 && seen["by"] as? String == "0000000a")
        }
        let after = try await AccessControlTests.stored(http)
        #expect(after != before)
        try await viewer.send(Live.changes(key: "v1", Live.add([9])))
        let (messages, close) = try await viewer.untilClosed()
        #expect(
          messages.last
            == #"{"type":"error","error":"Message 2 is 'changes' from a view-only link: it cannot change the drawing"}"#
        )
        #expect(close == .close(code: 1008, reason: ""))
        #expect(try await AccessControlTests.stored(http) == after)
      }
    }
  }

  /// The heartbeat: every client may ping (a view link too, before its
  /// hello too) and gets a pong at once, so a page learns within its
  /// deadline that the connection is dead when none comes.
  @Test func aPingIsAnsweredPongForAViewLinkToo() async throws {
    try await Self.run { port, http in
      let (_, view) = try await AccessControlTests.drawingWithLinks(http)
      try await Self.connect(port, key: view) { viewer in
        _ = try await viewer.message(ofType: "welcome")
        try await viewer.send(#"{"type":"ping"}"#)
        #expect(try await viewer.receive() == .text(#"{"type":"pong"}"#))
        try await viewer.send(#"{"type":"ping"}"#)
        #expect(try await viewer.receive() == .text(#"{"type":"pong"}"#))
      }
    }
  }

  @Test func aViewLinkCannotSendPresence() async throws {
    try await Self.run { port, http in
      let (_, view) = try await AccessControlTests.drawingWithLinks(http)
      try await Self.connect(port, key: view) { viewer in
        _ = try await viewer.message(ofType: "welcome")
        try await viewer.send(#"{"type":"presence","lines":[]}"#)
        let (messages, close) = try await viewer.untilClosed()
        #expect(messages.last?.contains("'presence' from a view-only link") == true)
        #expect(close == .close(code: 1008, reason: ""))
      }
    }
  }

  @Test func rotatingTheLinksClosesSocketsOpenedWithThemButNotTheAdmins() async throws {
    try await Self.run { port, http in
      let (edit, _) = try await AccessControlTests.drawingWithLinks(http)
      try await Self.connect(port, key: Self.admin, client: "0000000a") { owner in
        _ = try await owner.message(ofType: "welcome")
        try await Self.connect(port, key: edit, client: "0000000b") { guest in
          _ = try await guest.message(ofType: "welcome")
          try await http.execute(
            uri: "/api/drawings/d/links", method: .post, headers: AccessControlTests.bearer(Self.admin)
          ) { #expect($0.status == .ok) }
          let (messages, close) = try await guest.untilClosed()
          #expect(messages.last == #"{"type":"error","error":"The links to this drawing were replaced"}"#)
          #expect(close == .close(code: 1008, reason: ""))
        }
        // The admin's socket is still in the room: it hears the guest leave, then draws on.
        _ = try await owner.message(ofType: "leave")
        try await owner.send(Live.changes(key: "o1", Live.add([3])))
        #expect(try await owner.message(ofType: "ack").message["key"] as? String == "o1")
      }
    }
  }

  @Test func theHellosKeyIsOptionalAndMustBeAString() throws {
    #expect(
      try ClientMessage.decode(Array(#"{"type":"hello","since":0,"client":"0000000a","key":"k"}"#.utf8))
        == .hello(since: 0, client: "0000000a", key: "k"))
    #expect(throws: LiveError("Invalid key at key: expected the link's key as a string")) {
      try ClientMessage.decode(Array(#"{"type":"hello","since":0,"client":"0000000a","key":7}"#.utf8))
    }
  }
}
