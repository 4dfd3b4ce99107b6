/// A buffer in linear memory that keeps its address between calls, so a
/// page can read it through a typed-array view after a call returns (a
/// render list's floats, a document handed over).
///
/// Swift arrays may move their storage whenever they change; this buffer
/// moves only when it has to grow. The page must make a fresh view after
/// every call anyway, because growing the wasm memory detaches old views.
///
/// Its owner frees it (`deallocate()`, in the owner's `deinit`). (A struct,
/// not a class with a deinit: class metadata per element type costs wasm
/// bytes.) Memory comes from `malloc`, whose
/// failure is an answer (`reserve` returns false) rather than the trap a
/// failed Swift allocation is: the page can ask for a 256 MiB document.
public struct ExportBuffer<Element: BitwiseCopyable> {
  /// The first element, nil when nothing could be allocated.
  public private(set) var base: UnsafeMutablePointer<Element>?
  /// How many elements fit before the buffer has to move.
  public private(set) var capacity = 0
  /// How many elements it holds.
  public private(set) var count = 0

  /// A buffer with room for `capacity` elements (none if memory ran out).
  public init(capacity: Int) {
    _ = reserve(capacity)
  }

  /// Frees the memory; the buffer is empty afterwards.
  public mutating func deallocate() {
    release(base)
    base = nil
    capacity = 0
    count = 0
  }

  /// The address as the page sees it: an offset into the wasm memory, 0
  /// when nothing could be allocated. Always positive: the module's memory
  /// is capped at 2 GiB (see Scripts/build-wasm.sh), so no address needs
  /// the sign bit; a page should still read it with `>>> 0`.
  public var address: Int32 { Int32(truncatingIfNeeded: Int(bitPattern: UnsafeRawPointer(base))) }

  /// Makes room for `needed` elements; the contents are not kept when it
  /// moves. False (and the buffer as it was) when memory ran out.
  /// `exactly`: no more than `needed` (a 100 MB document in a 128 MiB
  /// buffer wasted 28 MB of a memory that never shrinks); else doubling, for
  /// buffers that grow a little at a time (render lists).
  @discardableResult
  public mutating func reserve(_ needed: Int, exactly: Bool = false) -> Bool {
    guard needed > capacity || base == nil else { return true }
    var grown = max(1, capacity)
    while grown < needed { grown = exactly ? needed : grown * 2 }
    guard let memory = malloc(grown * MemoryLayout<Element>.stride) else { return false }
    release(base)
    base = memory.bindMemory(to: Element.self, capacity: grown)
    capacity = grown
    count = 0
    return true
  }

  /// Replaces the contents; false (and the contents emptied) when memory ran out.
  @discardableResult
  public mutating func replace<C: Collection>(with elements: C) -> Bool where C.Element == Element {
    guard reserve(elements.count), let base else {
      count = 0
      return false
    }
    // An array's elements as one block copy: element by element, copying a
    // million lines' render list out took as long as building it.
    let copied = elements.withContiguousStorageIfAvailable { source in
      if let from = source.baseAddress {
        UnsafeMutableRawPointer(base).copyMemory(from: from, byteCount: source.count * MemoryLayout<Element>.stride)
      }
      return source.count
    }
    if let copied {
      count = copied
      return true
    }
    var index = 0
    for element in elements {
      base[index] = element
      index += 1
    }
    count = index
    return true
  }

  /// Marks the first `newCount` elements (written through `base`) as the contents.
  public mutating func setCount(_ newCount: Int) {
    count = max(0, min(newCount, capacity))
  }

  /// The contents.
  public var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: base == nil ? 0 : count) }
}

#if hasFeature(Embedded)
  // In the wasm, libc's allocator: its failure is nil, not a trap.
  @_extern(c, "malloc")
  private func malloc(_ size: Int) -> UnsafeMutableRawPointer?

  @_extern(c, "free")
  private func free(_ pointer: UnsafeMutableRawPointer?)
#else
  // Natively (tests) the runtime owns those names; the standard allocator does.
  private func malloc(_ size: Int) -> UnsafeMutableRawPointer? {
    UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: 16)
  }

  private func free(_ pointer: UnsafeMutableRawPointer?) {
    pointer?.deallocate()
  }
#endif

private func release<T>(_ pointer: UnsafeMutablePointer<T>?) {
  free(UnsafeMutableRawPointer(pointer))
}
