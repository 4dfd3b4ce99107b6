// Render lists for the page: 8 floats a command, see `RenderList`. The
// static layer (background and finished drawing) changes rarely: the page
// caches it and asks again only when `tt_static_version` moves. The live
// layer (lines being drawn, the selection, the menu, the palette) is drawn
// every frame on top.

@_expose(wasm, "tt_static_version") @_cdecl("tt_static_version")
public func ttStaticVersion() -> Int32 { Int32(truncatingIfNeeded: wasmHost?.staticLayerVersion() ?? 0) }

/// Renders the static layer into its buffers; returns the command count.
/// With `whole` 0 the buffers hold only what changed since the last call
/// (see `tt_static_mode`); pass 1 after the page cleared its copy.
@_expose(wasm, "tt_render_static") @_cdecl("tt_render_static")
public func ttRenderStatic(_ whole: Int32) -> Int32 {
  Int32(truncatingIfNeeded: wasmHost?.renderStaticLayer(whole: whole != 0) ?? 0)
}

/// The next tile of a whole layer handed out in parts (`tt_static_mode` 3)
/// into the static buffers; returns its command count, -1 while the lines
/// are still being sorted into tiles (call again), 0 once all were.
@_expose(wasm, "tt_render_static_part") @_cdecl("tt_render_static_part")
public func ttRenderStaticPart() -> Int32 { Int32(truncatingIfNeeded: wasmHost?.renderStaticPart() ?? 0) }

/// A whole static layer of more shapes than `shapes` (lines and circles; a
/// double, so the page may say Infinity: never) is handed out a tile at a time.
@_expose(wasm, "tt_static_parts_above") @_cdecl("tt_static_parts_above")
public func ttStaticPartsAbove(_ shapes: Double) { wasmHost?.wholeInPartsAbove = shapes }

/// The page's static layer now shows `tt_static_version` `version` (all of a
/// repaint copied in): a shape let go of after a long press leaves the live layer.
@_expose(wasm, "tt_static_painted") @_cdecl("tt_static_painted")
public func ttStaticPainted(_ version: Int32) { wasmHost?.staticLayerPainted(serial: Int(version)) }

/// How to apply the last `tt_render_static`: 0 whole (clear, paint), 1 append
/// (paint over), 2 repaint (clip to the first command's rectangle), 3 whole
/// in parts (see `PageHost.StaticMode`).
@_expose(wasm, "tt_static_mode") @_cdecl("tt_static_mode")
public func ttStaticMode() -> Int32 { wasmHost?.staticMode.rawValue ?? 0 }

@_expose(wasm, "tt_static_ptr") @_cdecl("tt_static_ptr")
public func ttStaticPointer() -> Int32 { wasmHost?.staticFloats.address ?? 0 }

@_expose(wasm, "tt_static_text_ptr") @_cdecl("tt_static_text_ptr")
public func ttStaticTextPointer() -> Int32 { wasmHost?.staticText.address ?? 0 }

@_expose(wasm, "tt_static_text_len") @_cdecl("tt_static_text_len")
public func ttStaticTextLength() -> Int32 { Int32(truncatingIfNeeded: wasmHost?.staticText.count ?? 0) }

/// 1 when the live layer changed since it was last rendered.
@_expose(wasm, "tt_needs_display") @_cdecl("tt_needs_display")
public func ttNeedsDisplay() -> Int32 { flag(wasmHost?.app.application.window.needsDisplay ?? false) }

/// Renders the live layer into its buffers; returns the command count.
@_expose(wasm, "tt_render_live") @_cdecl("tt_render_live")
public func ttRenderLive() -> Int32 { Int32(truncatingIfNeeded: wasmHost?.renderLiveLayer() ?? 0) }

@_expose(wasm, "tt_live_ptr") @_cdecl("tt_live_ptr")
public func ttLivePointer() -> Int32 { wasmHost?.liveFloats.address ?? 0 }

@_expose(wasm, "tt_live_text_ptr") @_cdecl("tt_live_text_ptr")
public func ttLiveTextPointer() -> Int32 { wasmHost?.liveText.address ?? 0 }

@_expose(wasm, "tt_live_text_len") @_cdecl("tt_live_text_len")
public func ttLiveTextLength() -> Int32 { Int32(truncatingIfNeeded: wasmHost?.liveText.count ?? 0) }

private func flag(_ value: Bool) -> Int32 { value ? 1 : 0 }

// MARK: Pan and zoom

/// Pans or zooms the drawing (`PageHost.ViewportCommand`): 0 pan by (`a`,
/// `b`) points, 1 zoom by factor `a` about window point (`b`, `c`), 2 100%,
/// 3 fit the drawing, 4 zoom in a step, 5 out. Returns 1, or 0 when refused.
@_expose(wasm, "tt_viewport") @_cdecl("tt_viewport")
public func ttViewport(_ command: Int32, _ a: Double, _ b: Double, _ c: Double) -> Int32 {
  flag(wasmHost?.changeViewport(command, a, b, c) ?? false)
}

/// The viewport: 0 the drawing's x at the window's left, 1 its y at the top, 2 the zoom.
@_expose(wasm, "tt_viewport_value") @_cdecl("tt_viewport_value")
public func ttViewportValue(_ which: Int32) -> Double {
  guard let view = wasmHost?.app.drawView else { return which == 2 ? 1 : 0 }
  return which == 0 ? view.contentOffset.x : which == 1 ? view.contentOffset.y : view.zoomScale
}
