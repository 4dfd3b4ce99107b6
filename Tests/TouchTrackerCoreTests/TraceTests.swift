import Testing
import TouchTrackerCore

/// Reading touch traces (`touchtracker replay`'s input): the defaults, and
/// one sentence naming the place for everything a replay would trip on.
@Suite struct TraceTests {
  /// The example of DESIGN.md, "Contracts > Touch trace", as written there.
  static let contractExample = """
    {"size": {"width": 800, "height": 600},
     "events": [
       {"time": 0.00, "touches": [{"id": 1, "phase": "began", "x": 100, "y": 100}]},
       {"time": 0.02, "touches": [{"id": 1, "phase": "moved", "x": 200, "y": 100}]},
       {"time": 0.04, "touches": [{"id": 1, "phase": "ended", "x": 200, "y": 100}]},
       {"time": 1.00, "tap": "Delete"},
       {"time": 1.50, "action": "undo"},
       {"time": 2.00}
     ]}
    """

  @Test func decodesTheContractExample() throws {
    let trace = try Trace.decode(Self.contractExample)
    #expect(
      trace
        == Trace(
          size: Size(width: 800, height: 600),
          events: [
            TraceEvent(time: 0, input: .touches([TouchInput(id: 1, phase: .began, x: 100, y: 100)])),
            TraceEvent(time: 0.02, input: .touches([TouchInput(id: 1, phase: .moved, x: 200, y: 100)])),
            TraceEvent(time: 0.04, input: .touches([TouchInput(id: 1, phase: .ended, x: 200, y: 100)])),
            TraceEvent(time: 1, input: .tap("Delete")),
            TraceEvent(time: 1.5, input: .undo),
            TraceEvent(time: 2, input: .none),
          ]))
  }

  @Test func sizeDefaultsTo800By600() throws {
    let trace = try Trace.decode(#"{"events": []}"#)
    #expect(trace.size == Size(width: 800, height: 600))
    #expect(trace.events.isEmpty)
  }

  @Test func aGivenSizeIsKept() throws {
    let trace = try Trace.decode(#"{"size": {"width": 390, "height": 844}, "events": [{"time": 0}]}"#)
    #expect(trace.size == Size(width: 390, height: 844))
    #expect(trace.events == [TraceEvent(time: 0, input: .none)])
  }

  @Test func allPhasesAndRedoAreRead() throws {
    let trace = try Trace.decode(
      """
      {"events": [
        {"time": 0, "touches": [{"id": 7, "phase": "began", "x": 1, "y": 2}, {"id": 8, "phase": "began", "x": 3, "y": 4}]},
        {"time": 0, "touches": [{"id": 7, "phase": "stationary", "x": 1, "y": 2}, {"id": 8, "phase": "moved", "x": 5, "y": 6}]},
        {"time": 0.5, "touches": [{"id": 7, "phase": "cancelled", "x": 1, "y": 2}, {"id": 8, "phase": "ended", "x": 5, "y": 6}]},
        {"time": 0.5, "action": "redo"}
      ]}
      """)
    #expect(
      trace.events.map(\.input) == [
        .touches([TouchInput(id: 7, phase: .began, x: 1, y: 2), TouchInput(id: 8, phase: .began, x: 3, y: 4)]),
        .touches([TouchInput(id: 7, phase: .stationary, x: 1, y: 2), TouchInput(id: 8, phase: .moved, x: 5, y: 6)]),
        .touches([TouchInput(id: 7, phase: .cancelled, x: 1, y: 2), TouchInput(id: 8, phase: .ended, x: 5, y: 6)]),
        .redo,
      ])
  }

  /// What a page records besides touches (issue 11) reads back as written.
  @Test func aPagesRecordedCommandsReadAndWriteBack() throws {
    let text =
      ##"{"size":{"width":390.5,"height":700},"events":["##
      + ##"{"time":1.25,"safeArea":{"top":0,"left":0,"bottom":66.6667,"right":0}},"##
      + ##"{"time":1.25,"options":{"colors":"angle","chosen":"#ff0000","widths":"speed"}},"##
      + ##"{"time":1.25,"document":{"format":"touchtracker","version":1,"lines":[{"id":7,"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":"#000000","width":10}],"circles":[]}},"##
      + ##"{"time":1.25,"ids":{"origin":15460000,"next":3}},"##
      + ##"{"time":2,"action":"delete"},{"time":2,"action":"deselect"},{"time":2,"action":"showPalette"},"##
      + ##"{"time":2,"color":6},{"time":2,"action":"hidePalette"},{"time":2.5,"action":"cancelTouches"},"##
      + ##"{"time":3,"size":{"width":800,"height":600}},"##
      + ##"{"time":3,"received":[{"op":"delete","line":7}]},{"time":3.5,"confirmed":2}]}"##
    let trace = try Trace.decode(text)
    #expect(trace.events.count == 13)
    var options = DrawingOptions(colorMode: .fixed(try #require(Color(hex: "#ff0000"))), widthMode: .bySpeed)
    options.colorsByAngle = true
    #expect(trace.events[1].input == .options(options))
    #expect(trace.events[3].input == .ids(ShapeIDSource(origin: 15_460_000, nextSerial: 3)))
    #expect(trace.events[8].input == .hidePalette)
    #expect(trace.events[11].input == .received([.deleteLine(ShapeID(rawValue: 7))]))
    #expect(String(decoding: trace.encode(), as: UTF8.self) == text)
  }

  @Test func anIdMayBeginAgainAfterItsTouchEnded() throws {
    let trace = try Trace.decode(
      """
      {"events": [
        {"time": 0, "touches": [{"id": 1, "phase": "began", "x": 1, "y": 1}]},
        {"time": 0.1, "touches": [{"id": 1, "phase": "ended", "x": 1, "y": 1}]},
        {"time": 0.2, "touches": [{"id": 1, "phase": "began", "x": 5, "y": 5}]},
        {"time": 0.3, "touches": [{"id": 1, "phase": "cancelled", "x": 5, "y": 5}]}
      ]}
      """)
    #expect(trace.events.count == 4)
  }

  // MARK: Errors, word for word

  static func events(_ events: String...) -> String {
    #"{"events": ["# + events.joined(separator: ", ") + "]}"
  }

  static func touch(_ id: Int, _ phase: String) -> String {
    #"{"id": \#(id), "phase": "\#(phase)", "x": 10, "y": 10}"#
  }

  @Test(arguments: [
    (
      events(#"{"time": 0, "touches": [\#(touch(1, "moving"))]}"#),
      "Unknown phase 'moving' at events[0].touches[0].phase; expected began, moved, stationary, ended or cancelled"
    ),
    (
      events(#"{"time": 0.5}"#, #"{"time": 1}"#, #"{"time": 0.25}"#),
      "Time went back from 1 to 0.25 at events[2].time"
    ),
    (events(#"{"time": -1}"#), "Time must not be negative at events[0].time"),
    (
      events(
        #"{"time": 0, "touches": [\#(touch(1, "began"))]}"#, #"{"time": 0.1, "touches": [\#(touch(2, "moved"))]}"#),
      "Touch 2 moved before it began at events[1].touches[0]"
    ),
    (
      events(#"{"time": 0, "touches": [\#(touch(3, "ended"))]}"#),
      "Touch 3 ended before it began at events[0].touches[0]"
    ),
    (
      events(#"{"time": 0, "touches": [\#(touch(3, "stationary"))]}"#),
      "Touch 3 was stationary before it began at events[0].touches[0]"
    ),
    (
      events(
        #"{"time": 0, "touches": [\#(touch(1, "began"))]}"#, #"{"time": 0.1, "touches": [\#(touch(1, "ended"))]}"#,
        #"{"time": 0.2, "touches": [\#(touch(1, "moved"))]}"#),
      "Touch 1 moved before it began at events[2].touches[0]"
    ),
    (
      events(
        #"{"time": 0, "touches": [\#(touch(1, "began"))]}"#, #"{"time": 0.1, "touches": [\#(touch(1, "began"))]}"#),
      "Touch 1 began again before it ended at events[1].touches[0]"
    ),
    (
      events(#"{"time": 0, "touches": [\#(touch(4, "began")), \#(touch(4, "began"))]}"#),
      "Touch 4 appears twice at events[0].touches[1]"
    ),
    (
      events(#"{"time": 0, "action": "clear"}"#),
      "Unknown action 'clear' at events[0].action; expected one of 'undo', 'redo', 'delete', 'deselect', 'showPalette', 'hidePalette', 'cancelTouches'"
    ),
    (events(#"{"time": 0, "color": 7}"#), "Expected an integer from 0 to 6 at events[0].color"),
    (
      events(#"{"time": 0, "options": {"colors": "angle", "widths": "fast"}}"#),
      "Unknown widths 'fast' at events[0].options.widths; expected 'fixed' or 'speed'"
    ),
    (
      events(#"{"time": 0, "options": {"colors": "red", "widths": "fixed"}}"#),
      "Invalid color 'red' at events[0].options.colors; expected '#rrggbb'"
    ),
    (
      events(#"{"time": 0, "document": {"format": "touchtracker", "version": 2}}"#),
      "Unsupported version 2; expected 1 in events[0].document"
    ),
    (
      events(#"{"time": 0, "ids": {"origin": 4294967296, "next": 1}}"#),
      "Expected an integer from 0 to 4294967295 at events[0].ids.origin"
    ),
    (
      events(#"{"time": 0, "safeArea": {"top": -1, "left": 0, "bottom": 0, "right": 0}}"#),
      "Inset must be between 0 and 100000 at events[0].safeArea.top"
    ),
    (
      events(#"{"time": 0, "tap": "Delete", "action": "undo"}"#),
      "An event has only one of 'touches', 'tap', 'action', 'color', 'size', 'safeArea', 'options', 'document', 'ids', 'pending', 'received', 'confirmed', 'withdrawn', 'viewport', 'key' at events[0]"
    ),
    (
      events(#"{"time": 0}"#, #"{"time": 1, "touches": [], "tap": "Red"}"#),
      "An event has only one of 'touches', 'tap', 'action', 'color', 'size', 'safeArea', 'options', 'document', 'ids', 'pending', 'received', 'confirmed', 'withdrawn', 'viewport', 'key' at events[1]"
    ),
    (
      events(#"{"time": 0, "touches": [{"id": 1.5, "phase": "began", "x": 1, "y": 1}]}"#),
      "Touch id must be an integer at events[0].touches[0].id"
    ),
    (
      events(#"{"time": 0, "touches": [{"id": "a", "phase": "began", "x": 1, "y": 1}]}"#),
      "Expected a number at events[0].touches[0].id, found a string"
    ),
    (events(#"{"time": 0, "tap": 3}"#), "Expected a string at events[0].tap, found a number"),
    (events(#"{"touches": []}"#), "Missing 'time' at events[0]"),
    (
      events(#"{"time": 0, "touches": [{"id": 1, "phase": "began", "x": 1}]}"#),
      "Missing 'y' at events[0].touches[0]"
    ),
    (#"{"size": {"width": 800, "height": 600}}"#, "Missing 'events' at the top level"),
    (#"{"size": {"width": 0, "height": 600}, "events": []}"#, "Size must be between 1 and 100000 at size.width"),
    (#"{"size": {"width": -5, "height": 600}, "events": []}"#, "Size must be between 1 and 100000 at size.width"),
    (#"{"size": {"width": 0.5, "height": 600}, "events": []}"#, "Size must be between 1 and 100000 at size.width"),
    (#"{"size": {"width": 800, "height": 1e6}, "events": []}"#, "Size must be between 1 and 100000 at size.height"),
    (#"{"size": {"width": 800}, "events": []}"#, "Missing 'height' at size"),
    (#"{"size": [800, 600], "events": []}"#, "Expected an object at size, found an array"),
    ("{\"events\": [\n  {\"time\": 0,}\n]}", "Invalid JSON at line 2, column 14: expected a string key"),
    (
      "{\"events\": [\n  {\"time\": 0, \"touches\": [{\"id\": 1, \"phase\": \"began\", \"x\": NaN, \"y\": 1}]}\n]}",
      "Invalid JSON at line 2, column 60: non-finite number 'NaN'"
    ),
    (#"{"events": [{"time": 1e999}]}"#, "Invalid JSON at line 1, column 22: number out of range '1e999'"),
  ])
  func badTracesAreRefusedWithOneSentence(text: String, message: String) {
    #expect(decodeError(text) == message)
  }

  private func decodeError(_ text: String) -> String? {
    do {
      _ = try Trace.decode(text)
      return nil
    } catch {
      return error.message
    }
  }
}
