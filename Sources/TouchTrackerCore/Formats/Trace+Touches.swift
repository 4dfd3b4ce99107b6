/// A trace's touches: `{"id", "phase", "x", "y"}`, and what hardware
/// reports besides: `"type"`, `"force"`, `"maxForce"`,
/// `"altitude"`, `"azimuth"`, and the `"coalesced"` and `"predicted"`
/// samples, each `{"time", "x", "y"}` with the same optional force and
/// angles. Every one is optional, so old traces read as before.
extension Trace {
  /// More fingers than any screen reports. The bound also keeps checking
  /// each touch against the fingers down (a linear search) linear overall.
  public static let maximumTouchesDown = 100

  /// A touch position the drawing can keep: a line drawn there must fit the
  /// document format (`DocumentCoder.maximumMagnitude`), or `render` and the
  /// server would refuse what `replay` printed.
  static func coordinate(_ field: JSONCursor) throws(FormatError) -> Double {
    let value = try field.number()
    guard abs(value) <= DocumentCoder.maximumMagnitude else {
      throw FormatError(
        "Coordinate out of range at \(field.path); expected at most \(NumberText.format(DocumentCoder.maximumMagnitude)) in magnitude"
      )
    }
    return value
  }

  static func decodeTouches(_ field: JSONCursor, at time: Double, down: inout [Int]) throws(FormatError) -> [TouchInput]
  {
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
      var input = TouchInput(id: id, phase: phase, location: location)
      if let type = touch.member("type") {
        let name = try type.string()
        guard let known = TouchType(name: name) else {
          throw FormatError(
            "Unknown touch type \(QuotedToken.quoted(name)) at \(type.path); expected direct, pencil or indirectPointer"
          )
        }
        input.type = known
      }
      let maxForce = try number(touch.member("maxForce"), in: 0...maximumForce, default: 0)
      input.hardware = try hardware(touch, maximumForce: maxForce)
      if let coalesced = touch.member("coalesced") {
        input.coalesced = try samples(coalesced, maximumForce: maxForce, before: time)
      }
      if let predicted = touch.member("predicted") {
        input.predicted = try samples(predicted, maximumForce: maxForce, before: nil)
      }
      inputs.append(input)
    }
    return inputs
  }

  /// The most force a trace may report (UIKit's devices report up to about 6.7).
  static let maximumForce = 1000.0
  /// π/2 at the format's resolution, so a quantized perpendicular pen reads back.
  static let maximumAltitude = quantized(Double.pi / 2)
  /// 2π at the format's resolution.
  static let maximumAzimuth = quantized(2 * Double.pi)
  /// The most samples a touch may carry per event (a browser coalesces a few per frame).
  public static let maximumSamples = 64

  /// A number in `range`, or `fallback` when the member is absent.
  private static func number(
    _ field: JSONCursor?, in range: ClosedRange<Double>, default fallback: Double
  ) throws(FormatError) -> Double {
    guard let field else { return fallback }
    let value = try field.number()
    guard range.contains(value) else {
      throw FormatError(
        "Expected a number from \(NumberText.format(range.lowerBound)) to \(NumberText.format(range.upperBound)) at \(field.path)"
      )
    }
    return value
  }

  /// `"force"` (at most the touch's `"maxForce"`), `"altitude"` and `"azimuth"`, each optional.
  private static func hardware(_ object: JSONCursor, maximumForce: Double) throws(FormatError) -> TouchHardware {
    TouchHardware(
      force: try number(object.member("force"), in: 0...maximumForce, default: 0),
      maximumPossibleForce: maximumForce,
      altitudeAngle: try number(object.member("altitude"), in: 0...maximumAltitude, default: Double.pi / 2),
      azimuth: try number(object.member("azimuth"), in: 0...maximumAzimuth, default: 0))
  }

  /// Coalesced samples come at or `before` the event's time; predicted ones (nil) at any time.
  private static func samples(
    _ field: JSONCursor, maximumForce: Double, before time: Double?
  ) throws(FormatError) -> [TouchSample] {
    let elements = try field.elements()
    guard elements.count <= maximumSamples else {
      throw FormatError("More than \(maximumSamples) samples at \(field.path)")
    }
    var samples: [TouchSample] = []
    for element in elements {
      let sample = try element.object()
      let timeField = try sample.require("time")
      let sampleTime = try timeField.number()
      guard sampleTime >= 0, sampleTime <= (time ?? sampleTime) else {
        throw FormatError("A coalesced sample's time must be from 0 to the event's at \(timeField.path)")
      }
      let location = Point(x: try coordinate(sample.require("x")), y: try coordinate(sample.require("y")))
      samples.append(
        TouchSample(
          location: location, timestamp: sampleTime, hardware: try hardware(sample, maximumForce: maximumForce)))
    }
    return samples
  }
}
