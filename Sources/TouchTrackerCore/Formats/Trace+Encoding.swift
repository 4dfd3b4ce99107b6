/// A trace back to JSON, the inverse of `Trace.decode`: tools that record
/// touches write traces with it, and the decoders' fuzzing checks that what
/// decodes encodes and decodes again to the same text. Numbers keep
/// `NumberText.fractionDigits` decimals, like documents.
extension Trace {
  public func encode() -> [UInt8] {
    var writer = JSONWriter()
    writer.raw("{\"size\":")
    Trace.write(size, to: &writer)
    // Written only past 1: a version-1 trace encodes as it always did.
    if version != 1 {
      writer.raw(",\"version\":")
      writer.write(Double(version))
    }
    writer.raw(",\"events\":[")
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
          Trace.write(touch, to: &writer)
          writer.raw("}")
        }
        writer.raw("]")
      case .tap(let title):
        writer.raw(",\"tap\":")
        writer.write(title)
      case .undo, .redo, .deleteSelection, .deselect, .showPalette, .hidePalette, .cancelTouches:
        writer.raw(",\"action\":")
        writer.write(Trace.actions.first { $0.input == event.input }?.name ?? "")
      case .chooseColor(let index):
        writer.raw(",\"color\":")
        writer.write(Double(index))
      case .resize(let size):
        writer.raw(",\"size\":")
        Trace.write(size, to: &writer)
      case .safeArea(let insets):
        writer.raw(",\"safeArea\":{\"top\":")
        writer.write(insets.top)
        writer.raw(",\"left\":")
        writer.write(insets.left)
        writer.raw(",\"bottom\":")
        writer.write(insets.bottom)
        writer.raw(",\"right\":")
        writer.write(insets.right)
        writer.raw("}")
      case .options(let options):
        writer.raw(",\"options\":{\"colors\":")
        writer.write(options.colorsByAngle ? "angle" : options.chosenColor.hex)
        writer.raw(",\"chosen\":")
        writer.write(options.chosenColor.hex)
        writer.raw(",\"widths\":")
        writer.write(options.widthMode == .bySpeed ? "speed" : "fixed")
        if !options.penOnlyDraws { writer.raw(",\"penOnly\":false") }
        writer.raw("}")
      case .document(let drawing):
        writer.raw(",\"document\":")
        writer.raw(DocumentCoder.encode(drawing))
      case .ids(let source):
        writer.raw(",\"ids\":{\"origin\":")
        writer.write(Double(source.origin))
        writer.raw(",\"next\":")
        writer.write(Double(source.nextSerial))
        writer.raw("}")
      case .pending(let changes), .received(let changes):
        if case .pending = event.input { writer.raw(",\"pending\":[") } else { writer.raw(",\"received\":[") }
        for (number, change) in changes.enumerated() {
          if number > 0 { writer.raw(",") }
          ChangeCoder.write(change, bounds: nil, to: &writer)
        }
        writer.raw("]")
      case .confirmed(let count):
        writer.raw(",\"confirmed\":")
        writer.write(Double(count))
      case .key(let command):
        writer.raw(",\"key\":")
        writer.write(command.name)
      case .withdrawn(let count):
        writer.raw(",\"withdrawn\":")
        writer.write(Double(count))
      case .viewport(let offset, let zoom):
        writer.raw(",\"viewport\":{\"x\":")
        writer.write(offset.x)
        writer.raw(",\"y\":")
        writer.write(offset.y)
        writer.raw(",\"zoom\":")
        writer.write(zoom)
        writer.raw("}")
      }
      writer.raw("}")
    }
    writer.raw("]}")
    return writer.bytes
  }

  /// A touch's optional members, each only when it is not the default
  /// (so a finger's touch reads as it did before pens).
  private static func write(_ touch: TouchInput, to writer: inout JSONWriter) {
    if touch.type != .direct {
      writer.raw(",\"type\":")
      writer.write(touch.type.name)
    }
    if touch.hardware.maximumPossibleForce != 0 {
      writer.raw(",\"maxForce\":")
      writer.write(touch.hardware.maximumPossibleForce)
    }
    write(touch.hardware, to: &writer)
    if !touch.coalesced.isEmpty { write(touch.coalesced, named: ",\"coalesced\":[", to: &writer) }
    if !touch.predicted.isEmpty { write(touch.predicted, named: ",\"predicted\":[", to: &writer) }
  }

  private static func write(_ samples: [TouchSample], named opening: StaticString, to writer: inout JSONWriter) {
    writer.raw(opening)
    for (index, sample) in samples.enumerated() {
      writer.raw(index > 0 ? ",{\"time\":" : "{\"time\":")
      writer.write(sample.timestamp)
      writer.raw(",\"x\":")
      writer.write(sample.location.x)
      writer.raw(",\"y\":")
      writer.write(sample.location.y)
      write(sample.hardware, to: &writer)
      writer.raw("}")
    }
    writer.raw("]")
  }

  /// `"force"`, `"altitude"`, `"azimuth"`, each only when not the default.
  private static func write(_ hardware: TouchHardware, to writer: inout JSONWriter) {
    if hardware.force != 0 {
      writer.raw(",\"force\":")
      writer.write(hardware.force)
    }
    if hardware.altitudeAngle != Double.pi / 2 {
      writer.raw(",\"altitude\":")
      writer.write(hardware.altitudeAngle)
    }
    if hardware.azimuth != 0 {
      writer.raw(",\"azimuth\":")
      writer.write(hardware.azimuth)
    }
  }

  private static func write(_ size: Size, to writer: inout JSONWriter) {
    writer.raw("{\"width\":")
    writer.write(size.width)
    writer.raw(",\"height\":")
    writer.write(size.height)
    writer.raw("}")
  }
}
