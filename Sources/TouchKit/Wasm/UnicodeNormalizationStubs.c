// Stand-ins for the Unicode normalization tables of Embedded Swift's
// libswiftUnicodeDataTables.a, linked into the wasm module instead of them.
//
// Why: comparing or hashing Strings can need NFC normalization, so any
// `String ==` links these tables: 32 KB of data, a seventh of the module.
// The strings the page's core compares are ASCII (JSON keys, colors, button
// titles), and ASCII never reaches the tables.
//
// What changes: every scalar is reported as already normalized (the value
// the real table gives every scalar below U+00C0), so two non-ASCII strings
// compare equal only when their scalars are equal. Canonically equivalent
// but differently composed strings ("é" as one or two scalars) would compare
// unequal; nothing in the page depends on that.
//
// Signatures: swift/stdlib/public/SwiftShims/swift/shims/UnicodeData.h.

typedef unsigned char uint8;
typedef unsigned short uint16;
typedef unsigned int uint32;

uint16 _swift_stdlib_getNormData(uint32 scalar) {
  (void)scalar;
  return 0;  // canonical combining class 0, NFC and NFD quick check "yes"
}

// Never read: only scalars whose normalization data says they decompose are looked up.
const uint8 *const _swift_stdlib_nfd_decompositions = 0;

uint32 _swift_stdlib_getDecompositionEntry(uint32 scalar) {
  (void)scalar;
  return 0;
}

uint32 _swift_stdlib_getComposition(uint32 x, uint32 y) {
  (void)x;
  (void)y;
  return 0xFFFFFFFFu;  // no composition
}
