/// A set of shape ids in constant expected time per id, to find a duplicate
/// in a document of a million shapes: open addressing over a power-of-two
/// table, keyed by a seeded hash (random per process natively, so ids a
/// client picks cannot all land in one slot on the server).
///
/// Not `Set<ShapeID>`: the core keeps `Set` and `Dictionary` out of the wasm for size.
struct ShapeIDSet {
  #if hasFeature(Embedded)
    private static let seed: UInt64 = 0x1D5E_7A11_5EED_0001
  #else
    private static let seed: UInt64 = {
      var generator = SystemRandomNumberGenerator()
      return generator.next()
    }()
  #endif

  /// Raw ids; 0 (never a valid id) marks an empty slot.
  private var slots: [UInt64]
  private(set) var count = 0

  init(capacity: Int = 0) {
    var size = 16
    while size < capacity * 2 { size *= 2 }
    slots = [UInt64](repeating: 0, count: size)
  }

  /// Adds `id` (valid: nonzero); false when it was there already.
  mutating func insert(_ id: ShapeID) -> Bool {
    if (count + 1) * 2 > slots.count { grow() }
    return place(id.rawValue)
  }

  func contains(_ id: ShapeID) -> Bool {
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: ShapeIDSet.hash(id.rawValue)) & mask
    while slots[slot] != 0 {
      if slots[slot] == id.rawValue { return true }
      slot = (slot + 1) & mask
    }
    return false
  }

  private mutating func place(_ raw: UInt64) -> Bool {
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: ShapeIDSet.hash(raw)) & mask
    while slots[slot] != 0 {
      if slots[slot] == raw { return false }
      slot = (slot + 1) & mask
    }
    slots[slot] = raw
    count += 1
    return true
  }

  private mutating func grow() {
    let old = slots
    slots = [UInt64](repeating: 0, count: old.count * 2)
    count = 0
    for raw in old where raw != 0 { _ = place(raw) }
  }

  /// SplitMix64's finalizer over the seeded id.
  private static func hash(_ raw: UInt64) -> UInt64 {
    var hash = raw ^ seed
    hash = (hash ^ (hash >> 30)) &* 0xBF58_476D_1CE4_E5B9
    hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
    return hash ^ (hash >> 31)
  }
}
