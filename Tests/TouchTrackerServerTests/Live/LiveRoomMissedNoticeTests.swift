import Foundation
import Testing
import TouchTrackerCore
import TouchTrackerStore

@testable import TouchTrackerServer

/// A server that may have missed another server's notices (its listener
/// was reconnecting, or not yet listening) looks at the drawing itself
/// (`heard(nil)`). When the drawing is gone, its clients must still learn
/// what happened, as a client joining then would: deleted is `reset` to
/// revision 0, renamed is `renamed`. They were sent nothing and waited.
@Suite struct LiveRoomMissedNoticeTests {
  static func room(_ body: (SQLiteDrawingStore, LiveRoom, LiveOutbox) async throws -> Void) async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("touchtracker-missed-\(UUID()).sqlite")
      .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let store = try SQLiteDrawingStore(path: path)
    let name = try DrawingName("d")
    let line = Line(id: ShapeID(rawValue: 7), begin: Point(x: 1, y: 2), end: Point(x: 3, y: 4))
    _ = try await store.append([.add(lines: [line], circles: [], at: nil)], to: name, ifRevision: 0, key: "k1")
    let room = LiveRoom(name: name, store: store, limits: LiveLimits())
    let outbox = LiveOutbox(limits: LiveLimits()) { _ in }
    room.add(outbox)
    try await room.join(outbox, since: 1, by: "0000000b")
    #expect(await LiveRoomRetryTests.messages(outbox) == [#"{"type":"welcome","revision":1}"#])
    try await body(store, room, outbox)
  }

  @Test func aDeleteWhoseNoticeWasMissedResetsTheClientsToRevisionZero() async throws {
    try await Self.room { store, room, outbox in
      let deleted = try await store.delete(DrawingName("d"), ifRevision: 1)
      #expect(deleted)
      await room.heard(nil)
      #expect(await LiveRoomRetryTests.messages(outbox) == [#"{"type":"reset","revision":0}"#])
    }
  }

  @Test func aRenameWhoseNoticeWasMissedSendsTheClientsToTheNewName() async throws {
    try await Self.room { store, room, outbox in
      let renamed = try await store.rename(DrawingName("d"), to: DrawingName("e"), ifRevision: 1)
      #expect(renamed != nil)
      await room.heard(nil)
      let messages = await LiveRoomRetryTests.messages(outbox)
      #expect(messages.first?.hasPrefix(#"{"type":"renamed","name":"e","shift":"#) == true, "\(messages)")
    }
  }
}
