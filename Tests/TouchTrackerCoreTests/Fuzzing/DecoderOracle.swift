import TouchTrackerCore

/// What must hold for any bytes handed to the document and trace decoders,
/// shared by the bounded fuzzing in the test run (`DecoderFuzzTests`) and the
/// libFuzzer target (Scripts/fuzz-decoders.sh):
/// - nothing traps;
/// - either the bytes decode, and then the value encodes, decodes and encodes
///   again to the same text (the first encoding may round numbers to the
///   format's four decimals, after that nothing changes), and a decoded
///   document is within the format's limits; a decoded trace replays to a
///   drawing within them, or is refused with a FormatError;
/// - or they are refused with one line of text: no control characters, so
///   nothing from the input can break the line or reach a terminal;
/// - documents decode alike straight into lines (`DocumentReader`, whole or
///   in chunks) and through the JSON tree: the same drawing or the same error;
/// - so do changes and lists of changes (`ChangeCoder`), and a decoded
///   change encodes and decodes to itself.
enum DecoderOracle {
  /// The first broken promise for `bytes`, or nil.
  static func check(_ bytes: [UInt8]) -> String? {
    checkDocument(bytes) ?? checkTrace(bytes) ?? checkChanges(bytes)
  }

  static func checkChanges(_ bytes: [UInt8]) -> String? {
    let direct = Result { () throws(FormatError) in try ChangeCoder.decode(bytes: bytes) }
    let tree = Result { () throws(FormatError) in try ChangeCoder.decodeThroughTree(bytes: bytes) }
    guard direct == tree else { return "ChangeCoder.decode gives \(direct), the tree decoder \(tree)" }
    let list = Result { () throws(FormatError) in try ChangeCoder.decodeList(bytes: bytes) }
    let listTree = Result { () throws(FormatError) in try ChangeCoder.decodeListThroughTree(bytes: bytes) }
    guard list == listTree else { return "ChangeCoder.decodeList gives \(list), the tree decoder \(listTree)" }
    for failure in [direct.failure, list.failure].compactMap({ $0 }) {
      if let broken = checkMessage(failure.message, "change") { return broken }
    }
    // The first encoding may round numbers to the format's four decimals; after that nothing changes.
    for change in (try? direct.get()).map({ [$0] }) ?? (try? list.get()) ?? [] {
      do {
        let second = ChangeCoder.encode(try ChangeCoder.decode(bytes: ChangeCoder.encode(change)))
        let third = ChangeCoder.encode(try ChangeCoder.decode(bytes: second))
        guard second == third else { return "A change changes on its second round trip: \(text(second))" }
      } catch {
        return "A decoded change fails to round-trip: \(error.message)"
      }
    }
    return nil
  }

  static func checkDocument(_ bytes: [UInt8]) -> String? {
    if let disagreement = checkReaderAgreesWithTree(bytes) { return disagreement }
    let drawing: Drawing
    do {
      drawing = try DocumentCoder.decode(bytes: bytes)
    } catch {
      return checkMessage(error.message, "document")
    }
    do {
      try DocumentCoder.validate(drawing)
      let first = DocumentCoder.encode(drawing)
      let second = DocumentCoder.encode(try DocumentCoder.decode(bytes: first))
      let third = DocumentCoder.encode(try DocumentCoder.decode(bytes: second))
      guard second == third else { return "A document changes on its second round trip: \(text(second))" }
    } catch {
      return "A decoded document fails to round-trip: \(error.message)"
    }
    return nil
  }

  /// `decode(bytes:)` (straight into lines when it can) against the tree
  /// decoder alone, and `decode(chunksFrom:)` with chunks of 1 to 7 bytes.
  static func checkReaderAgreesWithTree(_ bytes: [UInt8]) -> String? {
    let tree: Result<Drawing, FormatError>
    do {
      tree = .success(try DocumentCoder.decode(JSONParser.parse(bytes: bytes)))
    } catch let error as JSONError {
      tree = .failure(FormatError(error.message))
    } catch let error as FormatError {
      tree = .failure(error)
    } catch {
      return "Unexpected error \(error)"
    }
    let direct = Result { () throws(FormatError) in try DocumentCoder.decode(bytes: bytes) }
    guard direct == tree else { return "decode(bytes:) gives \(direct), the tree decoder \(tree)" }
    var offset = 0
    var step = 0
    let chunked = Result { () throws(FormatError) in
      try DocumentCoder.decode(chunksFrom: { buffer in
        step = step % 7 + 1
        let count = min(step, buffer.count, bytes.count - offset)
        for index in 0..<count { buffer[index] = bytes[offset + index] }
        offset += count
        return count
      })
    }
    switch chunked {
    case .success(nil): return nil  // not in the reader's shape: the caller decodes the bytes whole
    case .success(let drawing?): if case .success(drawing) = tree { return nil }
    case .failure(let error): if case .failure(error) = tree { return nil }
    }
    return "decode(chunksFrom:) gives \(chunked), the tree decoder \(tree)"
  }

  static func checkTrace(_ bytes: [UInt8]) -> String? {
    let trace: Trace
    do {
      trace = try Trace.decode(String(decoding: bytes, as: UTF8.self))
    } catch {
      return checkMessage(error.message, "trace")
    }
    do {
      let first = trace.encode()
      let second = try Trace.decode(text(first)).encode()
      let third = try Trace.decode(text(second)).encode()
      guard second == third else { return "A trace changes on its second round trip: \(text(second))" }
    } catch {
      return "A decoded trace fails to round-trip: \(error.message)"
    }
    // Replays are the slow part; the mutated seeds are short anyway.
    guard trace.events.count <= 2_000 else { return nil }
    let app: TouchTrackerApp
    do {
      app = try Replay.run(trace)
    } catch {
      return checkMessage(error.message, "replay")
    }
    do {
      try DocumentCoder.validate(app.drawing)
    } catch {
      return "A replay drew what the format refuses: \(error.message)"
    }
    return nil
  }

  private static func checkMessage(_ message: String, _ what: String) -> String? {
    if message.isEmpty { return "An empty \(what) error" }
    if message.unicodeScalars.contains(where: { $0.value < 0x20 || ($0.value >= 0x7F && $0.value <= 0x9F) }) {
      return "A \(what) error with a control character: \(message)"
    }
    return nil
  }

  private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}

extension Result {
  fileprivate var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
