/// The keys of one JSON object being parsed, so that a duplicate is found in
/// constant expected time per key: an open-addressing table of key indices,
/// keyed by a seeded hash of the key's UTF-8 bytes.
///
/// Why not a linear search: 100k distinct keys took 10.9 s (quadratic), and
/// one such request pinned a server core. Why not `Set<String>`: the core
/// keeps `Set` and `Dictionary` out of the wasm for size, and `String`
/// hashing normalizes Unicode, which the wasm build stubs out. Keys are equal
/// when their bytes are (RFC 8259 compares code units, not canonical forms).
///
/// The seed is random per process natively (the server, the CLI), so a
/// client cannot precompute keys that all land in one slot; the wasm uses a
/// fixed seed, which is fine for a page parsing its own data.
///
/// - Complexity: `insert` is O(key length) expected. Memory: a copy of each
///   key's bytes and at most four 8-byte slots per key. Objects of up to
///   `linearLimit` keys use no table at all.
struct JSONKeySet {
  /// Below this many keys, comparing against each is cheaper than hashing.
  static let linearLimit = 8

  #if hasFeature(Embedded)
    /// The page parses its own data; a fixed seed keeps the wasm small.
    private static let seed: UInt64 = 0x5EED_1A57_C0DE_F00D
  #else
    /// Drawn once per process, on first use (a `static let` is initialized once, thread-safely).
    private static let seed: UInt64 = {
      var generator = SystemRandomNumberGenerator()
      return generator.next()
    }()
  #endif

  private var keys: [[UInt8]] = []
  /// Per slot, the key's index + 1 in the low 32 bits (0: empty) and the top
  /// 32 bits of its hash in the high ones, so that probing compares keys only
  /// when their hashes agree (a key's bytes are elsewhere in memory). The
  /// count is a power of two.
  private var slots: [UInt64] = []

  /// Adds `key`; false when it is already in the set.
  mutating func insert(_ key: [UInt8]) -> Bool {
    if keys.count < JSONKeySet.linearLimit {
      if keys.contains(key) { return false }
    } else {
      if slots.count < (keys.count + 1) * 2 { rebuild(capacity: max(64, slots.count * 2)) }
      guard place(key, index: keys.count) else { return false }
    }
    keys.append(key)
    return true
  }

  private mutating func place(_ key: [UInt8], index: Int) -> Bool {
    let mask = slots.count - 1
    let hash = JSONKeySet.hash(key)
    let fingerprint = hash & 0xFFFF_FFFF_0000_0000
    var slot = Int(truncatingIfNeeded: hash) & mask
    while slots[slot] != 0 {
      let entry = slots[slot]
      if entry & 0xFFFF_FFFF_0000_0000 == fingerprint && keys[Int(entry & 0xFFFF_FFFF) - 1] == key { return false }
      slot = (slot + 1) & mask
    }
    slots[slot] = fingerprint | UInt64(index + 1)
    return true
  }

  /// A table of `capacity` slots holding every key so far (all distinct).
  private mutating func rebuild(capacity: Int) {
    slots = [UInt64](repeating: 0, count: capacity)
    for index in keys.indices { _ = place(keys[index], index: index) }
  }

  /// FNV-1a over the bytes from a random starting point, then a full
  /// avalanche (SplitMix64's finalizer) so the low bits used as the slot
  /// depend on every byte.
  private static func hash(_ key: [UInt8]) -> UInt64 {
    var hash = seed ^ 0xCBF2_9CE4_8422_2325
    for byte in key { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    hash = (hash ^ (hash >> 30)) &* 0xBF58_476D_1CE4_E5B9
    hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
    return hash ^ (hash >> 31)
  }
}
