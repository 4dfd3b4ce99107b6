/// CRC-32 (IEEE 802.3, the one zlib and PNG use) of a document's bytes.
///
/// Why a checksum at all: SQLite checks its own pages only loosely, so a bit
/// flipped inside a stored document would otherwise be served as if valid.
/// CRC-32 finds every burst of up to 32 flipped bits; it is not a defence
/// against someone who can write the file, only against damage.
///
/// Every read of a drawing checks it, so it runs over the whole document
/// each time (10 MB at 100,000 lines, 95 MB at a million). Contiguous bytes
/// (a native `String`'s UTF-8, an array) go eight at a time through eight
/// tables ("slicing-by-8"): ~0.4 ms a megabyte here, against ~2 ms a
/// megabyte a byte at a time, which took ~20 ms of every read of 100,000
/// lines.
public enum CRC32 {
  /// `tables[k * 256 + b]`: the CRC of byte `b` followed by `k` zero bytes.
  /// Table 0 is the classic bytewise one.
  private static let tables: [UInt32] = {
    var tables = [UInt32](repeating: 0, count: 8 * 256)
    for index in 0..<256 {
      var value = UInt32(index)
      for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
      tables[index] = value
    }
    for slice in 1..<8 {
      for index in 0..<256 {
        let previous = tables[(slice - 1) * 256 + index]
        tables[slice * 256 + index] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
      }
    }
    return tables
  }()

  /// The checksum of `bytes`; `CRC32.checksum("123456789".utf8) == 0xCBF43926`.
  ///
  /// - Complexity: O(n); contiguous bytes take the fast path.
  public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
    if let crc = bytes.withContiguousStorageIfAvailable({ checksum(UnsafeRawBufferPointer($0)) }) { return crc }
    var crc: UInt32 = 0xFFFF_FFFF
    tables.withUnsafeBufferPointer { tables in
      for byte in bytes { crc = tables[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }
    return crc ^ 0xFFFF_FFFF
  }

  /// The checksum of the bytes in `bytes`, eight at a time.
  public static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    tables.withUnsafeBufferPointer { tables in
      let count = bytes.count
      var offset = 0
      while offset + 8 <= count {
        let low = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian ^ crc
        let high = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self).littleEndian
        crc =
          tables[7 * 256 + Int(low & 0xFF)] ^ tables[6 * 256 + Int((low >> 8) & 0xFF)]
          ^ tables[5 * 256 + Int((low >> 16) & 0xFF)] ^ tables[4 * 256 + Int(low >> 24)]
          ^ tables[3 * 256 + Int(high & 0xFF)] ^ tables[2 * 256 + Int((high >> 8) & 0xFF)]
          ^ tables[256 + Int((high >> 16) & 0xFF)] ^ tables[Int(high >> 24)]
        offset += 8
      }
      while offset < count {
        crc = tables[Int((crc ^ UInt32(bytes[offset])) & 0xFF)] ^ (crc >> 8)
        offset += 1
      }
    }
    return crc ^ 0xFFFF_FFFF
  }
}
