/// The C ABI the browser page calls (see Web/app.js). Thin: each export
/// checks that the app exists and hands over to `PageHost`.
///
/// Conventions: positions in CSS pixels (the window's points), times in
/// seconds on the page's clock (`performance.now() / 1000`), booleans as
/// 0/1, pointers as offsets into the exported memory. Calls before
/// `tt_init` do nothing and return 0 (or -1 where 0 means success).

/// The one app of this page. Wasm runs the page's code on one thread.
nonisolated(unsafe) var wasmHost: PageHost?

private func sanitizedSize(_ width: Double, _ height: Double) -> Size {
  func clamp(_ value: Double) -> Double { value.isFinite ? min(max(value, 1), PageInterface.maximumCanvasSide) : 1 }
  return Size(width: clamp(width), height: clamp(height))
}

private func flag(_ value: Bool) -> Int32 { value ? 1 : 0 }

// MARK: Life cycle

/// Creates the app on a canvas of this size in CSS pixels. Called again, it
/// starts over with a fresh app: the previous one and its buffers are freed
/// first (they used to leak, ~1.8 MB a call), so a page may call it as often
/// as it likes.
@_expose(wasm, "tt_init") @_cdecl("tt_init")
public func ttInit(width: Double, height: Double) {
  wasmHost = nil
  wasmHost = PageHost(size: sanitizedSize(width, height))
}

@_expose(wasm, "tt_resize") @_cdecl("tt_resize")
public func ttResize(width: Double, height: Double) {
  wasmHost?.perform(.resize(sanitizedSize(width, height)))
}

// MARK: Touches and time

/// Queues one finger's change. Phase: 0 began, 1 moved, 2 stationary, 3
/// ended, 4 cancelled. Returns 0 when queued; 1 unknown phase, 2 a
/// non-finite number, 3 a touch that is not down (each ignored).
/// The rest is optional (a page may leave them out: NaN and 0 read as a
/// finger with no force): type (0 direct, 1 pencil, 2 indirect pointer),
/// force and maximum force (UIKit's), altitude and azimuth in radians.
@_expose(wasm, "tt_touch") @_cdecl("tt_touch")
public func ttTouch(
  id: Int32, phase: Int32, x: Double, y: Double, time: Double, type: Int32, force: Double, maximumForce: Double,
  altitude: Double, azimuth: Double
) -> Int32 {
  guard let host = wasmHost else { return -1 }
  return host.report(
    id: Int(id), phaseCode: phase, location: Point(x: x, y: y), time: time, type: TouchType(rawValue: type) ?? .direct,
    hardware: PageHost.hardware(force: force, maximumPossibleForce: maximumForce, altitude: altitude, azimuth: azimuth)
  ).rawValue
}

/// Keeps a coalesced (`predicted` 0) or predicted (1) sample for finger
/// `id`'s next `tt_touch`, which takes it. The force is up to that call's
/// maximum force. Returns 0, 2 (non-finite) or 4 (refused).
@_expose(wasm, "tt_touch_sample") @_cdecl("tt_touch_sample")
public func ttTouchSample(
  id: Int32, predicted: Int32, x: Double, y: Double, time: Double, force: Double, altitude: Double, azimuth: Double
) -> Int32 {
  guard let host = wasmHost else { return -1 }
  let hardware = PageHost.hardware(
    force: force, maximumPossibleForce: Trace.maximumForce, altitude: altitude, azimuth: azimuth)
  return host.addSample(
    id: Int(id), predicted: predicted != 0, location: Point(x: x, y: y), time: time, hardware: hardware
  ).rawValue
}

/// Delivers the queued touches as one event.
@_expose(wasm, "tt_commit") @_cdecl("tt_commit")
public func ttCommit(time: Double) {
  wasmHost?.commit(at: time)
}

/// Advances the clock to `time`, firing due timers. Call once per animation frame, after `tt_commit`.
@_expose(wasm, "tt_tick") @_cdecl("tt_tick")
public func ttTick(time: Double) {
  wasmHost?.tick(at: time)
}

/// Cancels every finger still down (the page was hidden or lost focus).
@_expose(wasm, "tt_cancel_all") @_cdecl("tt_cancel_all")
public func ttCancelAll(time: Double) {
  wasmHost?.cancelAll(at: time)
}

/// 1 when finger `id` is drawing a line; then `tt_probe_ptr` holds 4
/// floats: the line's end x, y, its width and rgb.
@_expose(wasm, "tt_probe_line") @_cdecl("tt_probe_line")
public func ttProbeLine(id: Int32) -> Int32 {
  flag(wasmHost?.probeLine(forTouch: Int(id)) ?? false)
}

@_expose(wasm, "tt_probe_ptr") @_cdecl("tt_probe_ptr")
public func ttProbePointer() -> Int32 { wasmHost?.probe.address ?? 0 }

// MARK: Commands

@_expose(wasm, "tt_undo") @_cdecl("tt_undo")
public func ttUndo() { wasmHost?.perform(.undo) }

@_expose(wasm, "tt_redo") @_cdecl("tt_redo")
public func ttRedo() { wasmHost?.perform(.redo) }

/// Deletes the selected line, if any, and hides its menu.
@_expose(wasm, "tt_delete_selected") @_cdecl("tt_delete_selected")
public func ttDeleteSelected() { wasmHost?.perform(.deleteSelection) }

@_expose(wasm, "tt_deselect") @_cdecl("tt_deselect")
public func ttDeselect() { wasmHost?.perform(.deselect) }

/// Runs a key of the canvas (`KeyCommand`'s numbers, `KEY` in bridge.js):
/// the keyboard's focus, selection, nudges and lines. 1 when it did
/// something, 0 when not (the page lets the key go on).
@_expose(wasm, "tt_key") @_cdecl("tt_key")
public func ttKey(command: Int32) -> Int32 { flag(wasmHost?.press(code: command) ?? false) }

/// The drawing in words for screen readers (counts, the focused shape, the
/// keyboard's line) into the output buffer; its length in bytes.
@_expose(wasm, "tt_description") @_cdecl("tt_description")
public func ttDescription() -> Int32 {
  guard let host = wasmHost else { return 0 }
  return Int32(truncatingIfNeeded: host.describeDrawing())
}

/// How much of the canvas the page's own controls cover, in CSS pixels from
/// each edge: menus and the palette are placed in the rest. Negative or
/// non-finite insets are ignored and counted (`tt_state`'s `ignoredInput`).
@_expose(wasm, "tt_set_safe_area") @_cdecl("tt_set_safe_area")
public func ttSetSafeArea(top: Double, left: Double, bottom: Double, right: Double) {
  wasmHost?.setSafeArea(EdgeInsets(top: top, left: left, bottom: bottom, right: right))
}

@_expose(wasm, "tt_show_palette") @_cdecl("tt_show_palette")
public func ttShowPalette() { wasmHost?.perform(.showPalette) }

/// Takes the palette's choice `index` (0 Black … 6 By Angle, the order on
/// screen) and closes the palette, as a tap on it would: the keyboard's way to
/// a color. Returns 1, or 0 for an index out of range.
@_expose(wasm, "tt_choose_color") @_cdecl("tt_choose_color")
public func ttChooseColor(index: Int32) -> Int32 {
  guard let host = wasmHost, PaletteView.choices.indices.contains(Int(index)) else { return 0 }
  host.perform(.chooseColor(Int(index)))
  return 1
}

@_expose(wasm, "tt_hide_palette") @_cdecl("tt_hide_palette")
public func ttHidePalette() { wasmHost?.perform(.hidePalette) }

// MARK: Settings

/// 1: new lines get their color from their angle; 0: new lines are black.
@_expose(wasm, "tt_set_colors_by_angle") @_cdecl("tt_set_colors_by_angle")
public func ttSetColorsByAngle(on: Int32) { wasmHost?.colorsByAngle = on != 0 }

/// 1: the finger's speed sets a new line's width; 0: 10 points.
@_expose(wasm, "tt_set_widths_by_speed") @_cdecl("tt_set_widths_by_speed")
public func ttSetWidthsBySpeed(on: Int32) { wasmHost?.widthsBySpeed = on != 0 }

/// 1: while a pen is in use, fingers do not draw (palm rejection; the default); 0: they do.
@_expose(wasm, "tt_set_pen_only") @_cdecl("tt_set_pen_only")
public func ttSetPenOnly(on: Int32) { wasmHost?.penOnlyDraws = on != 0 }

@_expose(wasm, "tt_pen_only") @_cdecl("tt_pen_only")
public func ttPenOnly() -> Int32 { flag(wasmHost?.penOnlyDraws ?? false) }

@_expose(wasm, "tt_colors_by_angle") @_cdecl("tt_colors_by_angle")
public func ttColorsByAngle() -> Int32 { flag(wasmHost?.colorsByAngle ?? false) }

@_expose(wasm, "tt_widths_by_speed") @_cdecl("tt_widths_by_speed")
public func ttWidthsBySpeed() -> Int32 { flag(wasmHost?.widthsBySpeed ?? false) }

// MARK: Inspector

/// 1: the core reports its diagnostic records (touches hit, messages sent,
/// recognizer states and why, touches held back, actions); 0 (the default):
/// it reports nothing and the touch path pays one branch per place.
@_expose(wasm, "tt_inspect") @_cdecl("tt_inspect")
public func ttInspect(on: Int32) { wasmHost?.isInspecting = on != 0 }

/// The records since the last call as JSON lines at `tt_out_ptr`; returns
/// their length (0: none, -1: memory ran out).
@_expose(wasm, "tt_take_records") @_cdecl("tt_take_records")
public func ttTakeRecords() -> Int32 { Int32(wasmHost?.takeRecords() ?? 0) }
