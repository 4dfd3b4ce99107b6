import Testing
import TouchTrackerTestSupport

@testable import TouchTrackerStore

@Suite struct AccessKeyTests {
  @Test func keysAre32URLSafeCharactersAndNeverRepeat() {
    var seen = Set<String>()
    for _ in 0..<2000 {
      let key = AccessKey.random()
      #expect(AccessKey.isWellFormed(key))
      #expect(key.utf8.count == 32)
      seen.insert(key)
    }
    #expect(seen.count == 2000)
  }

  /// 24 bytes, every bit of them in the key: keys from generators that
  /// differ in one bit differ, and RFC 4648's base64url is what is written.
  @Test func everyRandomBitReachesTheKey() {
    #expect(AccessKey.base64URL([0xFB, 0xFF, 0xBF]) == "-_-_")
    #expect(AccessKey.base64URL(Array("foobar".utf8)) == "Zm9vYmFy")
    #expect(AccessKey.base64URL(Array("fo".utf8)) == "Zm8")
    struct Constant: RandomNumberGenerator {
      var word: UInt64
      mutating func next() -> UInt64 { word }
    }
    var zero = Constant(word: 0)
    #expect(AccessKey.random(using: &zero) == String(repeating: "A", count: 32))
    var keys = Set<String>()
    for bit in 0..<64 {
      var generator = Constant(word: 1 << UInt64(bit))
      keys.insert(AccessKey.random(using: &generator))
    }
    #expect(keys.count == 64)
    var seeded = SplitMix64(seed: 7)
    var again = SplitMix64(seed: 7)
    #expect(AccessKey.random(using: &seeded) == AccessKey.random(using: &again))
  }

  @Test func matchesIsEqualityWhereverTheKeysDiffer() {
    let key = AccessKey.random()
    #expect(AccessKey.matches(key, key))
    for index in [0, 15, 31] {
      var bytes = Array(key.utf8)
      bytes[index] = bytes[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
      #expect(!AccessKey.matches(String(decoding: bytes, as: UTF8.self), key))
    }
    #expect(!AccessKey.matches(String(key.dropLast()), key))
    // Constant time: every byte is compared wherever the keys differ, so
    // a refusal takes as long for a guess right but for its last character
    // as for one wrong from the first.
    for index in 0..<32 {
      var bytes = Array(key.utf8)
      bytes[index] ^= 1
      #expect(AccessKey.compare(String(decoding: bytes, as: UTF8.self), key) == (false, 32))
    }
    #expect(AccessKey.compare(key, key) == (true, 32))
    #expect(!AccessKey.matches(key + "A", key))
    #expect(!AccessKey.matches("", key))
  }

  @Test func aLinkOpensWhatItIsForAndNothingElse() {
    let links = DrawingLinks(edit: AccessKey.random(), view: AccessKey.random())
    #expect(links.access(for: links.edit) == .edit)
    #expect(links.access(for: links.view) == .view)
    #expect(links.access(for: AccessKey.random()) == nil)
    #expect(links.access(for: "") == nil)
  }
}
