/// Recording a session as a trace, and playing one back in the page (the
/// recorder). Everything the page feeds the core goes through
/// `commit(at:)` (touches) or `perform(_:at:)` (every other command), which
/// write it down while a recording runs; `touchtracker replay` plays the
/// result to the same drawing, byte for byte.
extension PageHost {
  /// A recording stops by itself past this many events (about an hour of
  /// two fingers drawing at 120 Hz), so it cannot take all memory.
  static let maximumRecordedEvents = 500_000

  var isRecording: Bool { recording != nil }

  /// Starts recording from the page as it is: the safe area, the options,
  /// the drawing (as the server's log has it, then this page's changes it
  /// has not acknowledged) and where new ids come from are the trace's
  /// first events.
  /// Undo goes back no further than here (the trace has no history before
  /// it); a selection, the palette and fingers down are let go first.
  func startRecording() {
    guard player == nil else { return }
    cancelAll(at: app.clock.now)
    app.drawView.forgetPens()
    app.drawView.deselect()
    app.controller.hidePalette()
    app.drawView.model.startHistory()
    let now = app.clock.now
    let shared = app.drawView.model.sharedState
    var start: [TraceEvent.Input] = [
      .safeArea(app.application.window.safeAreaInsets), .options(app.drawView.options), .document(shared.base),
    ]
    if !shared.pending.isEmpty { start.append(.pending(shared.pending)) }
    start.append(.ids(app.drawView.model.idSource))
    if app.drawView.zoomScale != 1 || app.drawView.contentOffset != .zero { start.append(quantizedViewport()) }
    recording = Trace(
      size: app.application.window.bounds.size, events: start.map { TraceEvent(time: now, input: $0) },
      version: Trace.currentVersion)
  }

  /// Ends the recording and puts its trace in `output`; returns its length
  /// (0 when nothing was being recorded, -1 when memory ran out).
  func stopRecording() -> Int {
    guard var trace = recording else { return 0 }
    recording = nil
    // The clock as it stood: timers due by then have fired here too.
    trace.events.append(TraceEvent(time: app.clock.now, input: .none))
    return setOutput(trace.encode())
  }

  func record(_ input: TraceEvent.Input, at time: Double) {
    // Past the limit the trace keeps what it has: it replays to the drawing as it was then.
    guard recording != nil, recording!.events.count < PageHost.maximumRecordedEvents else { return }
    recording!.events.append(TraceEvent(time: time, input: input))
    if recording!.events.count == PageHost.maximumRecordedEvents {
      ignore(.refused, "The recording is full (\(PageHost.maximumRecordedEvents) events): it ends here")
    }
  }

  // MARK: Playback

  /// Plays the trace in `input` (`length` bytes) instead of the page's own
  /// drawing, from its start; nil, or the problem with it (then nothing
  /// changed). The page's own input is ignored until `stopPlayback()`.
  func startPlayback(length: Int) -> String? {
    guard length >= 0, length <= input.capacity else { return "Trace length \(length) is out of range" }
    input.setCount(length)
    let trace: Trace
    do {
      trace = try Trace.decode(String(decoding: input.elements, as: UTF8.self))
    } catch {
      return error.message
    }
    recording = nil
    let player = TracePlayer(trace)
    self.player = player
    adopt(player.app)
    return nil
  }

  /// Plays on through `time` on the trace's clock; returns the events
  /// played, or -1 when an event was refused (`lastError` says which).
  /// A time before the playback's own starts it over (scrubbing back).
  func play(through time: Double) -> Int {
    guard time.isFinite else { return 0 }
    return playing { player throws(FormatError) in
      if time < player.position {
        player = TracePlayer(player.trace)
        adopt(player.app)
      }
      return try player.play(through: time)
    }
  }

  /// Plays the next event; returns 1, 0 at the end, -1 when it was refused.
  func stepPlayback() -> Int {
    playing { player throws(FormatError) in try player.step() ? 1 : 0 }
  }

  /// Runs `body` on the player (0 without one); a refused event is noted
  /// (`lastError`) and answers -1.
  private func playing(_ body: (inout TracePlayer) throws(FormatError) -> Int) -> Int {
    guard var player else { return 0 }
    self.player = nil  // while `player` is changed here
    defer { self.player = player }
    do {
      return try body(&player)
    } catch {
      ignore(.refused, error.message)
      return -1
    }
  }

  /// The playback's position as JSON: `{"events":N,"next":I,"start":T,"end":T,"now":T}`.
  var playbackJSON: [UInt8] {
    var json = JSONObjectWriter()
    if let player {
      json.number("events", Double(player.trace.events.count))
      json.number("next", Double(player.next))
      json.number("start", player.startTime)
      json.number("end", player.endTime)
      json.number("now", player.position.isFinite ? player.position : player.startTime)
    }
    return json.finish()
  }

  /// Leaves the playback with the recording's app showing; the page opens
  /// its own drawing again (it was saved before the playback started).
  func stopPlayback() {
    player = nil
  }
}
