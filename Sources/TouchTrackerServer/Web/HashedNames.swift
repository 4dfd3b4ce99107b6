import CZlib
import Foundation

/// The page's files under names that carry their content's hash,
/// `assets/VERSION/core/bridge.js`, which a browser may keep for a year
/// without asking again: a changed file is a new name.
///
/// One hash, the page's version, names the folder for all of its files
/// rather than one hash a file: a module's relative imports
/// (`./paint/canvas.js`) then resolve to the same version with no import
/// map (an inline script, which the Content-Security-Policy forbids) and no
/// rewriting of the modules. The cost: a new build renames every file, so a
/// returning browser downloads the whole page (~230 KB gzipped) once again.
///
/// The hashes are computed from the bytes the server holds, when it serves
/// them (once for the built-in files, per request from a web root): they
/// are written nowhere else, so they cannot disagree with the files.
enum HashedNames {
  /// Sixteen lowercase hex digits: CRC-32 then Adler-32 of `bytes`. Neither
  /// is a cryptographic hash; these names only need a change to show, and
  /// two independent 32-bit checks miss one with odds of about 2^-64.
  static func hash(of bytes: Data) -> String {
    let (crc, adler) = bytes.withUnsafeBytes { buffer -> (UInt, UInt) in
      let base = buffer.bindMemory(to: Bytef.self).baseAddress
      var crc = crc32(0, nil, 0)
      var adler = adler32(0, nil, 0)
      var offset = 0
      // zlib takes a 32-bit length: a file past 4 GiB goes in pieces.
      while offset < buffer.count {
        let length = min(buffer.count - offset, 1 << 30)
        crc = crc32(crc, base! + offset, uInt(length))
        adler = adler32(adler, base! + offset, uInt(length))
        offset += length
      }
      return (UInt(crc), UInt(adler))
    }
    return hex8(crc) + hex8(adler)
  }

  private static func hex8(_ value: UInt) -> String {
    let digits = String(value & 0xffff_ffff, radix: 16)
    return String(repeating: "0", count: 8 - digits.count) + digits
  }

  /// The hash of a whole page: of every file's path and hash (`hashes`,
  /// path to hash), so any file changed, added or removed gives a new one.
  static func version(of hashes: [String: String]) -> String {
    hash(of: Data(hashes.keys.sorted().map { "\($0)\0\(hashes[$0]!)\n" }.joined().utf8))
  }

  /// The folder of hashed names: `assets/VERSION/`.
  static func folder(_ version: String) -> String { "assets/\(version)/" }

  /// The version and the plain path of `assets/VERSION/PATH`, or nil.
  static func split(_ path: String) -> (version: String, path: String)? {
    let parts = path.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0] == "assets" else { return nil }
    return (String(parts[1]), String(parts[2]))
  }
}
