import NIOConcurrencyHelpers
import TouchTrackerStore

/// The live rooms of one server, one per drawing in use: by a connection,
/// or by a request that changes the drawing (`POST .../changes`, `PUT`,
/// `DELETE`), so that everything that moves a drawing's revision passes
/// through its room's gate (`LiveRoom`). A room lives while it is used and
/// is dropped after; the next use makes a new one.
///
/// In-process only: a second server process on the same database would
/// append without telling this one's clients.
final class LiveRooms: Sendable {
  let store: any DrawingStorage
  let limits: LiveLimits
  private let rooms = NIOLockedValueBox<[DrawingName: (room: LiveRoom, users: Int)]>([:])

  init(store: any DrawingStorage, limits: LiveLimits = LiveLimits()) {
    self.store = store
    self.limits = limits
  }

  /// Runs `body` with the room of `name`, which stays while it runs.
  func withRoom<T>(_ name: DrawingName, _ body: (LiveRoom) async throws -> T) async rethrows -> T {
    let room = enter(name)
    defer { leave(name) }
    return try await body(room)
  }

  /// The number of rooms in use (for tests).
  var count: Int { rooms.withLockedValue { $0.count } }

  private func enter(_ name: DrawingName) -> LiveRoom {
    rooms.withLockedValue { rooms in
      if let entry = rooms[name] {
        rooms[name]!.users += 1
        return entry.room
      }
      let room = LiveRoom(name: name, store: store, limits: limits)
      rooms[name] = (room, 1)
      return room
    }
  }

  private func leave(_ name: DrawingName) {
    rooms.withLockedValue { rooms in
      guard let entry = rooms[name] else { return }
      if entry.users <= 1 { rooms[name] = nil } else { rooms[name]!.users -= 1 }
    }
  }
}
