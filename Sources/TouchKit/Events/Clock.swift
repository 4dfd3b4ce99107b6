/// The application's time: event timestamps and timer ticks from the host.
///
/// Nothing in the core reads a real clock. Tests, traces and the browser
/// advance it explicitly, so every gesture decision that waits (double-tap
/// interval, long press) is deterministic.
public final class Clock {
  /// The current time, in seconds. It only moves forward, through
  /// ``advance(to:)`` (which `Application.send(_:at:)` and
  /// `Application.advanceClock(to:)` call).
  @exclusivity(unchecked) public private(set) var now: Double = 0
  @exclusivity(unchecked) private var timers: [ScheduledTimer] = []
  private var nextSerial = 0

  /// A clock whose time is `now` seconds (0 by default), with no timers.
  public init(now: Double = 0) {
    self.now = now
  }

  /// Runs `action` once the clock reaches `now + delay`.
  @discardableResult
  public func schedule(after delay: Double, _ action: @escaping () -> Void) -> TimerToken {
    nextSerial += 1
    let token = TimerToken(serial: nextSerial)
    timers.append(ScheduledTimer(token: token, fireTime: now + delay, action: action))
    return token
  }

  /// Cancels the timer of `token` before it fires. Nil, or the token of a
  /// timer that already fired or was cancelled, does nothing.
  public func cancel(_ token: TimerToken?) {
    guard let token else { return }
    timers.removeAll { $0.token == token }
  }

  /// Whether any timer is still waiting to fire.
  public var hasPendingTimers: Bool { !timers.isEmpty }

  /// The earliest time a pending timer fires, if any.
  public var nextFireTime: Double? { timers.map { $0.fireTime }.min() }

  /// Moves time forward to `time`, firing every timer due by then in order of
  /// fire time (then scheduling order), each with the clock set to its fire time.
  /// Time never goes back; an earlier `time` is ignored.
  public func advance(to time: Double) {
    while let index = dueTimerIndex(by: time) {
      let timer = timers.remove(at: index)
      now = max(now, timer.fireTime)
      timer.action()
    }
    now = max(now, time)
  }

  private func dueTimerIndex(by time: Double) -> Int? {
    var best: Int?
    for index in timers.indices where timers[index].fireTime <= time {
      if let current = best {
        let a = timers[index]
        let b = timers[current]
        if a.fireTime < b.fireTime || (a.fireTime == b.fireTime && a.token.serial < b.token.serial) {
          best = index
        }
      } else {
        best = index
      }
    }
    return best
  }
}

/// Identifies a scheduled timer so it can be cancelled.
public struct TimerToken: Hashable, Sendable {
  let serial: Int
}

private struct ScheduledTimer {
  let token: TimerToken
  let fireTime: Double
  let action: () -> Void
}
