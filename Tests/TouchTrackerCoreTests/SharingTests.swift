import Testing
import TouchKitTestSupport
import TouchTrackerCore
import TouchTrackerTestSupport

/// Drawing together (issue 12): other people's changes come in, in the
/// server's order, under this person's unacknowledged ones; every device
/// ends with exactly the server's drawing; undo stays per person.
@Suite struct SharingTests {
  /// One device: the app, its clock, and its changes on the way.
  final class Device {
    let app = TouchTrackerApp()
    var time = 0.0
    /// Taken from the core, not yet at the server.
    var outbox: [Change] = []
    /// Batches at the server, not yet acknowledged here (their sizes).
    var inFlight: [Int] = []
    /// What the server sent this device, in log order.
    var inbox: [Server.Message] = []

    init(origin: UInt32) {
      app.drawView.model.publishesChanges = true
      app.drawView.model.setIDOrigin(origin)
    }

    var drawing: Drawing { app.drawing }

    func tick() -> Double {
      time += 1
      return time
    }

    func draw(_ a: Point, _ b: Point) throws {
      try app.drawLine(from: a, to: b, at: tick())
      app.settle()
    }

    func delete(lineAt point: Point) throws {
      try app.tap(at: point, time: tick())
      app.settle()
      try app.tap(title: "Delete", at: tick())
    }

    func clear() throws {
      let start = tick()
      try app.tap(at: Point(x: 700, y: 550), time: start)
      try app.tap(at: Point(x: 700, y: 550), time: start + 0.1)
      app.settle()
    }

    func move(lineAt point: Point, by offset: Point) throws {
      let start = tick()
      try app.send([began(1, point.x, point.y)], at: start)
      app.advanceClock(to: start + 0.6)
      try app.send([moved(1, point.x + offset.x, point.y + offset.y)], at: start + 0.7)
      try app.send([ended(1, point.x + offset.x, point.y + offset.y)], at: start + 0.8)
      app.settle()
    }

    /// Takes what the core finished into the outbox.
    func collect() {
      outbox += app.drawView.model.takeChanges().map(\.change)
    }

    /// Delivers the oldest message from the server.
    func receiveOne() {
      guard !inbox.isEmpty else { return }
      switch inbox.removeFirst() {
      case .changes(let changes): app.drawView.receiveChanges(changes)
      case .ack:
        app.drawView.model.confirmChanges(inFlight.removeFirst())
      }
    }
  }

  /// The server in miniature: one log, the sender gets an acknowledgement
  /// and everyone else the batch, each in log order.
  final class Server {
    enum Message {
      case changes([Change])
      case ack
    }
    var log: [Change] = []
    var devices: [Device] = []

    /// The device's outbox reaches the server as one batch.
    func submit(from sender: Device) {
      sender.collect()
      guard !sender.outbox.isEmpty else { return }
      let batch = sender.outbox
      sender.outbox = []
      sender.inFlight.append(batch.count)
      log += batch
      for device in devices { device.inbox.append(device === sender ? .ack : .changes(batch)) }
    }

    var drawing: Drawing {
      var drawing = Drawing()
      for change in log { drawing.apply(change) }
      return drawing
    }

    /// Everything sent and delivered.
    func settle() {
      // Receiving publishes nothing, so one round of sending and one of delivering is enough.
      for device in devices { submit(from: device) }
      for device in devices { while !device.inbox.isEmpty { device.receiveOne() } }
    }
  }

  private func pair() -> (Server, Device, Device) {
    let server = Server()
    let a = Device(origin: 1)
    let b = Device(origin: 2)
    server.devices = [a, b]
    return (server, a, b)
  }

  @Test func othersLinesGoUnderMineUntilTheServerHasMine() throws {
    let (server, a, b) = pair()
    try a.draw(Point(x: 100, y: 100), Point(x: 300, y: 100))
    a.collect()
    try b.draw(Point(x: 100, y: 300), Point(x: 300, y: 300))
    server.submit(from: b)  // b's line is first in the log
    server.submit(from: a)
    a.receiveOne()
    #expect(a.drawing.lines.map(\.id) == server.drawing.lines.map(\.id), "b's line under a's, as in the log")
    #expect(a.app.drawView.model.unconfirmedCount == 1)
    a.receiveOne()
    #expect(a.app.drawView.model.unconfirmedCount == 0, "the acknowledgement")
    server.settle()
    #expect(a.drawing == server.drawing && b.drawing == server.drawing)
  }

  /// Before: undo reverted by position, so an undo right after someone
  /// else's line arrived took away their line, not this person's.
  @Test func undoTakesBackMyLineNotTheOneThatArrivedAfterIt() throws {
    let (server, a, b) = pair()
    try a.draw(Point(x: 100, y: 100), Point(x: 300, y: 100))
    server.settle()
    try b.draw(Point(x: 100, y: 300), Point(x: 300, y: 300))
    server.settle()
    let theirs = b.drawing.lines[1]
    a.app.undo()
    #expect(a.drawing.lines == [theirs])
    server.settle()
    #expect(b.drawing.lines == [theirs], "b sees a's undo, and keeps its own line")
    b.app.undo()
    server.settle()
    #expect(a.drawing.isEmpty && b.drawing.isEmpty)
    a.app.redo()
    server.settle()
    #expect(b.drawing.lines.count == 1 && b.drawing.lines[0].id != theirs.id, "a's redo brings back only a's line")
  }

  @Test func aLineSomeoneElseDeletedIsSkippedByUndoAndNeverComesBack() throws {
    let (server, a, b) = pair()
    try a.draw(Point(x: 100, y: 100), Point(x: 300, y: 100))
    try a.draw(Point(x: 100, y: 300), Point(x: 300, y: 300))
    server.settle()
    let first = a.drawing.lines[0]
    try b.delete(lineAt: Point(x: 200, y: 302))
    server.settle()
    #expect(a.drawing.lines == [first])
    a.app.undo()
    #expect(a.drawing.isEmpty, "the undo skips the line b deleted and takes back a's first line")
    a.app.redo()
    #expect(a.drawing.lines == [first])
    #expect(!a.app.drawView.model.canRedo, "nothing is left to redo: the deleted line is not brought back")
    server.settle()
    #expect(b.drawing == a.drawing && server.drawing == a.drawing)
  }

  @Test func aMoveOfALineSomeoneElseDeletedIsDroppedFromUndo() throws {
    let (server, a, b) = pair()
    try a.draw(Point(x: 100, y: 100), Point(x: 300, y: 100))
    try a.move(lineAt: Point(x: 200, y: 102), by: Point(x: 0, y: 100))
    server.settle()
    try b.delete(lineAt: Point(x: 200, y: 202))
    server.settle()
    #expect(a.drawing.isEmpty)
    #expect(!a.app.drawView.model.canUndo, "neither the move nor the add can bring the line back")
  }

  @Test func aConcurrentDeleteWinsOverAMove() throws {
    let (server, a, b) = pair()
    try a.draw(Point(x: 100, y: 100), Point(x: 300, y: 100))
    server.settle()
    try a.move(lineAt: Point(x: 200, y: 102), by: Point(x: 0, y: 100))
    try b.delete(lineAt: Point(x: 200, y: 102))
    server.submit(from: b)
    server.submit(from: a)
    server.settle()
    #expect(server.drawing.isEmpty && a.drawing.isEmpty && b.drawing.isEmpty)
  }

  @Test func theSelectionFollowsItsLineAndEndsWhenSomeoneElseDeletesIt() throws {
    let (server, a, b) = pair()
    try a.draw(Point(x: 100, y: 100), Point(x: 300, y: 100))
    try a.draw(Point(x: 100, y: 300), Point(x: 300, y: 300))
    server.settle()
    try a.app.tap(at: Point(x: 200, y: 302), time: a.tick())
    a.app.settle()
    let selected = a.drawing.lines[1].id
    #expect(a.app.drawView.selectedLineIndex == 1)
    try b.delete(lineAt: Point(x: 200, y: 102))
    server.settle()
    #expect(a.app.drawView.selectedLineIndex == 0, "the line moved down one place; the selection with it")
    #expect(a.drawing.lines[0].id == selected)
    #expect(a.app.application.menuController.visibleItemTitles == ["Delete"])
    try b.delete(lineAt: Point(x: 200, y: 302))
    server.settle()
    #expect(a.app.drawView.selectedLineIndex == nil, "the line is gone, so is the selection")
    #expect(a.app.application.menuController.visibleItemTitles.isEmpty, "and its menu")
  }

  /// A line held while its own add is still on the way to the server, when
  /// others' changes come in: this person's unacknowledged add is taken
  /// back and applied again, and the held line stays under its finger
  /// (found by a review: it jumped back to where it was drawn, and the move
  /// published at the lift was short by what the finger had moved).
  @Test func aHeldLineStaysUnderItsFingerWhenOthersChangesComeIn() throws {
    let (server, a, b) = pair()
    try a.draw(Point(x: 100, y: 100), Point(x: 300, y: 100))
    a.collect()  // a's add is on its way, not yet at the server
    let start = a.tick()
    try a.app.send([began(1, 200, 102)], at: start)
    a.app.advanceClock(to: start + 0.6)
    try a.app.send([moved(1, 200, 152)], at: start + 0.7)
    try b.draw(Point(x: 100, y: 400), Point(x: 300, y: 400))
    server.submit(from: b)
    a.receiveOne()
    #expect(a.drawing.lines.contains { $0.begin == Point(x: 100, y: 150) }, "still under the finger")
    try a.app.send([moved(1, 200, 202)], at: start + 0.8)
    try a.app.send([ended(1, 200, 202)], at: start + 0.9)
    a.app.settle()
    server.settle()
    #expect(a.drawing.lines.contains { $0.begin == Point(x: 100, y: 200) && $0.end == Point(x: 300, y: 200) })
    #expect(a.drawing == server.drawing && b.drawing == server.drawing)
  }

  @Test func aHeldLineSomeoneElseDeletesIsLetGo() throws {
    let (server, a, b) = pair()
    try a.draw(Point(x: 100, y: 100), Point(x: 300, y: 100))
    try a.draw(Point(x: 100, y: 300), Point(x: 300, y: 300))
    server.settle()
    let start = a.tick()
    try a.app.send([began(1, 200, 102)], at: start)
    a.app.advanceClock(to: start + 0.6)
    try a.app.send([moved(1, 200, 152)], at: start + 0.7)
    try b.delete(lineAt: Point(x: 200, y: 102))
    server.settle()
    try a.app.send([moved(1, 200, 202)], at: start + 0.8)
    try a.app.send([ended(1, 200, 202)], at: start + 0.9)
    a.app.settle()
    server.settle()
    #expect(a.drawing.lines.count == 1 && a.drawing.lines[0].begin == Point(x: 100, y: 300), "the other line stays put")
    #expect(a.drawing == server.drawing && b.drawing == server.drawing)
  }

  @Test func aClearByOneKeepsWhatTheOtherDrewAfterIt() throws {
    let (server, a, b) = pair()
    try a.draw(Point(x: 100, y: 100), Point(x: 300, y: 100))
    server.settle()
    try b.clear()
    server.submit(from: b)
    try a.draw(Point(x: 100, y: 300), Point(x: 300, y: 300))
    server.submit(from: a)
    server.settle()
    #expect(server.drawing.lines.count == 1 && a.drawing == server.drawing && b.drawing == server.drawing)
    b.app.undo()
    server.settle()
    #expect(server.drawing.lines.count == 2, "b's undo of its clear brings back a's first line")
    #expect(a.drawing == server.drawing && b.drawing == server.drawing)
  }

  /// Three devices doing random things, with batches and deliveries in a
  /// random order: once everything is delivered, every device shows exactly
  /// the server's drawing (ids, order, everything).
  @Test(arguments: 0..<12) func randomSessionsConverge(seed: UInt64) throws {
    var random = SplitMix64(seed: seed &* 7919 &+ 11)
    let server = Server()
    let devices = (1...3).map { Device(origin: UInt32($0)) }
    server.devices = devices
    func point() -> Point {
      Point(x: Double(random.next() % 700) + 50, y: Double(random.next() % 500) + 50)
    }
    for _ in 0..<150 {
      let device = devices[Int(random.next() % 3)]
      switch random.next() % 12 {
      case 0, 1, 2: try device.draw(point(), point())
      case 3: device.app.undo()
      case 4: device.app.redo()
      case 5:
        if let line = device.drawing.lines.randomElement(using: &random) {
          try device.delete(lineAt: middle(of: line))
        }
      case 6:
        if let line = device.drawing.lines.randomElement(using: &random) {
          try device.move(lineAt: middle(of: line), by: Point(x: 30, y: -20))
        }
      case 7: if random.next() % 4 == 0 { try device.clear() }
      case 8, 9: server.submit(from: device)
      default: device.receiveOne()
      }
    }
    server.settle()
    let expected = server.drawing
    for device in devices {
      #expect(device.drawing == expected, "seed \(seed)")
      #expect(device.app.drawView.model.unconfirmedCount == 0)
    }
  }
}

private func middle(of line: Line) -> Point {
  Point(x: (line.begin.x + line.end.x) / 2, y: (line.begin.y + line.end.y) / 2)
}
