import Testing
import TouchTrackerTestSupport

@testable import TouchTrackerStore

/// The checksum every stored drawing and change carries: eight bytes at a
/// time where the bytes are contiguous, and the same answer as the classic
/// byte-at-a-time CRC-32 for every length, alignment and content, so that
/// databases written before keep reading.
@Suite struct CRC32Tests {
  /// CRC-32 one bit at a time, straight from its definition: the oracle.
  static func reference(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }
    return crc ^ 0xFFFF_FFFF
  }

  @Test func knownValues() {
    #expect(CRC32.checksum("123456789".utf8) == 0xCBF4_3926)
    #expect(CRC32.checksum("The quick brown fox jumps over the lazy dog".utf8) == 0x414F_A339)
    #expect(CRC32.checksum([UInt8]()) == 0)
    #expect(CRC32.checksum([UInt8](repeating: 0, count: 32)) == 0x190A_55AD)
  }

  /// Every length from 0 to 80 (the eight-byte loop, its tail, both) at
  /// every start within eight bytes (unaligned loads), over seeded bytes.
  @Test func everyLengthAndAlignmentAgreesWithTheBitwiseDefinition() {
    var generator = SplitMix64(seed: 13)
    let bytes = (0..<96).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    for start in 0..<8 {
      for length in 0...80 {
        let slice = Array(bytes[start..<start + length])
        let fast = bytes.withUnsafeBytes {
          CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[start..<start + length]))
        }
        #expect(fast == Self.reference(slice), "start \(start), length \(length)")
        #expect(CRC32.checksum(slice) == fast)
      }
    }
  }

  /// Bytes that are not contiguous (a lazy sequence, a bridged string's
  /// view) take the byte-at-a-time path, with the same answer.
  @Test func bytesThatAreNotContiguousGiveTheSameChecksum() {
    let text = ##"{"lines":[{"id":1,"begin":{"x":10,"y":20},"end":{"x":30,"y":40},"color":"#ff8c00","width":10}]}"##
    let lazy = text.utf8.lazy.map { $0 }
    #expect(lazy.withContiguousStorageIfAvailable { _ in true } == nil, "the test needs a non-contiguous sequence")
    #expect(CRC32.checksum(lazy) == CRC32.checksum(text.utf8))
    #expect(CRC32.checksum(text.utf8) == Self.reference(Array(text.utf8)))
  }
}
