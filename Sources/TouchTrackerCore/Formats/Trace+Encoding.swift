/// A trace back to JSON, the inverse of `Trace.decode`: tools that record
/// touches write traces with it, and the decoders' fuzzing checks that what
/// decodes encodes and decodes again to the same text. Numbers keep
/// `JSONNumber.fractionDigits` decimals, like documents.
extension Trace {
  public func encode() -> [UInt8] {
    var writer = JSONWriter()
    writer.raw("{\"size\":{\"width\":")
    writer.write(size.width)
    writer.raw(",\"height\":")
    writer.write(size.height)
    writer.raw("},\"events\":[")
    for (index, event) in events.enumerated() {
      if index > 0 { writer.raw(",") }
      writer.raw("{\"time\":")
      writer.write(event.time)
      switch event.input {
      case .none: break
      case .touches(let touches):
        writer.raw(",\"touches\":[")
        for (number, touch) in touches.enumerated() {
          if number > 0 { writer.raw(",") }
          writer.raw("{\"id\":")
          writer.write(Double(touch.id))
          writer.raw(",\"phase\":")
          writer.write(touch.phase.name)
          writer.raw(",\"x\":")
          writer.write(touch.location.x)
          writer.raw(",\"y\":")
          writer.write(touch.location.y)
          writer.raw("}")
        }
        writer.raw("]")
      case .tap(let title):
        writer.raw(",\"tap\":")
        writer.write(title)
      case .undo: writer.raw(",\"action\":\"undo\"")
      case .redo: writer.raw(",\"action\":\"redo\"")
      }
      writer.raw("}")
    }
    writer.raw("]}")
    return writer.bytes
  }
}
