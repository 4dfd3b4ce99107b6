import Benchmark
import TouchTrackerStore

// Row 4's and row 10's reads: every read of a stored drawing checks its
// CRC-32 over the whole document (10 MB at 100,000 lines). Ours
// (`CRC32.checksum`, eight bytes at a time through eight tables) against
// the classic byte-at-a-time table CRC it replaced, over the same 10 MB of
// document text, in microseconds a pass.

let ours = BenchmarkMetric.custom("ours us per 10 MB", polarity: .prefersSmaller, useScalingFactor: false)
let classic = BenchmarkMetric.custom("byte at a time us per 10 MB", polarity: .prefersSmaller, useScalingFactor: false)
let ratio = BenchmarkMetric.custom("speedup x100", polarity: .prefersLarger, useScalingFactor: false)

/// The table CRC-32 a byte at a time: what `CRC32` did before.
let classicTable: [UInt32] = (0..<256).map { index in
  var value = UInt32(index)
  for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
  return value
}

@inline(never) func classicChecksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  classicTable.withUnsafeBufferPointer { table in
    for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
  }
  return crc ^ 0xFFFF_FFFF
}

func microseconds(_ body: () -> Void) -> Int {
  let (seconds, attoseconds) = ContinuousClock().measure(body).components
  return Int(Double(seconds) * 1e6 + Double(attoseconds) / 1e12)
}

let benchmarks: @Sendable () -> Void = {
  Benchmark(
    "CRC-32 of a 10 MB document",
    configuration: .init(
      metrics: [ours, classic, ratio], units: [ours: .count, classic: .count, ratio: .count], warmupIterations: 1,
      maxDuration: .seconds(4), maxIterations: 30)
  ) { (benchmark: Benchmark, text: String) in
    var fast: UInt32 = 0
    var slow: UInt32 = 0
    let oursTime = microseconds { fast = CRC32.checksum(text.utf8) }
    let classicTime = microseconds { slow = classicChecksum(text.utf8) }
    precondition(fast == slow, "the two CRC-32s differ")
    benchmark.measurement(ours, oursTime)
    benchmark.measurement(classic, classicTime)
    benchmark.measurement(ratio, classicTime * 100 / max(oursTime, 1))
  } setup: {
    // A line as documents store it, repeated to 10 MB.
    let line = ##"{"id":12345,"begin":{"x":417.25,"y":93.5},"end":{"x":800,"y":512.75},"color":"#000000","width":10},"##
    return String(repeating: line, count: 10_000_000 / line.utf8.count)
  }
}
