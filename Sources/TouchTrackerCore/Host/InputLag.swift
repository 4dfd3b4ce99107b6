/// How far a page's touch timestamps trail its frames, so the clock can run
/// at the input's time rather than the frame's.
///
/// A browser stamps a pointer event with the time the hardware saw it and
/// hands it over later: the touch's time is tens of milliseconds before the
/// animation frame that delivers it. A clock advanced to each frame's time
/// is ahead of the touches still on their way, and a touch older than the
/// clock is delivered at the clock's time (time never goes back). The gaps
/// between fingers then grow by however late each arrived: a second finger
/// 60 ms after the first, delayed a frame more than the first, landed 81 ms
/// after it and missed the circle's 80 ms window. Kept behind the frames by
/// the lag it measures, the clock is at or before the next touch's time, so
/// touches keep their own times and gaps; timers fire that much later, as
/// UIKit's run from when it handles the touch.
struct InputLag {
  /// A sample above this is an idle gap, not latency; the lag never exceeds it.
  static let maximum = 0.05
  /// How long a sample counts: the lag follows the input's latency as it changes.
  static let memory = 0.5

  private var samples: [(at: Double, lag: Double)] = []
  private var newestInput: Double?

  /// A touch stamped `time` reached the core.
  mutating func noteInput(at time: Double) {
    newestInput = max(newestInput ?? time, time)
  }

  /// A frame at `frameTime`: the lag measured so far, with the newest input
  /// since the last frame as a sample (the frame that delivers a touch is
  /// at most a frame after it arrived, so a sample overstates the latency
  /// by at most a frame).
  mutating func lag(atFrame frameTime: Double) -> Double {
    if let input = newestInput {
      newestInput = nil
      let sample = frameTime - input
      if sample >= 0, sample <= InputLag.maximum { samples.append((frameTime, sample)) }
    }
    samples.removeAll { frameTime - $0.at > InputLag.memory || $0.at > frameTime }
    return samples.reduce(0) { max($0, $1.lag) }
  }
}
