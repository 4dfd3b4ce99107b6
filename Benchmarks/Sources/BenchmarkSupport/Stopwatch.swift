#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Monotonic nanoseconds, for timing ours and a baseline back to back inside
/// one benchmark iteration: on a shared, noisy machine a ratio of two
/// measurements taken a moment apart is far steadier than a ratio of two
/// benchmarks run seconds apart.
public enum Stopwatch {
  public static func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
  }

  /// Nanoseconds `body` took.
  @inline(never)
  public static func time(_ body: () -> Void) -> Int {
    let start = now()
    body()
    return Int(now() - start)
  }
}
