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

/// How to apply the last `tt_render_static`: 0 whole (clear, paint), 1 append
/// (paint over), 2 repaint (clip to the first command's rectangle; see `PageHost.StaticMode`).
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
