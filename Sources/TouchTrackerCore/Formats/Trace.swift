/// A recorded touch session, the input of `touchtracker replay`:
/// `{"size": {...}, "events": [{"time": 0, "touches": [...]}, {"time": 1, "tap": "Delete"}, ...]}`.
public struct Trace: Equatable, Sendable {
  public var size: Size
  public var events: [TraceEvent]

  public init(size: Size = Size(width: 800, height: 600), events: [TraceEvent]) {
    self.size = size
    self.events = events
  }
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
    if let size = root.member("size") {
      let width = try size.require("width")
      let height = try size.require("height")
      trace.size = Size(width: try width.number(), height: try height.number())
      guard trace.size.width >= 1, trace.size.width <= 100_000 else {
        throw FormatError("Size must be between 1 and 100000 at \(width.path)")
      }
      guard trace.size.height >= 1, trace.size.height <= 100_000 else {
        throw FormatError("Size must be between 1 and 100000 at \(height.path)")
      }
    }
    var down: [Int] = []
    var lastTime = -Double.infinity
    for element in try root.require("events").elements() {
      let event = try element.object()
      let timeField = try event.require("time")
      let time = try timeField.number()
      guard time >= 0 else { throw FormatError("Time must not be negative at \(timeField.path)") }
      guard time >= lastTime else {
        throw FormatError(
          "Time went back from \(JSONNumber.format(lastTime)) to \(JSONNumber.format(time)) at \(timeField.path)")
      }
      lastTime = time
      let kinds = ["touches", "tap", "action"].filter { event.member($0) != nil }
      guard kinds.count <= 1 else {
        throw FormatError("An event has only one of 'touches', 'tap' or 'action' at \(element.path)")
      }
      var input = TraceEvent.Input.none
      if let touches = event.member("touches") {
        input = .touches(try decodeTouches(touches, down: &down))
      } else if let tap = event.member("tap") {
        input = .tap(try tap.string())
      } else if let action = event.member("action") {
        switch try action.string() {
        case "undo": input = .undo
        case "redo": input = .redo
        case let other:
          throw FormatError("Unknown action \(QuotedToken.quoted(other)) at \(action.path); expected 'undo' or 'redo'")
        }
      }
      trace.events.append(TraceEvent(time: time, input: input))
    }
    return trace
  }

  /// More fingers than any screen reports. The bound also keeps checking
  /// each touch against the fingers down (a linear search) linear overall.
  public static let maximumTouchesDown = 100

  /// A touch position the drawing can keep: a line drawn there must fit the
  /// document format (`DocumentCoder.maximumMagnitude`), or `render` and the
  /// server would refuse what `replay` printed.
  private static func coordinate(_ field: JSONCursor) throws(FormatError) -> Double {
    let value = try field.number()
    guard abs(value) <= DocumentCoder.maximumMagnitude else {
      throw FormatError(
        "Coordinate out of range at \(field.path); expected at most \(JSONNumber.format(DocumentCoder.maximumMagnitude)) in magnitude"
      )
    }
    return value
  }

  private static func decodeTouches(_ field: JSONCursor, down: inout [Int]) throws(FormatError) -> [TouchInput] {
    var inputs: [TouchInput] = []
    for element in try field.elements() {
      let touch = try element.object()
      let idField = try touch.require("id")
      let idNumber = try idField.number()
      guard idNumber == idNumber.rounded(), abs(idNumber) < 1e15 else {
        throw FormatError("Touch id must be an integer at \(idField.path)")
      }
      let id = Int(idNumber)
      let phaseField = try touch.require("phase")
      let phaseName = try phaseField.string()
      guard let phase = TouchPhase(name: phaseName) else {
        throw FormatError(
          "Unknown phase \(QuotedToken.quoted(phaseName)) at \(phaseField.path); expected began, moved, stationary, ended or cancelled"
        )
      }
      let location = Point(x: try coordinate(touch.require("x")), y: try coordinate(touch.require("y")))
      guard !inputs.contains(where: { $0.id == id }) else {
        throw FormatError("Touch \(id) appears twice at \(element.path)")
      }
      if phase == .began {
        guard !down.contains(id) else {
          throw FormatError("Touch \(id) began again before it ended at \(element.path)")
        }
        guard down.count < maximumTouchesDown else {
          throw FormatError("More than \(maximumTouchesDown) touches down at once at \(element.path)")
        }
        down.append(id)
      } else {
        guard down.contains(id) else {
          let verb = phase == .stationary ? "was stationary" : phase.name
          throw FormatError("Touch \(id) \(verb) before it began at \(element.path)")
        }
        if phase.isFinal { down.removeAll { $0 == id } }
      }
      inputs.append(TouchInput(id: id, phase: phase, location: location))
    }
    return inputs
  }
}
