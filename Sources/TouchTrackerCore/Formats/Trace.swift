/// A recorded touch session, the input of `touchtracker replay`:
/// `{"size": {...}, "events": [{"time": 0, "touches": [...]}, {"time": 1, "tap": "Delete"}, ...]}`.
public struct Trace: Equatable, Sendable {
  public var size: Size
  public var events: [TraceEvent]
  /// Which rules two fingers follow in its replay (`TwoFingerRules`): 1,
  /// the default (every trace written before pan and zoom, and hand-written
  /// ones), the book's; 2, what the page does now (`currentVersion`, written
  /// by its recorder).
  public var version: Int

  /// The version a page's recording gets.
  public static let currentVersion = 2

  public init(size: Size = Size(width: 800, height: 600), events: [TraceEvent], version: Int = 1) {
    self.size = size
    self.events = events
    self.version = version
  }

  /// The rules its replay's two fingers follow.
  public var twoFingerRules: TwoFingerRules { version >= 2 ? .panAndZoom : .book }
}

/// One moment of a trace: the clock advances to `time`, then `input` is delivered.
public struct TraceEvent: Equatable, Sendable {
  public var time: Double
  public var input: Input

  public enum Input: Equatable, Sendable {
    /// Only the clock advances (timers fire).
    case none
    /// These touches changed together, as one event.
    case touches([TouchInput])
    /// A synthesized tap at the center of the visible control titled so.
    case tap(String)
    case undo
    case redo

    // What a page records besides touches (`PageHost`'s recorder): with
    // these, a recorded session replays to the drawing the page saved.

    /// Deletes the selected line and hides its menu (the Delete key).
    case deleteSelection
    case deselect
    case showPalette
    case hidePalette
    /// Every finger still down is cancelled (the page lost its input).
    case cancelTouches
    /// The palette's choice at this index (0 Black … 6 By Angle), as a key press chooses it.
    case chooseColor(Int)
    /// The window takes this size.
    case resize(Size)
    /// What the page's own controls cover.
    case safeArea(EdgeInsets)
    /// How new lines get their color and width.
    case options(DrawingOptions)
    /// The drawing is replaced (opened); the history starts here.
    case document(Drawing)
    /// Where new shapes' ids come from: an origin and the next serial.
    case ids(ShapeIDSource)
    /// This page's changes the server had not acknowledged when the
    /// recording started, on top of the document (others' go in beneath them).
    case pending([Change])
    /// Others' changes, in the server's order.
    case received([Change])
    /// The server acknowledged this many of the page's oldest changes.
    case confirmed(Int)
    /// This many of the page's oldest changes were in the drawing already (their answer was lost): taken back.
    case withdrawn(Int)
    /// The page panned or zoomed: the drawing's point at the top-left corner, and the zoom.
    case viewport(Point, zoom: Double)
    /// A key on the canvas (`KeyCommand`: the keyboard's focus, selection, nudges and lines).
    case key(KeyCommand)
  }

  public init(time: Double, input: Input) {
    self.time = time
    self.input = input
  }
}

extension Trace {
  /// Reads and checks a trace. Everything a replay would trip on is caught
  /// here, with its place: "Unknown phase 'moving' at events[2].touches[0].phase".
  public static func decode(_ text: String) throws(FormatError) -> Trace {
    let value: JSONValue
    do {
      value = try JSONParser.parse(text)
    } catch {
      throw FormatError(error.message)
    }
    let root = try JSONCursor(value, path: "").object()
    var trace = Trace(events: [])
    if let size = root.member("size") { trace.size = try self.size(size) }
    if let version = root.member("version") { trace.version = Int(try integer(version, in: 1...2)) }
    var down: [Int] = []
    var lastTime = -Double.infinity
    for element in try root.require("events").elements() {
      let event = try element.object()
      let timeField = try event.require("time")
      let time = try timeField.number()
      guard time >= 0 else { throw FormatError("Time must not be negative at \(timeField.path)") }
      guard time >= lastTime else {
        throw FormatError(
          "Time went back from \(NumberText.format(lastTime)) to \(NumberText.format(time)) at \(timeField.path)")
      }
      lastTime = time
      let kinds = inputKinds.filter { event.member($0) != nil }
      guard kinds.count <= 1 else {
        throw FormatError(
          "An event has only one of \(inputKinds.map { "'\($0)'" }.joined(separator: ", ")) at \(element.path)")
      }
      var input = TraceEvent.Input.none
      if let touches = event.member("touches") {
        input = .touches(try decodeTouches(touches, at: time, down: &down))
      } else if let tap = event.member("tap") {
        input = .tap(try tap.string())
      } else if let action = event.member("action") {
        input = try decodeAction(action)
        if input == .cancelTouches { down.removeAll() }
      } else if let kind = kinds.first, let field = event.member(kind) {
        input = try decodeRecorded(kind, field)
      }
      trace.events.append(TraceEvent(time: time, input: input))
    }
    return trace
  }

  /// `value` at the resolution traces write numbers with
  /// (`NumberText.fractionDigits` decimals): a page feeds its input through
  /// this, so what it records reads back as exactly what it played.
  public static func quantized(_ value: Double) -> Double {
    guard value.isFinite, abs(value) < 1e11 else { return value }
    return (value * 10_000).rounded() / 10_000
  }

  /// The members that say what an event delivers (at most one each).
  static let inputKinds = [
    "touches", "tap", "action", "color", "size", "safeArea", "options", "document", "ids", "pending", "received",
    "confirmed", "withdrawn", "viewport", "key",
  ]

  static let actions: [(name: String, input: TraceEvent.Input)] = [
    ("undo", .undo), ("redo", .redo), ("delete", .deleteSelection), ("deselect", .deselect),
    ("showPalette", .showPalette), ("hidePalette", .hidePalette), ("cancelTouches", .cancelTouches),
  ]

  private static func decodeAction(_ field: JSONCursor) throws(FormatError) -> TraceEvent.Input {
    let name = try field.string()
    guard let action = actions.first(where: { $0.name == name }) else {
      let expected = actions.map { "'\($0.name)'" }.joined(separator: ", ")
      throw FormatError("Unknown action \(QuotedToken.quoted(name)) at \(field.path); expected one of \(expected)")
    }
    return action.input
  }

  /// A whole number in `range` (a color index, an id origin, a count).
  private static func integer(_ field: JSONCursor, in range: ClosedRange<Double>) throws(FormatError) -> Double {
    let value = try field.number()
    guard value == value.rounded(), range.contains(value) else {
      throw FormatError(
        "Expected an integer from \(NumberText.format(range.lowerBound)) to \(NumberText.format(range.upperBound)) at \(field.path)"
      )
    }
    return value
  }

  private static func decodeRecorded(_ kind: String, _ field: JSONCursor) throws(FormatError) -> TraceEvent.Input {
    switch kind {
    case "color":
      return .chooseColor(Int(try integer(field, in: 0...Double(PaletteView.choices.count - 1))))
    case "size":
      return .resize(try size(field))
    case "safeArea":
      var sides: [Double] = []
      for name in ["top", "left", "bottom", "right"] {
        let side = try field.require(name)
        let value = try side.number()
        guard value >= 0, value <= PageInterface.maximumCanvasSide else {
          throw FormatError("Inset must be between 0 and 100000 at \(side.path)")
        }
        sides.append(value)
      }
      return .safeArea(EdgeInsets(top: sides[0], left: sides[1], bottom: sides[2], right: sides[3]))
    case "options":
      // {"colors": "angle" or "#rrggbb", "chosen": "#rrggbb" (the color "angle" goes back to),
      //  "widths": "fixed" or "speed", "penOnly": true or false (optional: palm rejection, on)}
      let colors = try field.require("colors")
      var options = DrawingOptions()
      if let chosen = field.member("chosen") { options.colorMode = .fixed(try DocumentCoder.color(chosen)) }
      if case .string("angle") = colors.value {
        options.colorsByAngle = true
      } else {
        options.colorMode = .fixed(try DocumentCoder.color(colors))
      }
      let widths = try field.require("widths")
      switch try widths.string() {
      case "fixed": options.widthMode = .fixed
      case "speed": options.widthMode = .bySpeed
      case let other:
        throw FormatError("Unknown widths \(QuotedToken.quoted(other)) at \(widths.path); expected 'fixed' or 'speed'")
      }
      // Absent in traces from before pens: on, the default, which changes nothing without a pen.
      if let penOnly = field.member("penOnly") {
        guard case .bool(let value) = penOnly.value else {
          throw FormatError("Expected true or false at \(penOnly.path)")
        }
        options.penOnlyDraws = value
      }
      return .options(options)
    case "document":
      do {
        return .document(try DocumentCoder.decode(field.value))
      } catch {
        throw FormatError("\(error.message) in \(field.path)")
      }
    case "ids":
      let origin = try integer(field.require("origin"), in: 0...Double(UInt32.max))
      let next = try integer(field.require("next"), in: 1...Double(ShapeID.serialLimit))
      return .ids(ShapeIDSource(origin: UInt32(origin), nextSerial: UInt64(next)))
    case "pending", "received":
      var changes: [Change] = []
      for element in try field.elements() { changes.append(try ChangeCoder.change(element)) }
      return kind == "pending" ? .pending(changes) : .received(changes)
    case "viewport":
      // {"x": the drawing's point at the top-left corner, "y", "zoom"}
      let zoom = try field.require("zoom")
      let scale = try zoom.number()
      guard DrawView.zoomRange.contains(scale) else {
        throw FormatError("Zoom must be between 0.1 and 8 at \(zoom.path)")
      }
      let offset = Point(x: try coordinate(field.require("x")), y: try coordinate(field.require("y")))
      return .viewport(offset, zoom: scale)
    case "withdrawn":
      return .withdrawn(Int(try integer(field, in: 0...Double(Int32.max))))
    case "key":
      let name = try field.string()
      guard let command = KeyCommand.allCases.first(where: { $0.name == name }) else {
        let expected = KeyCommand.allCases.map { "'\($0.name)'" }.joined(separator: ", ")
        throw FormatError("Unknown key \(QuotedToken.quoted(name)) at \(field.path); expected one of \(expected)")
      }
      return .key(command)
    default:  // "confirmed"
      return .confirmed(Int(try integer(field, in: 0...Double(Int32.max))))
    }
  }

  private static func size(_ field: JSONCursor) throws(FormatError) -> Size {
    let width = try field.require("width")
    let height = try field.require("height")
    let size = Size(width: try width.number(), height: try height.number())
    guard size.width >= 1, size.width <= 100_000 else {
      throw FormatError("Size must be between 1 and 100000 at \(width.path)")
    }
    guard size.height >= 1, size.height <= 100_000 else {
      throw FormatError("Size must be between 1 and 100000 at \(height.path)")
    }
    return size
  }
}
