import CZlib
import Foundation

/// gzip (RFC 1952) through zlib, for the page's files: the server sends them
/// compressed to every browser that accepts it.
enum Gzip {
  /// `bytes` as a gzip member at `level` (1 fastest to 9 smallest); nil if
  /// zlib fails (out of memory).
  static func compress(_ bytes: Data, level: Int32 = 9) -> Data? {
    var stream = z_stream()
    // windowBits 15 + 16: a gzip header and trailer around the deflate data.
    guard
      deflateInit2_(
        &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
        Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { return nil }
    defer { deflateEnd(&stream) }
    var output = Data(count: Int(deflateBound(&stream, uLong(bytes.count))))
    let status = bytes.withUnsafeBytes { input in
      output.withUnsafeMutableBytes { out in
        stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
        stream.avail_in = uInt(input.count)
        stream.next_out = out.bindMemory(to: Bytef.self).baseAddress
        stream.avail_out = uInt(out.count)
        return deflate(&stream, Z_FINISH)
      }
    }
    guard status == Z_STREAM_END else { return nil }
    output.count = Int(stream.total_out)
    return output
  }

  /// Whether an `Accept-Encoding` value accepts gzip: `gzip` (or `*`)
  /// listed without `q=0`.
  static func isAccepted(by acceptEncoding: String) -> Bool {
    var starAccepted = false
    for entry in acceptEncoding.split(separator: ",") {
      let parts = entry.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
      guard let coding = parts.first else { continue }
      let refused = parts.dropFirst().contains {
        $0.replacingOccurrences(of: " ", with: "").range(of: #"^q=0(\.0{0,3})?$"#, options: .regularExpression) != nil
      }
      if coding == "gzip" || coding == "x-gzip" { return !refused }
      if coding == "*" { starAccepted = !refused }
    }
    return starAccepted
  }
}
