import Testing
import TouchKitTestSupport

@testable import TouchTrackerCore

/// A trace's optional touch members for pens and samples (issue 9): they
/// read and write back, old traces read as before, and a bad value is
/// refused with its place.
@Suite struct TraceHardwareTests {
  static let penTrace = """
    {"size":{"width":800,"height":600},"events":[\
    {"time":0,"touches":[{"id":1,"phase":"began","x":10,"y":20,"type":"pencil","maxForce":2,"force":0.5,"altitude":0.8,"azimuth":1.25}]},\
    {"time":0.05,"touches":[{"id":1,"phase":"moved","x":30,"y":20,"type":"pencil","maxForce":2,"force":1.5,\
    "coalesced":[{"time":0.03,"x":20,"y":20,"force":1},{"time":0.04,"x":25,"y":20,"altitude":1.2}],\
    "predicted":[{"time":0.07,"x":35,"y":20,"force":1.5,"azimuth":0.5}]}]},\
    {"time":0.1,"touches":[{"id":1,"phase":"ended","x":30,"y":20,"type":"pencil","maxForce":2}]},\
    {"time":0.2,"touches":[{"id":2,"phase":"began","x":1,"y":2,"type":"indirectPointer"}]},\
    {"time":0.3,"options":{"colors":"#000000","chosen":"#000000","widths":"fixed","penOnly":false}}]}
    """

  @Test func penMembersAndSamplesRead() throws {
    let trace = try Trace.decode(Self.penTrace)
    guard case .touches(let began) = trace.events[0].input, case .touches(let moved) = trace.events[1].input else {
      Issue.record("expected touches")
      return
    }
    #expect(began[0].type == .pencil)
    #expect(began[0].hardware == TouchHardware(force: 0.5, maximumPossibleForce: 2, altitudeAngle: 0.8, azimuth: 1.25))
    #expect(moved[0].coalesced.map(\.location) == [Point(x: 20, y: 20), Point(x: 25, y: 20)])
    #expect(moved[0].coalesced.map(\.timestamp) == [0.03, 0.04])
    #expect(moved[0].coalesced[0].hardware == TouchHardware(force: 1, maximumPossibleForce: 2))
    #expect(moved[0].coalesced[1].hardware == TouchHardware(maximumPossibleForce: 2, altitudeAngle: 1.2))
    #expect(
      moved[0].predicted == [
        TouchSample(
          location: Point(x: 35, y: 20), timestamp: 0.07,
          hardware: TouchHardware(force: 1.5, maximumPossibleForce: 2, azimuth: 0.5))
      ])
    guard case .options(let options) = trace.events[4].input else {
      Issue.record("expected options")
      return
    }
    #expect(!options.penOnlyDraws)
  }

  @Test func penMembersWriteBackToTheSameText() throws {
    let trace = try Trace.decode(Self.penTrace)
    #expect(String(decoding: trace.encode(), as: UTF8.self) == Self.penTrace)
    #expect(try Trace.decode(String(decoding: trace.encode(), as: UTF8.self)) == trace)
  }

  @Test func aFingersTouchWritesNoneOfThem() throws {
    let trace = Trace(events: [
      TraceEvent(time: 0, input: .touches([began(1, 10, 20)])),
      TraceEvent(time: 0, input: .options(DrawingOptions())),
    ])
    #expect(
      String(decoding: trace.encode(), as: UTF8.self)
        == ##"{"size":{"width":800,"height":600},"events":[{"time":0,"touches":[{"id":1,"phase":"began","x":10,"y":20}]},{"time":0,"options":{"colors":"#000000","chosen":"#000000","widths":"fixed"}}]}"##
    )
  }

  @Test func anOldTraceReadsAsAFingerWithPalmRejectionOn() throws {
    let trace = try Trace.decode(TraceTests.contractExample)
    guard case .touches(let touches) = trace.events[0].input else {
      Issue.record("expected touches")
      return
    }
    #expect(touches[0].type == .direct)
    #expect(touches[0].hardware == .unknown)
    #expect(touches[0].coalesced.isEmpty && touches[0].predicted.isEmpty)
    let options = try Trace.decode(#"{"events":[{"time":0,"options":{"colors":"angle","widths":"speed"}}]}"#)
    #expect(options.events[0].input == .options(DrawingOptions(colorMode: .byAngle, widthMode: .bySpeed)))
  }

  static func touch(_ members: String, time: Double = 1) -> String {
    #"{"events":[{"time":\#(time),"touches":[{"id":1,"phase":"began","x":10,"y":10,\#(members)}]}]}"#
  }

  @Test(arguments: [
    (
      touch(#""type":"stylus""#),
      "Unknown touch type 'stylus' at events[0].touches[0].type; expected direct, pencil or indirectPointer"
    ),
    (touch(#""type":1"#), "Expected a string at events[0].touches[0].type, found a number"),
    (touch(#""force":0.5"#), "Expected a number from 0 to 0 at events[0].touches[0].force"),
    (touch(#""maxForce":2,"force":2.5"#), "Expected a number from 0 to 2 at events[0].touches[0].force"),
    (touch(#""maxForce":-1"#), "Expected a number from 0 to 1000 at events[0].touches[0].maxForce"),
    (touch(#""altitude":2"#), "Expected a number from 0 to 1.5708 at events[0].touches[0].altitude"),
    (touch(#""azimuth":-0.1"#), "Expected a number from 0 to 6.2832 at events[0].touches[0].azimuth"),
    (touch(#""azimuth":"north""#), "Expected a number at events[0].touches[0].azimuth, found a string"),
    (touch(#""coalesced":{}"#), "Expected an array at events[0].touches[0].coalesced, found an object"),
    (touch(#""coalesced":[{"x":1,"y":1}]"#), "Missing 'time' at events[0].touches[0].coalesced[0]"),
    (
      touch(#""coalesced":[{"time":2,"x":1,"y":1}]"#),
      "A coalesced sample's time must be from 0 to the event's at events[0].touches[0].coalesced[0].time"
    ),
    (
      touch(#""predicted":[{"time":2,"x":1,"y":1e300}]"#),
      "Coordinate out of range at events[0].touches[0].predicted[0].y; expected at most 1000000000 in magnitude"
    ),
    (
      touch(#""maxForce":1,"predicted":[{"time":2,"x":1,"y":1,"force":3}]"#),
      "Expected a number from 0 to 1 at events[0].touches[0].predicted[0].force"
    ),
    (
      touch(#""coalesced":[\#(Array(repeating: #"{"time":0,"x":1,"y":1}"#, count: 65).joined(separator: ","))]"#),
      "More than 64 samples at events[0].touches[0].coalesced"
    ),
    (
      #"{"events":[{"time":0,"options":{"colors":"angle","widths":"fixed","penOnly":1}}]}"#,
      "Expected true or false at events[0].options.penOnly"
    ),
  ])
  func badMembersAreRefusedWithTheirPlace(text: String, message: String) {
    #expect(throws: FormatError(message)) { try Trace.decode(text) }
  }
}
