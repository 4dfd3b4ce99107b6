/// The recorder and the playback: see `PageHost+Recording`.

/// 1 starts recording the session (the drawing as it is, then everything
/// the page feeds the core); 0 stops and writes the trace at `tt_out_ptr`,
/// returning its length (0: none was recording, -1: memory ran out).
@_expose(wasm, "tt_record") @_cdecl("tt_record")
public func ttRecord(on: Int32) -> Int32 {
  guard let host = wasmHost else { return -1 }
  if on != 0 {
    host.startRecording()
    return 0
  }
  return Int32(truncatingIfNeeded: host.stopRecording())
}

@_expose(wasm, "tt_recording") @_cdecl("tt_recording")
public func ttRecording() -> Int32 { (wasmHost?.isRecording ?? false) ? 1 : 0 }

/// Plays the trace (`length` bytes at `tt_alloc`'s buffer) instead of the
/// page's drawing. Returns 0, or the length of the error at `tt_out_ptr`.
@_expose(wasm, "tt_play_start") @_cdecl("tt_play_start")
public func ttPlayStart(length: Int32) -> Int32 {
  guard let host = wasmHost else { return -1 }
  guard let problem = host.startPlayback(length: Int(length)) else { return 0 }
  return Int32(truncatingIfNeeded: host.setOutput(Array(problem.utf8)))
}

/// Plays through `time` on the trace's clock (back: starts over); returns
/// the events played, -1 when one was refused (`tt_state`'s `lastError`).
@_expose(wasm, "tt_play_to") @_cdecl("tt_play_to")
public func ttPlayTo(time: Double) -> Int32 { Int32(wasmHost?.play(through: time) ?? 0) }

/// Plays the next event: 1, 0 at the end, -1 refused.
@_expose(wasm, "tt_play_step") @_cdecl("tt_play_step")
public func ttPlayStep() -> Int32 { Int32(wasmHost?.stepPlayback() ?? 0) }

/// Where the playback is, as JSON at `tt_out_ptr`; returns the length.
@_expose(wasm, "tt_play_state") @_cdecl("tt_play_state")
public func ttPlayState() -> Int32 {
  guard let host = wasmHost else { return -1 }
  return Int32(truncatingIfNeeded: host.setOutput(host.playbackJSON))
}

@_expose(wasm, "tt_play_stop") @_cdecl("tt_play_stop")
public func ttPlayStop() { wasmHost?.stopPlayback() }
