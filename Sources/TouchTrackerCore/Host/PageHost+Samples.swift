/// What the page's Pointer Events report besides positions: a
/// pen's force and angles, and the coalesced and predicted samples of a move.
///
/// The page reports the samples of a pointer's move first (`tt_touch_sample`)
/// and then the move itself (`tt_touch`), which takes them: one event per
/// pointer event, however many positions the browser coalesced into it.
/// Every number is taken at the trace format's resolution and within its
/// ranges, so a recording writes exactly what played (`Trace+Touches.swift`).
extension PageHost {
  /// Reads the page's numbers as hardware. NaN (an argument the page left
  /// out) reads as unknown; out of range, as the nearest value in range.
  /// Force is UIKit's (1.0 an average touch); `Web/input/pointers.js` maps
  /// the Pointer Events `pressure` to it.
  static func hardware(force: Double, maximumPossibleForce: Double, altitude: Double, azimuth: Double) -> TouchHardware
  {
    func clamped(_ value: Double, _ upper: Double, _ fallback: Double) -> Double {
      value.isFinite ? Trace.quantized(min(max(value, 0), upper)) : fallback
    }
    let maximum = clamped(maximumPossibleForce, Trace.maximumForce, 0)
    var altitudeAngle = clamped(altitude, Trace.maximumAltitude, Double.pi / 2)
    if altitudeAngle == Trace.maximumAltitude { altitudeAngle = Double.pi / 2 }  // as a finger, written as none
    var turn = azimuth
    if turn.isFinite {
      let whole = 2 * Double.pi
      turn -= whole * (turn / whole).rounded(.down)
    }
    return TouchHardware(
      force: clamped(force, maximum, 0), maximumPossibleForce: maximum, altitudeAngle: altitudeAngle,
      azimuth: clamped(turn, Trace.maximumAzimuth, 0))
  }

  /// Keeps one coalesced (or predicted) sample for pointer `id`'s next report.
  /// Refused: a non-finite position or time (`notFinite`), more than
  /// `Trace.maximumSamples`, or a playback running (`refused`).
  func addSample(id: Int, predicted: Bool, location: Point, time: Double, hardware: TouchHardware) -> TouchStatus {
    guard location.isFinite, time.isFinite else {
      return ignore(.notFinite, "A sample of touch \(id) has a non-finite location or time")
    }
    guard player == nil else { return ignore(.refused, "A recording is playing") }
    if samples.id != id { samples = PageSamples(id: id) }
    let sample = TouchSample(
      location: Point(x: Trace.quantized(location.x), y: Trace.quantized(location.y)),
      timestamp: Trace.quantized(time), hardware: hardware)
    if predicted {
      guard samples.predicted.count < Trace.maximumSamples else { return ignore(.refused, "Too many samples") }
      samples.predicted.append(sample)
    } else {
      guard samples.coalesced.count < Trace.maximumSamples else { return ignore(.refused, "Too many samples") }
      samples.coalesced.append(sample)
    }
    return .queued
  }

  /// The samples kept for `id` (none for another pointer), leaving none kept.
  /// A coalesced sample comes no later than the report that takes it.
  func takeSamples(for id: Int) -> PageSamples {
    defer { samples = PageSamples() }
    return samples.id == id ? samples : PageSamples()
  }
}

/// The samples the page reported for one pointer before its next `tt_touch`.
struct PageSamples {
  var id: Int?
  var coalesced: [TouchSample] = []
  var predicted: [TouchSample] = []

  /// Within what a trace accepts of a touch with this maximum force at
  /// `time`: no more force than it, and a coalesced sample no later.
  mutating func fit(to maximumForce: Double, before time: Double) {
    for index in coalesced.indices {
      coalesced[index].timestamp = min(coalesced[index].timestamp, time)
      coalesced[index].hardware.fit(to: maximumForce)
    }
    for index in predicted.indices { predicted[index].hardware.fit(to: maximumForce) }
  }
}

extension TouchHardware {
  fileprivate mutating func fit(to maximum: Double) {
    maximumPossibleForce = maximum
    force = min(force, maximum)
  }
}
