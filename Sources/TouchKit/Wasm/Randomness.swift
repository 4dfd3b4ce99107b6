/// Seeds for Swift's hashing (`Dictionary`, `Set`). Embedded Swift asks the C
/// library's `arc4random_buf`; wasi-libc's version asks the WASI host and
/// drags in `assert`, `fprintf` and stdio (about 30 KB) and four WASI
/// imports. A page that hashes only its own data needs no protection from
/// hash flooding, so a fixed-seed generator (SplitMix64) is enough and keeps
/// the module free of imports.
nonisolated(unsafe) private var splitMixState: UInt64 = 0x9E37_79B9_7F4A_7C15

@_cdecl("arc4random_buf")
func arc4randomBuffer(_ buffer: UnsafeMutableRawPointer, _ count: Int) {
  var index = 0
  while index < count {
    splitMixState &+= 0x9E37_79B9_7F4A_7C15
    var z = splitMixState
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    var byte = 0
    while byte < 8 && index < count {
      buffer.storeBytes(of: UInt8(truncatingIfNeeded: z >> (8 * UInt64(byte))), toByteOffset: index, as: UInt8.self)
      byte += 1
      index += 1
    }
  }
}
