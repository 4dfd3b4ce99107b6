/// This browser's copy of a drawing after its base: what happened, in the
/// order it happened here, one entry each. Replayed by `SyncClient.restore`,
/// it gives the drawing and what is still to be sent.
///
/// As JSON, one object an entry:
///
/// ```
/// {"own": [CHANGE, ...]}                 this person's changes, as made
/// {"batch": "KEY", "count": N}           the oldest N not in a batch went out under KEY
/// {"theirs": [CHANGE, ...], "revision": R}  others' changes, the last at R
/// {"ack": "KEY", "revision": R}          the server has batch KEY, its last change at R
/// {"document": DOCUMENT}                 this person's drawing, kept whole (copies from
///                                        before the journal): its shapes are this person's to add
/// ```
public enum SyncJournal {
  public enum Entry: Equatable, Sendable {
    case own([Change])
    case batch(key: String, count: Int)
    case theirs(revision: Int, changes: [Change])
    case acknowledged(key: String, revision: Int)
  }

  public static func write(_ entry: Entry, to writer: inout JSONWriter) {
    switch entry {
    case .own(let changes):
      writer.raw("{\"own\":")
      writeList(changes, to: &writer)
      writer.raw("}")
    case .batch(let key, let count):
      writer.raw("{\"batch\":")
      writer.write(key)
      writer.raw(",\"count\":")
      writer.write(Double(count))
      writer.raw("}")
    case .theirs(let revision, let changes):
      writer.raw("{\"theirs\":")
      writeList(changes, to: &writer)
      writer.raw(",\"revision\":")
      writer.write(Double(revision))
      writer.raw("}")
    case .acknowledged(let key, let revision):
      writer.raw("{\"ack\":")
      writer.write(key)
      writer.raw(",\"revision\":")
      writer.write(Double(revision))
      writer.raw("}")
    }
  }

  public static func encode(_ entry: Entry) -> [UInt8] {
    var writer = JSONWriter()
    write(entry, to: &writer)
    return writer.bytes
  }

  static func writeList(_ changes: [Change], to writer: inout JSONWriter) {
    writer.raw("[")
    for (index, change) in changes.enumerated() {
      if index > 0 { writer.raw(",") }
      ChangeCoder.write(change, bounds: nil, to: &writer)
    }
    writer.raw("]")
  }

  /// `{"entries": [ENTRY, ...]}`; errors name the place (`entries[2].theirs[0].op`).
  public static func decode(bytes: [UInt8]) throws(FormatError) -> [Entry] {
    let root: JSONValue
    do {
      root = try JSONParser.parse(bytes: bytes)
    } catch {
      throw FormatError(error.message)
    }
    var entries: [Entry] = []
    for element in try JSONCursor(root, path: "").require("entries").elements() {
      entries.append(try entry(element))
    }
    return entries
  }

  static func entry(_ cursor: JSONCursor) throws(FormatError) -> Entry {
    let object = try cursor.object()
    if let own = object.member("own") { return .own(try changes(own)) }
    if let key = object.member("batch") {
      return .batch(key: try key.string(), count: try count(object.require("count")))
    }
    if let theirs = object.member("theirs") {
      return .theirs(revision: try count(object.require("revision")), changes: try changes(theirs))
    }
    if let key = object.member("ack") {
      return .acknowledged(key: try key.string(), revision: try count(object.require("revision")))
    }
    if let document = object.member("document") {
      var drawing: Drawing
      do {
        drawing = try DocumentCoder.decode(document.value)
        try DocumentCoder.assignIDs(in: &drawing)
      } catch {
        throw FormatError("\(error.message) in \(document.path)")
      }
      return .own([.add(lines: drawing.lines, circles: drawing.circles, at: nil)])
    }
    throw FormatError("Unknown entry at \(object.location); expected 'own', 'batch', 'theirs', 'ack' or 'document'")
  }

  static func changes(_ field: JSONCursor) throws(FormatError) -> [Change] {
    var changes: [Change] = []
    for element in try field.elements() { changes.append(try ChangeCoder.change(element)) }
    return changes
  }

  /// A revision or a count: a whole number a JSON number holds exactly.
  static func count(_ field: JSONCursor) throws(FormatError) -> Int {
    let value = try field.number()
    guard value >= 0, value <= 9_007_199_254_740_991, value == value.rounded() else {
      throw FormatError("Expected a whole number >= 0 at \(field.path)")
    }
    return Int(value)
  }
}
