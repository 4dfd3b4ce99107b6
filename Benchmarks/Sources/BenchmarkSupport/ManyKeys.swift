import TouchTrackerCore

/// The JSON-parsing row: one object of `count` distinct keys (`{"k0":0,
/// "k1":1,...}`), the input that took the parser 10.9 s at 100k keys when it
/// searched the keys so far for each new one. Parsing must be linear: 80k
/// keys may take at most 5x as long as 20k (linear is 4x).
public enum ManyKeys {
  public static let counts = [20_000, 80_000]

  public static func object(count: Int) -> [UInt8] {
    var text = "{"
    for index in 0..<count {
      if index > 0 { text += "," }
      text += "\"k\(index)\":\(index)"
    }
    return Array((text + "}").utf8)
  }

  /// Nanoseconds one parse of `bytes` takes.
  public static func parseTime(_ bytes: [UInt8]) -> Int {
    var members = 0
    let nanoseconds = Stopwatch.time {
      if case .object(let parsed)? = try? JSONParser.parse(bytes: bytes) { members = parsed.count }
    }
    precondition(members > 0, "the object parses")
    return nanoseconds
  }

  /// The median over `rounds` of (time for 80k keys) / (time for 20k keys),
  /// each pair measured back to back.
  public static func medianRatio(rounds: Int) -> (small: Int, large: Int, ratio: Double) {
    let small = object(count: counts[0])
    let large = object(count: counts[1])
    var pairs: [(Int, Int)] = []
    for _ in 0..<rounds { pairs.append((parseTime(small), parseTime(large))) }
    pairs.sort { Double($0.1) / Double($0.0) < Double($1.1) / Double($1.0) }
    let middle = pairs[pairs.count / 2]
    return (middle.0, middle.1, Double(middle.1) / Double(middle.0))
  }
}
