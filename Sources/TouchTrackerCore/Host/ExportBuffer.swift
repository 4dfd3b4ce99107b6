/// A buffer in linear memory that keeps its address between calls, so the
/// page can read it through a typed-array view after a call returns.
///
/// Swift arrays may move their storage whenever they change; this buffer
/// moves only when it has to grow. The page must make a fresh view after
/// every call anyway, because growing the wasm memory detaches old views.
struct ExportBuffer<Element: BitwiseCopyable> {
  private(set) var base: UnsafeMutablePointer<Element>
  private(set) var capacity: Int
  private(set) var count = 0

  init(capacity: Int) {
    self.capacity = max(1, capacity)
    base = .allocate(capacity: self.capacity)
  }

  /// The address as the page sees it: an offset into the wasm memory.
  var address: Int32 { Int32(truncatingIfNeeded: Int(bitPattern: UnsafeRawPointer(base))) }

  /// Makes room for `needed` elements; the contents are not kept when it moves.
  mutating func reserve(_ needed: Int) {
    guard needed > capacity else { return }
    var grown = capacity
    while grown < needed { grown *= 2 }
    base.deallocate()
    base = .allocate(capacity: grown)
    capacity = grown
    count = 0
  }

  mutating func replace<C: Collection>(with elements: C) where C.Element == Element {
    reserve(elements.count)
    var index = 0
    for element in elements {
      base[index] = element
      index += 1
    }
    count = index
  }

  /// Marks the first `newCount` elements (written through `base`) as the contents.
  mutating func setCount(_ newCount: Int) {
    count = max(0, min(newCount, capacity))
  }

  var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }
}
