// Documents and state in and out as UTF-8 JSON. The page writes a document
// into the buffer `tt_alloc` returns and calls `tt_load_document`; answers
// come back in one output buffer at `tt_out_ptr`, valid until the next call.

// Lengths returned are -1 when the wasm memory ran out (the page must not
// read a buffer then), never 0 for a failure: 0 bytes would read as an empty
// document.

/// The largest document the page may hand over: what the server accepts in
/// a document `PUT` (256 MiB; a million lines are about 100 MB).
let maximumDocumentLength: Int32 = 256 * 1024 * 1024

/// A buffer for at least `length` bytes of input; its address, or 0 when
/// `length` is out of range or the memory ran out.
@_expose(wasm, "tt_alloc") @_cdecl("tt_alloc")
public func ttAlloc(length: Int32) -> Int32 {
  guard let host = wasmHost, length >= 0, length <= maximumDocumentLength,
    host.input.reserve(Int(length), exactly: true)
  else {
    return 0
  }
  return host.input.address
}

/// Opens the document (`length` bytes at `tt_alloc`'s buffer); the history
/// starts here. Returns 0, or the length of the error message at `tt_out_ptr`
/// (-1 when even that did not fit in memory).
@_expose(wasm, "tt_load_document") @_cdecl("tt_load_document")
public func ttLoadDocument(length: Int32) -> Int32 {
  guard let host = wasmHost else { return -1 }
  guard let problem = host.loadDocument(length: Int(length)) else { return 0 }
  return Int32(truncatingIfNeeded: host.setOutput(Array(problem.utf8)))
}

#if arch(wasm32)
  /// The page's half of `tt_load_document_streamed` (`read_input` in the
  /// imports' `tt` module, Web/core/bridge.js): copies the document's UTF-8
  /// from byte `offset` on into the `capacity` bytes at `pointer`; returns
  /// how many it copied, 0 at the end, -1 when it cannot.
  @_extern(wasm, module: "tt", name: "read_input") @_extern(c)
  func ttReadInput(_ offset: Int32, _ pointer: Int32, _ capacity: Int32) -> Int32
#endif

/// Opens a document that the page hands over a chunk at a time through its
/// `tt.read_input` import, so that the text never sits whole in the wasm
/// memory (a million lines are ~100 MB of it, and wasm memory never
/// shrinks). `length`: the text's length in UTF-16 units, a lower bound on
/// its UTF-8 (over 256 MiB is refused before reading any). Answers as
/// `tt_load_document` does.
@_expose(wasm, "tt_load_document_streamed") @_cdecl("tt_load_document_streamed")
public func ttLoadDocumentStreamed(length: Int32) -> Int32 {
  #if arch(wasm32)
    guard let host = wasmHost else { return -1 }
    guard length >= 0, length <= maximumDocumentLength else {
      return Int32(truncatingIfNeeded: host.setOutput(Array("The document is too large (over 256 MiB)".utf8)))
    }
    let problem = host.loadDocument(
      length: Int(length),
      reading: { offset, chunk in
        Int(
          ttReadInput(
            Int32(truncatingIfNeeded: offset), Int32(truncatingIfNeeded: Int(bitPattern: chunk.baseAddress)),
            Int32(truncatingIfNeeded: chunk.count)))
      })
    guard let problem else { return 0 }
    return Int32(truncatingIfNeeded: host.setOutput(Array(problem.utf8)))
  #else
    return -1
  #endif
}

/// Writes the drawing as document JSON at `tt_out_ptr`; returns its length.
@_expose(wasm, "tt_export_document") @_cdecl("tt_export_document")
public func ttExportDocument() -> Int32 {
  guard let host = wasmHost else { return 0 }
  return Int32(truncatingIfNeeded: host.setOutput(DocumentCoder.encode(host.app.drawing)))
}

/// Writes the state as JSON at `tt_out_ptr`; returns its length.
@_expose(wasm, "tt_state") @_cdecl("tt_state")
public func ttState() -> Int32 {
  guard let host = wasmHost else { return 0 }
  return Int32(truncatingIfNeeded: host.setOutput(host.stateJSON))
}

@_expose(wasm, "tt_out_ptr") @_cdecl("tt_out_ptr")
public func ttOutPointer() -> Int32 { wasmHost?.output.address ?? 0 }

/// Builds the line index if a load left it to the next tap or line, for a
/// drawing of at most `maximumLines`, `work` lines of it a call (the page,
/// when idle): 0 nothing to do, 1 built, 2 more to do.
@_expose(wasm, "tt_prepare_index") @_cdecl("tt_prepare_index")
public func ttPrepareIndex(_ maximumLines: Int32, _ work: Int32) -> Int32 {
  switch wasmHost?.app.drawView.model.prepareLineIndex(upTo: Int(maximumLines), work: Int(work)) ?? .notNeeded {
  case .notNeeded: 0
  case .built: 1
  case .underWay: 2
  }
}

/// Bumped by every finished change: the page saves when it moves.
@_expose(wasm, "tt_change_count") @_cdecl("tt_change_count")
public func ttChangeCount() -> Int32 { Int32(truncatingIfNeeded: wasmHost?.changeCount ?? 0) }

@_expose(wasm, "tt_palette_visible") @_cdecl("tt_palette_visible")
public func ttPaletteVisible() -> Int32 { (wasmHost?.app.controller.isPaletteVisible ?? false) ? 1 : 0 }

/// Writes the drawing as an SVG document at `tt_out_ptr` (what `touchtracker render` writes); returns its length.
@_expose(wasm, "tt_export_svg") @_cdecl("tt_export_svg")
public func ttExportSVG() -> Int32 {
  guard let host = wasmHost else { return 0 }
  let svg = SVGWriter.svg(for: host.app.drawing, size: host.app.drawView.screenSize)
  return Int32(truncatingIfNeeded: host.setOutput(Array(svg.utf8)))
}

/// New lines and circles take ids from `origin` (a random number per page:
/// two devices drawing at once never pick the same id; see `ShapeID`).
@_expose(wasm, "tt_set_id_origin") @_cdecl("tt_set_id_origin")
public func ttSetIDOrigin(origin: Int32) {
  guard let host = wasmHost else { return }
  var source = ShapeIDSource(origin: UInt32(bitPattern: origin))
  source.skip(past: host.app.drawing)
  host.perform(.ids(source))
}

/// Writes this page's lines in progress as `{"lines":[...]}` at
/// `tt_out_ptr` (presence, for others on the same drawing); returns the length.
@_expose(wasm, "tt_presence") @_cdecl("tt_presence")
public func ttPresence() -> Int32 {
  guard let host = wasmHost else { return -1 }
  return Int32(truncatingIfNeeded: host.presence())
}
