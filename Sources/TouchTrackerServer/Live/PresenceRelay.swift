import NIOConcurrencyHelpers
import TouchTrackerCore
import TouchTrackerStore

/// Lines in progress (presence) between servers on one database: what a
/// room relays to its own clients also goes, through the store's
/// `broadcast` (PostgreSQL's `NOTIFY`), to the rooms of the same drawing on
/// the other servers, and from theirs to this server's.
///
/// Presence is frequent (up to 30 messages a second a client) and never
/// stored, so it is sent in batches: what this server's clients sent is
/// kept, the newest per drawing and client, and every `interval` goes out
/// in as few broadcasts as fit (`payloads`). A notice per message would
/// contend for PostgreSQL's notify lock with every commit.
///
/// A server that stops sending stops being heard: every server broadcasts
/// at least every `heartbeat`, and the people of a server not heard for
/// `silence` leave the screens of this server's clients (a killed server
/// says nothing, and its clients' lines in progress would stay otherwise).
///
/// A broadcast is `{"o":"ORIGIN","p":[ENTRY, ...]}`, each entry
/// `{"d":"NAME","b":"CLIENT","lines":[LINE, ...]}` (the lines as a
/// `presence` message has them), or without `lines` when that client left.
final class PresenceRelay: Sendable {
  /// This server's id in what it sends: another server's broadcasts come
  /// back to it too, and are told apart by it.
  let origin: String
  private let send: @Sendable (String) async throws -> Void
  private let show: @Sendable (DrawingName, String, [PresenceLine]?) -> Void
  private let state = NIOLockedValueBox(State())
  let interval: Duration
  let heartbeat: Duration
  let silence: Duration

  private struct State {
    /// What this server's clients sent since the last batch: the newest per
    /// drawing and client (nil: left), in the order first sent.
    var outgoing: [Key: [PresenceLine]?] = [:]
    var order: [Key] = []
    var lastSent = ContinuousClock.now
    /// Each other server heard: when last, and whom of its clients this
    /// server's rooms were shown drawing.
    var servers: [String: Server] = [:]
  }

  private struct Server {
    var heardAt: ContinuousClock.Instant
    var drawing: Set<Key> = []
  }

  struct Key: Hashable, Sendable {
    let name: DrawingName
    let client: String
  }

  /// - Parameters:
  ///   - send: Broadcasts a payload (`DrawingStorage.broadcast`).
  ///   - show: Shows another server's client `CLIENT` drawing `lines` (nil:
  ///     it left) to the clients of drawing `NAME` here, if any.
  init(
    origin: String = PresenceRelay.randomOrigin(), interval: Duration = .milliseconds(25),
    heartbeat: Duration = .seconds(1), silence: Duration = .seconds(4),
    send: @escaping @Sendable (String) async throws -> Void,
    show: @escaping @Sendable (DrawingName, String, [PresenceLine]?) -> Void
  ) {
    self.origin = origin
    self.interval = interval
    self.heartbeat = heartbeat
    self.silence = silence
    self.send = send
    self.show = show
  }

  /// 16 hexadecimal digits, random.
  static func randomOrigin() -> String {
    var generator = SystemRandomNumberGenerator()
    let value = generator.next() as UInt64
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// Client `client` of drawing `name` here draws `lines` now (nil: it left).
  func relay(_ name: DrawingName, client: String, lines: [PresenceLine]?) {
    let key = Key(name: name, client: client)
    state.withLockedValue { state in
      if state.outgoing.updateValue(lines, forKey: key) == nil { state.order.append(key) }
    }
  }

  /// Hears `broadcasts` (every server's, this one's too) and sends this
  /// server's batches and heartbeats, until the stream ends (the store
  /// closed) or the task is cancelled.
  func run(_ broadcasts: AsyncStream<String>) async {
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        for await payload in broadcasts { self.hear(payload) }
      }
      group.addTask {
        while !Task.isCancelled {
          try? await Task.sleep(for: self.interval)
          await self.tick()
        }
      }
      // The broadcasts ended: so does the sending.
      await group.next()
      group.cancelAll()
    }
  }

  /// Sends what waits (or a heartbeat when due) and forgets servers gone silent.
  func tick(now: ContinuousClock.Instant = .now) async {
    let (payloads, gone) = state.withLockedValue { state -> ([String], [Key]) in
      var payloads: [String] = []
      if !state.order.isEmpty || now - state.lastSent >= heartbeat {
        let entries = state.order.map { ($0, state.outgoing[$0] ?? nil) }
        payloads = Self.payloads(origin: origin, entries: entries)
        state.outgoing = [:]
        state.order = []
        state.lastSent = now
      }
      var gone: [Key] = []
      for (server, heard) in state.servers where now - heard.heardAt >= silence {
        gone.append(contentsOf: heard.drawing)
        state.servers[server] = nil
      }
      return (payloads, gone)
    }
    for key in gone { show(key.name, key.client, nil) }
    for payload in payloads {
      // Best effort: presence lost is sent again with the next move.
      try? await send(payload)
    }
  }

  /// A broadcast heard: another server's entries go to this server's rooms.
  func hear(_ payload: String, now: ContinuousClock.Instant = .now) {
    guard let root = try? JSONParser.parse(payload), case .string(let from) = root["o"], from != origin,
      case .array(let entries) = root["p"]
    else { return }
    var heard: [(Key, [PresenceLine]?)] = []
    for entry in entries {
      guard case .string(let nameText) = entry["d"], let name = try? DrawingName(nameText),
        case .string(let client) = entry["b"], ClientMessage.isClientID(client)
      else { continue }
      let key = Key(name: name, client: client)
      if entry["lines"] == nil {
        heard.append((key, nil))
      } else if let lines = try? PresenceLine.lines(in: entry) {
        heard.append((key, lines))
      }
    }
    state.withLockedValue { state in
      var server = state.servers[from] ?? Server(heardAt: now)
      server.heardAt = now
      for (key, lines) in heard {
        if let lines, !lines.isEmpty { server.drawing.insert(key) } else { server.drawing.remove(key) }
      }
      state.servers[from] = server
    }
    for (key, lines) in heard { show(key.name, key.client, lines) }
  }

  /// `entries` as broadcasts of at most `limit` bytes each, in order; an
  /// entry too long alone (64 lines of long numbers) keeps the lines that fit.
  static func payloads(
    origin: String, entries: [(Key, [PresenceLine]?)], limit: Int = maximumBroadcastLength
  ) -> [String] {
    let head = #"{"o":"\#(origin)","p":["#
    let tail = "]}"
    var payloads: [String] = []
    var current = ""
    func close() {
      payloads.append(head + current + tail)
      current = ""
    }
    for (key, lines) in entries {
      var entry = Self.entry(key, lines)
      var kept = lines?.count ?? 0
      while head.utf8.count + entry.utf8.count + tail.utf8.count > limit, kept > 0 {
        kept /= 2
        entry = Self.entry(key, Array((lines ?? []).prefix(kept)))
      }
      if !current.isEmpty, head.utf8.count + current.utf8.count + 1 + entry.utf8.count + tail.utf8.count > limit {
        close()
      }
      current += (current.isEmpty ? "" : ",") + entry
    }
    if !current.isEmpty || payloads.isEmpty { close() }  // an empty one is the heartbeat
    return payloads
  }

  private static func entry(_ key: Key, _ lines: [PresenceLine]?) -> String {
    let named = #"{"d":"\#(key.name.rawValue)","b":"\#(key.client)""#
    guard let lines else { return named + "}" }
    return named + #","lines":\#(PresenceLine.json(lines))}"#
  }
}
