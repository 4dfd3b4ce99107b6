import TouchTrackerTestSupport

/// Small, structure-aware changes to valid documents and traces, the way a
/// fuzzer (or an attacker) would make them: bytes flipped, inserted, deleted
/// or repeated, numbers swapped for hostile ones, strings given control
/// characters, parts of another input spliced in. Seeded, so a failure in
/// the test run is the same on every run.
struct InputMutator {
  private var random: SplitMix64

  init(seed: UInt64) {
    random = SplitMix64(seed: seed)
  }

  /// Text that JSON parsers and these formats find interesting.
  static let tokens: [String] = [
    "1e999", "-1e999", "NaN", "Infinity", "-0", "1e9", "1000000000.5", "-1000000001", "1e-400", "0.00001",
    "123456789012345678901234567890", "\"\\u001b[31m\"", "\"\\n\"", "\"\\u0007\"", "\"\\ud800\"", "null", "true",
    "[]", "{}", "\"began\"", "\"moved\"", "\"ended\"", "\"cancelled\"", "\"stationary\"", "\"Delete\"", "\"undo\"",
    "\"#00ff00\"", "\"x\":1,", "\"time\":", "\"touches\":[", "\"id\":", String(repeating: "[", count: 70),
  ]

  /// A mutated copy of `input`; `other` may be spliced in.
  mutating func mutate(_ input: [UInt8], other: [UInt8]) -> [UInt8] {
    var bytes = input
    for _ in 0..<(1 + Int(random.next() % 4)) {
      let position = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count + 1))
      switch random.next() % 8 {
      case 0 where !bytes.isEmpty:
        let index = min(position, bytes.count - 1)
        bytes[index] ^= UInt8(truncatingIfNeeded: 1 << (random.next() % 8))
      case 1:
        let interesting: [UInt8] = [0x00, 0x07, 0x0A, 0x1B, 0x22, 0x2C, 0x5B, 0x5D, 0x7B, 0x7D, 0x5C, 0x7F, 0xC3, 0xFF]
        bytes.insert(interesting[Int(random.next() % UInt64(interesting.count))], at: position)
      case 2 where !bytes.isEmpty:
        let end = min(bytes.count, position + 1 + Int(random.next() % 16))
        if position < end { bytes.removeSubrange(position..<end) }
      case 3 where !bytes.isEmpty:
        let end = min(bytes.count, position + 1 + Int(random.next() % 32))
        if position < end { bytes.insert(contentsOf: Array(bytes[position..<end]), at: position) }
      case 4, 5:
        replaceNumber(in: &bytes, near: position)
      case 6:
        let token = InputMutator.tokens[Int(random.next() % UInt64(InputMutator.tokens.count))]
        bytes.insert(contentsOf: Array(token.utf8), at: position)
      default:
        guard !other.isEmpty else { break }
        let start = Int(random.next() % UInt64(other.count))
        let end = min(other.count, start + 1 + Int(random.next() % 64))
        bytes.insert(contentsOf: Array(other[start..<end]), at: position)
      }
    }
    return bytes
  }

  /// Replaces the number at or after `position` with a hostile one.
  private mutating func replaceNumber(in bytes: inout [UInt8], near position: Int) {
    func isNumberByte(_ byte: UInt8) -> Bool {
      (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
        || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
    }
    guard var start = bytes[position...].firstIndex(where: isNumberByte) else { return }
    while start > 0 && isNumberByte(bytes[start - 1]) { start -= 1 }
    var end = start
    while end < bytes.count && isNumberByte(bytes[end]) { end += 1 }
    let numbers = InputMutator.tokens.prefix(11)
    let replacement = numbers[numbers.startIndex + Int(random.next() % UInt64(numbers.count))]
    bytes.replaceSubrange(start..<end, with: Array(replacement.utf8))
  }
}
