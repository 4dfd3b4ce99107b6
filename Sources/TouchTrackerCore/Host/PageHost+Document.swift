/// Documents in and out of the page: opening one the page hands over (whole
/// in the input buffer, or a chunk at a time as it downloads), this
/// person's lines in progress for others, and text answers in `output`.
extension PageHost {
  /// Replaces the drawing with the document in `input`; nil or the problem.
  func loadDocument(length: Int) -> String? {
    // The buffer goes back to the allocator afterwards, whatever happens, for
    // what comes next (the static layer): wasm memory never shrinks.
    defer { releaseLargeInput() }
    guard length >= 0, length <= input.capacity else { return "Document length \(length) is out of range" }
    input.setCount(length)
    // Read from the buffer a chunk at a time: a million lines are ~100 MB,
    // held twice when copied into an array first.
    let document = input.elements
    return loadDocument(
      length: length,
      reading: { offset, chunk in
        let count = min(chunk.count, document.count - offset)
        if count > 0 {
          UnsafeMutableRawPointer(chunk.baseAddress!).copyMemory(from: document.baseAddress! + offset, byteCount: count)
        }
        return max(count, 0)
      })
  }

  /// Opens the document that `read(offset, chunk)` hands over a chunk at a
  /// time: it copies the document's bytes from `offset` on into `chunk` and
  /// returns how many it copied (0 at the end, below 0 when it cannot). The
  /// page's `tt_load_document_streamed` reads its text that way, so the
  /// text never sits whole in the wasm memory (whose high-water mark is what
  /// the page keeps: a million lines are ~100 MB of text). Offsets come in
  /// order from 0, and from 0 again when the reader gives up on the shape.
  /// `length` is the document's length in bytes, or a lower bound (the
  /// page's: its text's length in UTF-16 units), so that a document too
  /// big for the tree is refused before any of it is copied.
  func loadDocument(length: Int, reading read: @escaping (Int, UnsafeMutableBufferPointer<UInt8>) -> Int) -> String? {
    guard player == nil else { return "A recording is playing" }
    let tooBigForTheTree =
      "A document over 64 MiB must be in the form TouchTracker writes (no unknown keys or escapes)"
    var offset = 0
    var failed = false
    do {
      let decoded = try DocumentCoder.decode(chunksFrom: { chunk in
        let count = read(offset, chunk)
        guard count >= 0 else {
          failed = true
          return 0
        }
        offset += count
        return count
      })
      guard !failed else { return PageHost.unreadable }
      if let decoded {
        perform(.document(decoded))
        return nil
      }
      // Another shape (an unknown key, an escape): the tree decoder reads a
      // copy, and its tree takes several times the text, which a failed
      // allocation would end the module for: only up to 64 MiB.
      guard length <= PageHost.largestTreeDocument else { return tooBigForTheTree }
      var bytes: [UInt8] = []
      bytes.reserveCapacity(length)
      var chunk = [UInt8](repeating: 0, count: DocumentReader.chunkSize)
      while true {
        let count = chunk.withUnsafeMutableBufferPointer { read(bytes.count, $0) }
        guard count >= 0 else { return PageHost.unreadable }
        guard count > 0 else { break }
        guard bytes.count + count <= PageHost.largestTreeDocument else { return tooBigForTheTree }
        bytes.append(contentsOf: chunk[..<count])
      }
      chunk = []
      releaseLargeInput()
      perform(.document(try DocumentCoder.decodeThroughTree(bytes: bytes)))
      return nil
    } catch {
      return error.message
    }
  }

  /// What a document whose source stopped answering gets.
  static let unreadable = "The document could not be read to its end"

  /// The largest document read through a JSON value tree (see `loadDocument`).
  static let largestTreeDocument = 64 * 1024 * 1024

  @inline(never)
  private func releaseLargeInput() {
    guard input.capacity > 1 << 20 else { return }
    input.deallocate()
    input.reserve(4096)
  }

  /// The lines this person is drawing, as `{"lines":[LINE, ...]}` (without
  /// ids, at most `maximumPresenceLines`): what others drawing the same
  /// drawing see of them (docs/DESIGN.md, "Live sync over WebSocket").
  func presence() -> Int {
    var writer = JSONWriter()
    writer.raw("{\"lines\":[")
    let lines = app.drawView.linesInProgress
    for index in 0..<min(lines.count, PageHost.maximumPresenceLines) {
      if index > 0 { writer.raw(",") }
      var line = lines[index].line
      line.id = .unassigned
      DocumentCoder.write(line, to: &writer)
    }
    writer.raw("]}")
    return setOutput(writer.bytes)
  }

  /// The most lines in progress a presence message carries.
  static let maximumPresenceLines = 64

  /// Puts `bytes` in `output` and returns their count, or -1 when memory
  /// ran out (never 0: the page would take an empty document for the drawing).
  func setOutput(_ bytes: [UInt8]) -> Int {
    guard output.replace(with: bytes) else { return -1 }
    return bytes.count
  }
}
