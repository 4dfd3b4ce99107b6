/// A rate limit: `rate` events a second on average, `burst` at once.
///
/// Time comes in as an argument, so tests say when it is.
struct TokenBucket: Sendable {
  let rate: Double
  let burst: Double
  private var tokens: Double
  private var last: ContinuousClock.Instant?

  init(rate: Double, burst: Double) {
    self.rate = rate
    self.burst = burst
    self.tokens = burst
  }

  /// Takes one token if there is one at `now`.
  mutating func take(at now: ContinuousClock.Instant = .now) -> Bool {
    if let last {
      let elapsed = last.duration(to: now)
      let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
      tokens = min(burst, tokens + max(0, seconds) * rate)
    }
    last = now
    guard tokens >= 1 else { return false }
    tokens -= 1
    return true
  }
}
