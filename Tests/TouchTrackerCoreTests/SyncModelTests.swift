import Foundation
import Testing
import TouchKitTestSupport
import TouchTrackerTestSupport

@testable import TouchTrackerCore

/// Random schedules of people drawing on one drawing through the sync
/// client (`Sync/`) and a server in miniature: they draw, delete, move,
/// undo, redo and clear, go offline, reload, crash, the server is killed
/// and restarted, its log folded. After every schedule, once everyone is
/// back: everyone shows the server's drawing, nothing the server
/// acknowledged is lost, no shape deleted by one person comes back through
/// another, and replaying each browser's copy gives what it shows.
///
/// `TOUCHTRACKER_SYNC_SCHEDULES` runs more than the CI's share.
@Suite struct SyncModelTests {
  /// The server: one log of batches by key, the revision, a snapshot below which the log is folded.
  final class Server {
    struct Batch {
      let revision: Int  // of its last change
      let key: String?
      let changes: [Change]
      let device: Int
    }
    var log: [Batch] = []
    var snapshot = Drawing()
    var snapshotRevision = 0
    var revision = 0
    /// Every key appended, with its device and revision.
    var keys: [(key: String, device: Int, revision: Int)] = []

    var drawing: Drawing {
      var drawing = snapshot
      for batch in log { for change in batch.changes { drawing.apply(change) } }
      return drawing
    }

    /// Folds the log into the snapshot: clients behind it read the drawing again.
    func compact() {
      snapshot = drawing
      snapshotRevision = revision
      log.removeAll()
    }

    func append(key: String, changes: [Change], device: Int) -> (revision: Int, appended: Bool) {
      if let known = keys.first(where: { $0.key == key }) { return (known.revision, false) }
      revision += changes.count
      log.append(Batch(revision: revision, key: key, changes: changes, device: device))
      keys.append((key, device, revision))
      return (revision, true)
    }
  }

  /// How often the schedules reached the paths that matter, so a change to
  /// the model cannot quietly stop exploring them.
  struct Reached {
    var withdrawn = 0
    var readAgain = 0
    var reloadedOnServer = 0
    var reloadedOffline = 0
    var resent = 0
  }

  /// One browser: the app, its sync client, its copy (a base and a journal), its socket's queues.
  final class Device {
    let index: Int
    var app = TouchTrackerApp()
    var client: SyncClient
    var time = 0.0
    var visit: UInt32
    /// This browser's copy.
    var base = Drawing()
    var baseRevision: Int?
    var journal: [SyncJournal.Entry] = []
    /// The socket: connected, said hello, and what travels each way.
    var online = false
    /// Said hello and was welcomed or is being: the server sends it others' changes.
    var joined = false
    var toServer: [SyncMessage.Outbound] = []
    var fromServer: [SyncMessage] = []
    /// Shapes others' changes took out of this page, and any this page's own undo or redo added again.
    var othersRemoved: [ShapeID] = []
    var reached = Reached()
    var keysSent: [String] = []
    var broughtBack: [ShapeID] = []

    init(index: Int, visit: UInt32) {
      self.index = index
      self.visit = visit
      client = SyncClient(client: PageHost.hex(visit))
      app.drawView.model.publishesChanges = true
      app.drawView.model.setIDOrigin(visit)
    }

    func tick() -> Double {
      time += 1
      return time
    }

    /// Carries out what the client said: the drawing's part at once, the copy's, the socket's.
    func run(_ server: Server) {
      for effect in client.takeEffects() {
        switch effect {
        case .receive(let changes):
          let before = ids
          app.drawView.receiveChanges(changes)
          let after = ids
          // Removed by others and not back (someone's undo may bring back a shape they deleted themselves).
          othersRemoved = othersRemoved.filter { !after.contains($0) } + before.filter { !after.contains($0) }
        case .confirm(let count): app.drawView.model.confirmChanges(count)
        case .withdraw(let count):
          reached.withdrawn += 1
          app.drawView.withdrawChanges(count)
        case .restore(let changes): app.drawView.restorePending(changes)
        case .keep(let entry): journal.append(entry)
        case .rebase:
          base = app.drawView.model.sharedState.base
          baseRevision = client.revision
          journal = client.pendingJournal
        case .hello(let since): if online { toServer.append(.hello(since: since)) }
        case .send(let key, let changes):
          if keysSent.contains(key) { reached.resent += 1 } else { keysSent.append(key) }
          if online { toServer.append(.changes(key: key, changes: changes)) }
        case .fetchDocument:
          // Read at once (the model's GET): the server's drawing, then what is pending on top.
          reached.readAgain += 1
          app.drawView.load(server.drawing)
          client.replaced(revision: server.revision)
          run(server)
        case .pull: Issue.record("no pull over the socket")
        case .replaced: break
        }
      }
    }

    func collect(_ server: Server) {
      let taken = app.drawView.model.takeChanges().map(\.change)
      for change in taken {
        guard case .add(let lines, let circles, _) = change else { continue }
        broughtBack += (lines.map(\.id) + circles.map(\.id)).filter { othersRemoved.contains($0) }
      }
      client.took(taken)
      run(server)
    }

    var ids: [ShapeID] { app.drawing.lines.map(\.id) + app.drawing.circles.map(\.id) }

    func connect(_ server: Server) {
      guard !online else { return }
      online = true
      client.socketOpened()
      run(server)
    }

    func disconnect(_ server: Server) {
      online = false
      joined = false
      toServer.removeAll()
      fromServer.removeAll()
      client.socketClosed()
      run(server)
    }

    /// A reload (or, `crashed`, a crash that lost what was not sent yet): a
    /// new page from this browser's copy, on the server's drawing when online.
    func reload(_ server: Server, visit: UInt32, crashed: Bool, onServer: Bool) {
      if crashed, let last = journal.lastIndex(where: { if case .batch = $0 { true } else { false } }) {
        // Changes never sent were not written yet: lost with the tab (never acknowledged).
        journal = journal.enumerated().filter { index, entry in
          if case .own = entry { return index <= last }
          return true
        }.map(\.element)
      }
      online = false
      joined = false
      toServer.removeAll()
      fromServer.removeAll()
      self.visit = visit
      app = TouchTrackerApp()
      app.drawView.model.publishesChanges = true
      app.drawView.model.setIDOrigin(visit)
      othersRemoved = []
      client = SyncClient(client: PageHost.hex(visit))
      if onServer { reached.reloadedOnServer += 1 } else { reached.reloadedOffline += 1 }
      if onServer {
        app.drawView.load(server.drawing)
        client.restore(journal, baseRevision: baseRevision, serverRevision: server.revision)
      } else {
        app.drawView.load(base)
        client.restore(journal, baseRevision: baseRevision)
      }
      app.drawView.model.setIDOrigin(visit)
      run(server)
      // What the copy's replay took out was this page's history, not others' changes: undo starts afresh.
      othersRemoved = []
    }
  }

  struct Schedule {
    var random: SplitMix64
    let server = Server()
    var devices: [Device] = []
    var visits: UInt32 = 0

    init(seed: UInt64, clients: Int) {
      random = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 17)
      for index in 0..<clients {
        visits += 1
        let device = Device(index: index, visit: visits)
        device.client.opened(revision: 0)
        _ = device.client.takeEffects()
        device.journal = []
        device.baseRevision = 0
        devices.append(device)
      }
    }

    mutating func point() -> Point {
      Point(x: Double(random.next() % 700) + 50, y: Double(random.next() % 500) + 50)
    }

    /// The server takes the oldest message of `device`.
    func serve(_ device: Device) {
      guard device.online, !device.toServer.isEmpty else { return }
      switch device.toServer.removeFirst() {
      case .hello(let since):
        if since < server.snapshotRevision || since > server.revision {
          device.fromServer.append(.reset(revision: server.revision))
          device.joined = false
          return
        }
        for batch in server.log where batch.revision > since {
          device.fromServer.append(.changes(revision: batch.revision, key: batch.key, changes: batch.changes))
        }
        device.fromServer.append(.welcome(revision: server.revision))
        device.joined = true
      case .changes(let key, let changes):
        let (revision, appended) = server.append(key: key, changes: changes, device: device.index)
        device.fromServer.append(.ack(key: key, revision: revision))
        guard appended else { return }
        for other in devices where other !== device && other.online && other.joined {
          other.fromServer.append(.changes(revision: revision, key: key, changes: changes))
        }
      }
    }

    func deliver(_ device: Device) {
      guard !device.fromServer.isEmpty else { return }
      device.client.handle(device.fromServer.removeFirst())
      device.run(server)
    }

    /// Prints each step (`TOUCHTRACKER_SYNC_SEED`: one schedule, told step by step).
    var verbose = false

    mutating func step() throws {
      let device = devices[Int(random.next() % UInt64(devices.count))]
      let app = device.app
      let action = random.next() % 24
      defer {
        if verbose {
          print(
            "device \(device.index) action \(action): online \(device.online) revision \(device.client.revision ?? -1)"
              + " pending \(device.client.pending) drawing \(SyncModelTests.summary(device.app.drawing))"
              + " removed by others \(device.othersRemoved.map(\.rawValue))")
        }
      }
      switch action {
      case 0, 1, 2:
        try app.drawLine(from: point(), to: point(), at: device.tick())
        app.settle()
      case 3:
        app.undo()
      case 4:
        app.redo()
      case 5:
        if let line = device.app.drawing.lines.randomElement(using: &random) {
          try app.tap(at: middle(of: line), time: device.tick())
          app.settle()
          try? app.tap(title: "Delete", at: device.tick())
        }
      case 6:
        if let line = device.app.drawing.lines.randomElement(using: &random) {
          let from = middle(of: line)
          let start = device.tick()
          try app.send([began(1, from.x, from.y)], at: start)
          app.advanceClock(to: start + 0.6)
          try app.send([moved(1, from.x + 30, from.y - 20)], at: start + 0.7)
          try app.send([ended(1, from.x + 30, from.y - 20)], at: start + 0.8)
          app.settle()
        }
      case 7:
        if random.next() % 6 == 0 {
          let start = device.tick()
          try app.tap(at: Point(x: 700, y: 550), time: start)
          try app.tap(at: Point(x: 700, y: 550), time: start + 0.1)
          app.settle()
        }
      case 8, 9:
        device.client.flush()
        device.run(server)
      case 10, 11, 12: serve(device)
      case 13, 14, 15: deliver(device)
      case 16: if device.online { device.disconnect(server) } else { device.connect(server) }
      case 17: device.connect(server)
      case 18:
        if random.next() % 3 == 0 {
          visits += 1
          device.reload(server, visit: visits, crashed: random.next() % 2 == 0, onServer: random.next() % 2 == 0)
        }
      case 19:
        // The server killed and restarted: every socket drops, what it stored stays.
        if random.next() % 4 == 0 { for each in devices where each.online { each.disconnect(server) } }
      case 20:
        if random.next() % 3 == 0 { server.compact() }
      default:
        device.connect(server)
        serve(device)
        deliver(device)
      }
      device.collect(server)
    }

    /// Everyone back online until nothing moves.
    func settle() throws {
      for device in devices {
        device.collect(server)
        device.connect(server)
      }
      for _ in 0..<10_000 {
        var moved = false
        for device in devices {
          device.client.flush()
          device.run(server)
          while !device.toServer.isEmpty {
            serve(device)
            moved = true
          }
          while !device.fromServer.isEmpty {
            deliver(device)
            moved = true
          }
        }
        if !moved { return }
      }
      Issue.record("the schedule never settled")
    }
  }

  /// A drawing as ids and where each shape is: short enough to read in a failure.
  static func summary(_ drawing: Drawing) -> [String] {
    drawing.lines.map { "\($0.id.rawValue)@\(Int($0.begin.x)),\(Int($0.begin.y))" }
      + drawing.circles.map { "c\($0.id.rawValue)@\(Int($0.center.x)),\(Int($0.center.y))" }
  }

  static var scheduleCount: Int {
    Int(ProcessInfo.processInfo.environment["TOUCHTRACKER_SYNC_SCHEDULES"] ?? "") ?? 2000
  }

  @Test func randomSchedulesConvergeLoseNothingAndNeverBringADeleteBack() throws {
    let one = UInt64(ProcessInfo.processInfo.environment["TOUCHTRACKER_SYNC_SEED"] ?? "")
    var reached = Reached()
    for seed in one.map({ $0...$0 }) ?? 0...UInt64(Self.scheduleCount - 1) {
      var schedule = Schedule(seed: seed, clients: 2 + Int(seed % 4))
      schedule.verbose = one != nil
      for _ in 0..<60 { try schedule.step() }
      try schedule.settle()
      let expected = schedule.server.drawing
      for device in schedule.devices {
        #expect(
          Self.summary(device.app.drawing) == Self.summary(expected),
          "seed \(seed): device \(device.index) shows the server's drawing")
        #expect(device.client.pending == 0, "seed \(seed): device \(device.index) has nothing waiting")
        // This browser's copy replays to what it shows.
        let replayed = TouchTrackerApp()
        replayed.drawView.model.publishesChanges = true
        replayed.drawView.load(device.base)
        var client = SyncClient(client: "ffffffff")
        client.restore(device.journal, baseRevision: device.baseRevision)
        for effect in client.takeEffects() {
          if case .receive(let changes) = effect { replayed.drawView.receiveChanges(changes) }
          if case .restore(let changes) = effect { replayed.drawView.restorePending(changes) }
        }
        #expect(
          Self.summary(replayed.drawing) == Self.summary(expected),
          "seed \(seed): device \(device.index)'s copy replays to its drawing")
      }
      for device in schedule.devices {
        reached.withdrawn += device.reached.withdrawn
        reached.readAgain += device.reached.readAgain
        reached.reloadedOnServer += device.reached.reloadedOnServer
        reached.reloadedOffline += device.reached.reloadedOffline
        reached.resent += device.reached.resent
        #expect(device.broughtBack.isEmpty, "seed \(seed): device \(device.index) brought back \(device.broughtBack)")
      }
    }
    guard one == nil else { return }
    // Each path the schedules are for was taken, many times.
    #expect(reached.withdrawn > 0, "a batch appended before the drawing was read again: \(reached)")
    #expect(reached.readAgain > 0 && reached.resent > 0, "resets and resends: \(reached)")
    #expect(reached.reloadedOnServer > 0 && reached.reloadedOffline > 0, "reloads both ways: \(reached)")
    print("SyncModelTests: \(Self.scheduleCount) schedules reached \(reached)")
  }
}

extension SyncMessage {
  /// What a client sends on the socket, in the model.
  enum Outbound {
    case hello(since: Int)
    case changes(key: String, changes: [Change])
  }
}

private func middle(of line: Line) -> Point {
  Point(x: (line.begin.x + line.end.x) / 2, y: (line.begin.y + line.end.y) / 2)
}
