// The C ABI of the example's page (Web/examples/hypnosis/hypnosis.js).
// Positions in CSS pixels, times in seconds on the page's clock, phases and
// statuses as the drawing app's page numbers them (`PHASE` and `STATUS` in
// Web/core/bridge.js). Calls before `hypnosis_init` do nothing.

nonisolated(unsafe) var example: HypnosisApp?
nonisolated(unsafe) var floats = ExportBuffer<Float>(capacity: 1024)
nonisolated(unsafe) var text = ExportBuffer<UInt8>(capacity: 64)

private func size(_ width: Double, _ height: Double) -> Size {
  func clamp(_ value: Double) -> Double { value.isFinite ? min(max(value, 1), 16_384) : 1 }
  return Size(width: clamp(width), height: clamp(height))
}

@_expose(wasm, "hypnosis_init") @_cdecl("hypnosis_init")
public func hypnosisInit(width: Double, height: Double) {
  example = HypnosisApp(size: size(width, height))
}

@_expose(wasm, "hypnosis_resize") @_cdecl("hypnosis_resize")
public func hypnosisResize(width: Double, height: Double) {
  example?.resize(to: size(width, height))
}

/// Queues one finger's change; 0 queued, 1 unknown phase, 2 not finite, 3 not down, 4 refused.
@_expose(wasm, "hypnosis_touch") @_cdecl("hypnosis_touch")
public func hypnosisTouch(id: Int32, phase: Int32, x: Double, y: Double, time: Double) -> Int32 {
  example?.report(id: Int(id), phaseCode: phase, location: Point(x: x, y: y), time: time).rawValue ?? -1
}

/// Delivers the frame's touches as one event.
@_expose(wasm, "hypnosis_commit") @_cdecl("hypnosis_commit")
public func hypnosisCommit(time: Double) -> Int32 { example?.commit(at: time).rawValue ?? -1 }

@_expose(wasm, "hypnosis_tick") @_cdecl("hypnosis_tick")
public func hypnosisTick(time: Double) { example?.tick(at: time) }

/// Renders the window into the buffers; returns the command count.
@_expose(wasm, "hypnosis_render") @_cdecl("hypnosis_render")
public func hypnosisRender() -> Int32 {
  guard let list = example?.render(), floats.replace(with: list.floats), text.replace(with: list.textBytes) else {
    return 0
  }
  return Int32(list.count)
}

@_expose(wasm, "hypnosis_floats") @_cdecl("hypnosis_floats")
public func hypnosisFloats() -> Int32 { floats.address }

@_expose(wasm, "hypnosis_text") @_cdecl("hypnosis_text")
public func hypnosisText() -> Int32 { text.address }

/// The rings' spacing in points (what a pinch changes).
@_expose(wasm, "hypnosis_ring_spacing") @_cdecl("hypnosis_ring_spacing")
public func hypnosisRingSpacing() -> Double { example?.controller.hypnosisView.ringSpacing ?? 0 }

/// The index of the rings' color (what the button changes).
@_expose(wasm, "hypnosis_color_index") @_cdecl("hypnosis_color_index")
public func hypnosisColorIndex() -> Int32 { Int32(example?.controller.colorIndex ?? -1) }

/// The bytes of the render list's text (`hypnosis_text`).
@_expose(wasm, "hypnosis_text_length") @_cdecl("hypnosis_text_length")
public func hypnosisTextLength() -> Int32 { Int32(text.count) }
