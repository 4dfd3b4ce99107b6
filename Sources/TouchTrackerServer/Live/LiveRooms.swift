import NIOConcurrencyHelpers
import TouchTrackerStore

/// The live rooms of one server, one per drawing in use: by a connection,
/// or by a request that changes the drawing (`POST .../changes`, `PUT`,
/// `DELETE`), so that everything that moves a drawing's revision passes
/// through its room's gate (`LiveRoom`). A room lives while it is used and
/// is dropped after; the next use makes a new one.
///
/// Several servers on one database: when the store has notices of other
/// servers' writes (`DrawingStorage.notices`, PostgreSQL's LISTEN/NOTIFY),
/// each notice goes to the room of its drawing, if this server has one,
/// which brings its clients up to date (`LiveRoom.heard`); a nil notice
/// ("some may have been missed", after the listening connection was made
/// again) goes to every room. Lines in progress go between the servers'
/// rooms too, through the store's broadcasts (`PresenceRelay`).
final class LiveRooms: Sendable {
  let store: any DrawingStorage
  let limits: LiveLimits
  /// Where the sockets' messages are counted (`/metrics`).
  let metrics: ServerMetrics
  private let rooms = NIOLockedValueBox<[DrawingName: (room: LiveRoom, users: Int)]>([:])
  private let listener: Task<Void, Never>?
  let presenceRelay: PresenceRelay?
  private let relaying: Task<Void, Never>?

  init(store: any DrawingStorage, limits: LiveLimits = LiveLimits(), metrics: ServerMetrics = ServerMetrics()) {
    self.store = store
    self.limits = limits
    self.metrics = metrics
    let rooms = rooms
    if let broadcasts = store.broadcasts() {
      let relay = PresenceRelay(
        send: { [store] payload in try await store.broadcast(payload) },
        show: { name, by, lines in
          rooms.withLockedValue { $0[name]?.room }?.showRemote(by: by, lines: lines)
        })
      presenceRelay = relay
      relaying = Task { await relay.run(broadcasts) }
    } else {
      presenceRelay = nil
      relaying = nil
    }
    guard let notices = store.notices() else {
      listener = nil
      return
    }
    listener = Task {
      for await notice in notices {
        let targets = rooms.withLockedValue { rooms -> [LiveRoom] in
          guard let notice else { return rooms.values.map(\.room) }
          guard let name = try? DrawingName(notice.name), let entry = rooms[name] else { return [] }
          return [entry.room]
        }
        // Each room handles its notices in the order heard, under its own
        // gate; rooms do not wait for each other.
        for room in targets { room.hear(notice) }
      }
    }
  }

  deinit {
    listener?.cancel()
    relaying?.cancel()
  }

  /// Runs `body` with the room of `name`, which stays while it runs.
  func withRoom<T>(_ name: DrawingName, _ body: (LiveRoom) async throws -> T) async rethrows -> T {
    let room = enter(name)
    defer { leave(name) }
    return try await body(room)
  }

  /// The number of rooms in use (`/metrics`, tests).
  var count: Int { rooms.withLockedValue { $0.count } }

  /// The sockets in all rooms (`/metrics`).
  var clientCount: Int { rooms.withLockedValue { $0.values.reduce(0) { $0 + $1.users } } }

  private func enter(_ name: DrawingName) -> LiveRoom {
    rooms.withLockedValue { rooms in
      if let entry = rooms[name] {
        rooms[name]!.users += 1
        return entry.room
      }
      let room = LiveRoom(name: name, store: store, limits: limits, presenceRelay: presenceRelay)
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
