import Testing
import TouchTrackerTestSupport

@testable import TouchTrackerCore

/// Issue 11's recorder: a session the page records replays, through the
/// trace format and `Replay.run` (what `touchtracker replay` does), to the
/// drawing the page has, byte for byte; and the page plays a trace back,
/// stepping, playing on and scrubbing back.
@Suite struct PageHostRecordingTests {
  private func report(_ host: PageHost, _ id: Int, _ phase: TouchPhase, _ x: Double, _ y: Double, at time: Double) {
    _ = host.report(id: id, phaseCode: phase.rawValue, location: Point(x: x, y: y), time: time)
  }

  /// One finger from `from` to `to` in a few frames, at page-like times and fractional CSS pixels.
  private func stroke(_ host: PageHost, _ id: Int, from: Point, to: Point, at time: Double) {
    report(host, id, .began, from.x, from.y, at: time)
    host.commit(at: time + 0.0011)
    for step in 1...4 {
      let t = Double(step) / 4
      let x = from.x + (to.x - from.x) * t
      let y = from.y + (to.y - from.y) * t
      report(host, id, .moved, x, y, at: time + 0.016_677 * Double(step))
      host.commit(at: time + 0.016_677 * Double(step) + 0.0003)
      host.tick(at: time + 0.016_677 * Double(step) + 0.0004)
    }
    report(host, id, .ended, to.x, to.y, at: time + 0.09)
    host.commit(at: time + 0.0903)
  }

  private func stopped(_ host: PageHost) throws -> Trace {
    let length = host.stopRecording()
    try #require(length > 0)
    return try Trace.decode(String(decoding: host.output.elements, as: UTF8.self))
  }

  private func document(_ app: TouchTrackerApp) -> String {
    String(decoding: DocumentCoder.encode(app.drawing), as: UTF8.self)
  }

  /// What a page does in a few minutes: it opened a drawing with history,
  /// picks an id origin, draws with fractional coordinates and times, a
  /// circle, colors and widths by speed, another person's change arrives
  /// and the server confirms, a long press selects a line that is deleted,
  /// undo and redo, the window resizes.
  private func busySession() throws -> (PageHost, Trace) {
    let host = PageHost(size: Size(width: 390.5, height: 700))
    let opened = try DocumentCoder.decode(
      ##"{"format":"touchtracker","version":1,"lines":[{"id":7,"begin":{"x":10,"y":10},"end":{"x":90,"y":10},"color":"#000000","width":10}],"circles":[]}"##
    )
    host.perform(.document(opened))
    var ids = ShapeIDSource(origin: 15_460_000)
    ids.skip(past: host.app.drawing)
    host.perform(.ids(ids))
    host.tick(at: 3.25)
    stroke(
      host, 1, from: Point(x: 50.333_333, y: 200.666_667), to: Point(x: 250.123_456, y: 260.987_654), at: 4.012_345_6)
    #expect(host.app.drawView.model.canUndo, "history from before the recording")

    host.startRecording()
    #expect(!host.app.drawView.model.canUndo, "undo goes back no further than the recording's start")
    host.colorsByAngle = true
    stroke(host, 1, from: Point(x: 40.1, y: 300.2), to: Point(x: 300.7, y: 420.3), at: 6.000_01)
    host.widthsBySpeed = true
    host.perform(.chooseColor(2))
    stroke(host, 2, from: Point(x: 60.333, y: 500.5), to: Point(x: 340.25, y: 520.75), at: 7.5)
    // Two fingers: a circle.
    report(host, 3, .began, 100.5, 100.5, at: 9)
    report(host, 4, .began, 200.25, 150.125, at: 9.0001)
    host.commit(at: 9.01)
    report(host, 3, .moved, 80.5, 100.5, at: 9.05)
    report(host, 4, .moved, 220.25, 170.125, at: 9.05)
    host.commit(at: 9.051)
    report(host, 3, .moved, 60.5, 90.5, at: 9.07)
    report(host, 4, .moved, 240.25, 180.125, at: 9.07)
    host.commit(at: 9.071)
    report(host, 3, .ended, 60.5, 90.5, at: 9.1)
    report(host, 4, .ended, 240.25, 180.125, at: 9.1)
    host.commit(at: 9.1002)
    // Someone else's line arrives; the server confirms this page's first two changes.
    let theirs = Line(
      id: ShapeID(origin: 99, serial: 1), begin: Point(x: 5, y: 650), end: Point(x: 380, y: 650), color: .black,
      width: 10)
    host.perform(.received([.add(lines: [theirs], circles: [], at: nil)]))
    host.perform(.confirmed(2))
    // The page confirms everything at once as 2^31 - 1 when it starts over (saver.startOver).
    host.perform(.confirmed(0x7fff_ffff))
    // A tap on the first recorded line selects it (once the double tap is out of time); the Delete key deletes it.
    report(host, 5, .began, 170.4, 359.6, at: 11)
    host.commit(at: 11.001)
    report(host, 5, .ended, 170.4, 359.6, at: 11.05)
    host.commit(at: 11.0501)
    host.tick(at: 11.6)
    #expect(host.app.state.selectedLine == 3)
    host.perform(.deleteSelection)
    host.perform(.undo)
    host.perform(.redo)
    host.perform(.undo)
    host.perform(.resize(Size(width: 800, height: 600)))
    host.setSafeArea(EdgeInsets(top: 0, left: 0, bottom: 66.666_666, right: 0))
    stroke(host, 6, from: Point(x: 500.5, y: 100.5), to: Point(x: 700.5, y: 300.5), at: 13.25)
    host.cancelAll(at: 14)
    return (host, try stopped(host))
  }

  @Test func aRecordedSessionReplaysToTheSameDocumentByteForByte() throws {
    let (host, trace) = try busySession()
    #expect(host.app.drawing.lines.count >= 4 && host.app.drawing.circles.count == 1, "the session drew")
    let replayed = try Replay.run(trace)
    #expect(document(replayed) == document(host.app))
    #expect(
      replayed.drawView.model.idSource == host.app.drawView.model.idSource, "the next line gets the same id either way")
    // And through the text the page downloads.
    let again = try Replay.run(try Trace.decode(String(decoding: trace.encode(), as: UTF8.self)))
    #expect(document(again) == document(host.app))
  }

  /// A recording carries the page's two-finger rules (version 2): fingers
  /// that land 40 ms apart make a circle in the page and in its replay;
  /// the same touches in a trace without a version draw two lines, as
  /// every trace written before pan and zoom did.
  @Test func aRecordingReplaysWithThePagesTwoFingerRules() throws {
    let host = PageHost(size: Size(width: 800, height: 600))
    host.startRecording()
    report(host, 1, .began, 200, 200, at: 5)
    host.commit(at: 5.001)
    report(host, 2, .began, 300, 260, at: 5.04)
    host.commit(at: 5.041)
    report(host, 1, .moved, 180, 200, at: 5.06)
    report(host, 2, .moved, 320, 300, at: 5.06)
    host.commit(at: 5.061)
    report(host, 1, .ended, 180, 200, at: 5.08)
    report(host, 2, .ended, 320, 300, at: 5.08)
    host.commit(at: 5.081)
    let trace = try stopped(host)
    #expect(trace.version == 2)
    #expect(String(decoding: trace.encode(), as: UTF8.self).contains(#""version":2"#))
    #expect(host.app.drawing.circles.count == 1 && host.app.drawing.lines.isEmpty)
    let replayed = try Replay.run(trace)
    #expect(document(replayed) == document(host.app))
    var old = trace
    old.version = 1
    let book = try Replay.run(old)
    #expect(book.drawing.circles.isEmpty && book.drawing.lines.count == 2)
  }

  @Test func theTraceStartsWithTheDrawingAsItWasAndWhereItsIdsComeFrom() throws {
    let (_, trace) = try busySession()
    guard case .safeArea = trace.events[0].input, case .options = trace.events[1].input,
      case .document(let drawing) = trace.events[2].input, case .pending(let pending) = trace.events[3].input,
      case .ids(let ids) = trace.events[4].input
    else {
      Issue.record("unexpected start: \(trace.events.prefix(5))")
      return
    }
    #expect(drawing.lines.count == 1, "the opened line, as the server has it")
    #expect(pending.count == 1, "the line drawn before recording, not acknowledged yet")
    #expect(ids.origin == 15_460_000)
    #expect(trace.size == Size(width: 390.5, height: 700))
    #expect(trace.events.allSatisfy { $0.time >= 3.25 }, "on the page's clock")
  }

  @Test func undoInARecordingStopsAtItsStartLikeItsReplay() throws {
    let host = PageHost(size: Size(width: 800, height: 600))
    stroke(host, 1, from: Point(x: 10, y: 10), to: Point(x: 200, y: 10), at: 1)
    host.startRecording()
    host.perform(.undo)
    #expect(host.app.drawing.lines.count == 1, "the line drawn before the recording stays")
    let trace = try stopped(host)
    #expect(document(try Replay.run(trace)) == document(host.app))
  }

  @Test func thePageFeedsTheCoreAtTheTraceFormatsResolution() {
    let host = PageHost(size: Size(width: 800, height: 600))
    report(host, 1, .began, 10.123_456_7, 20.987_654_3, at: 1.000_049_9)
    host.commit(at: 0)
    #expect(host.app.application.clock.now == 1.0)
    report(host, 1, .moved, 200.000_06, 20, at: 1.2)
    report(host, 1, .ended, 200.000_06, 20, at: 1.3)
    host.commit(at: 1.3)
    #expect(host.app.drawing.lines[0].begin == Point(x: 10.1235, y: 20.9877))
    #expect(host.app.drawing.lines[0].end == Point(x: 200.0001, y: 20))
  }

  @Test func aFullRecordingKeepsWhatItHasAndSaysSo() throws {
    let host = PageHost(size: Size(width: 800, height: 600))
    host.startRecording()
    let room = PageHost.maximumRecordedEvents - host.recording!.events.count
    for index in 0..<room + 10 { host.perform(.deselect, at: Double(index)) }
    #expect(host.recording!.events.count == PageHost.maximumRecordedEvents)
    #expect(host.lastError.hasPrefix("The recording is full"))
    #expect(host.ignoredInputCount == 1, "said once")
  }

  // MARK: Playback

  private func playing(_ trace: Trace) throws -> PageHost {
    let host = PageHost(size: Size(width: 320, height: 480))
    let bytes = trace.encode()
    let stored = host.input.replace(with: bytes)
    try #require(stored)
    let problem = host.startPlayback(length: bytes.count)
    try #require(problem == nil)
    return host
  }

  @Test func playingOnStepByStepOrScrubbingBackEndsInTheReplaysDrawing() throws {
    let (recorded, trace) = try busySession()
    let expected = document(recorded.app)

    let stepped = try playing(trace)
    #expect(stepped.app.drawing.isEmpty, "before the first event")
    var steps = 0
    while stepped.stepPlayback() == 1 { steps += 1 }
    #expect(steps == trace.events.count)
    #expect(document(stepped.app) == expected)
    // The end let the pending timers run, past the last event: playing to the end again is not going back.
    #expect(stepped.play(through: trace.events[trace.events.count - 1].time) == 0)
    #expect(stepped.player?.next == trace.events.count, "not started over")

    let played = try playing(trace)
    let start = trace.events[0].time
    let end = trace.events[trace.events.count - 1].time
    let firstHalf = played.play(through: (start + end) / 2)
    #expect(firstHalf > 0 && firstHalf < trace.events.count)
    let halfway = document(played.app)
    #expect(played.play(through: end) == trace.events.count - firstHalf)
    #expect(document(played.app) == expected)
    // Back to the middle: it starts over and gets there again.
    #expect(played.play(through: (start + end) / 2) == firstHalf)
    #expect(document(played.app) == halfway)
    #expect(played.play(through: end + 10) == trace.events.count - firstHalf)
    #expect(document(played.app) == expected)
  }

  @Test func whileATracePlaysThePagesOwnInputIsIgnored() throws {
    let (_, trace) = try busySession()
    let host = try playing(trace)
    #expect(host.report(id: 1, phaseCode: TouchPhase.began.rawValue, location: Point(x: 1, y: 1), time: 1) == .refused)
    host.perform(.showPalette)
    #expect(!host.app.controller.isPaletteVisible)
    #expect(host.lastError == "A recording is playing")
    // Opening a drawing or others' changes would be dropped silently: they are refused, so the page knows.
    let document = Array(#"{"format":"touchtracker","version":1,"lines":[],"circles":[]}"#.utf8)
    let stored = host.input.replace(with: document)
    try #require(stored)
    #expect(host.loadDocument(length: document.count) == "A recording is playing")
    #expect(host.output(of: host.syncMessage(length: document.count)) == #"{"error":"A recording is playing"}"#)
  }

  @Test func aTraceThatCannotBeReadIsRefusedWithItsProblemAndNothingChanges() throws {
    let host = PageHost(size: Size(width: 800, height: 600))
    stroke(host, 1, from: Point(x: 10, y: 10), to: Point(x: 200, y: 10), at: 1)
    let bytes = Array(#"{"events":[{"time":0,"color":9}]}"#.utf8)
    let stored = host.input.replace(with: bytes)
    try #require(stored)
    #expect(host.startPlayback(length: bytes.count) == "Expected an integer from 0 to 6 at events[0].color")
    #expect(host.player == nil && host.app.drawing.lines.count == 1)
  }

  /// A hand-written trace may say ids start where the drawing has some
  /// already: the replay still gives every shape its own id.
  @Test func idsATraceSetsNeverRepeatOnesTheDrawingHas() throws {
    let trace = try Trace.decode(
      ##"{"events":[{"time":0,"document":{"format":"touchtracker","version":1,"lines":[{"id":1,"begin":{"x":0,"y":0},"end":{"x":9,"y":9},"color":"#000000","width":10}],"circles":[]}},"##
        + ##"{"time":0,"ids":{"origin":0,"next":1}},"##
        + ##"{"time":1,"touches":[{"id":1,"phase":"began","x":100,"y":100}]},{"time":1.1,"touches":[{"id":1,"phase":"moved","x":300,"y":100}]},"##
        + ##"{"time":1.2,"touches":[{"id":1,"phase":"ended","x":300,"y":100}]}]}"##)
    let app = try Replay.run(trace)
    #expect(app.drawing.lines.map(\.id.rawValue) == [1, 2])
    _ = try DocumentCoder.decode(bytes: DocumentCoder.encode(app.drawing))
  }
}
