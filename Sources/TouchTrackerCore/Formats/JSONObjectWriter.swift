/// Writes one JSON object member by member: the replay output and the state
/// the page reads. Cheaper in the wasm module than building a `JSONValue` first.
struct JSONObjectWriter {
  private var writer = JSONWriter()
  private var isEmpty = true

  private mutating func key(_ name: StaticString) {
    writer.raw(isEmpty ? "{\"" : ",\"")
    writer.raw(name)
    writer.raw("\":")
    isEmpty = false
  }

  mutating func null(_ name: StaticString) {
    key(name)
    writer.raw("null")
  }

  mutating func bool(_ name: StaticString, _ value: Bool) {
    key(name)
    writer.raw(value ? "true" : "false")
  }

  mutating func number(_ name: StaticString, _ value: Double) {
    key(name)
    writer.write(value)
  }

  mutating func string(_ name: StaticString, _ value: String) {
    key(name)
    writer.write(value)
  }

  mutating func strings(_ name: StaticString, _ values: [String]) {
    key(name)
    writer.raw("[")
    for (index, value) in values.enumerated() {
      if index > 0 { writer.raw(",") }
      writer.write(value)
    }
    writer.raw("]")
  }

  /// A member whose value is already JSON (a document, another object).
  mutating func json(_ name: StaticString, _ bytes: [UInt8]) {
    key(name)
    writer.raw(bytes)
  }

  /// The object's bytes, closed.
  mutating func finish() -> [UInt8] {
    writer.raw(isEmpty ? "{}" : "}")
    return writer.bytes
  }
}
