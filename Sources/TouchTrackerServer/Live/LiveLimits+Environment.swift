import Foundation

extension LiveLimits {
  /// `TOUCHTRACKER_LIVE_PACED_MEMBERS`, if set to a number (`pacedMembers`):
  /// benchmarks turn pacing off with it, one binary for both runs.
  static let environmentPacedMembers: Int? = ProcessInfo.processInfo.environment["TOUCHTRACKER_LIVE_PACED_MEMBERS"]
    .flatMap { Int($0) }
}
