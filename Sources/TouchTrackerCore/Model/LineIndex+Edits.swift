/// Keeping the index up to date in place when lines are removed, inserted
/// or moved, so the first tap after an undo, a delete or a move does not
/// rebuild it (at 100,000 lines a rebuild takes tens of milliseconds).
///
/// A removed or moved line's entry is marked dead (`Entry.dead`) and queries
/// skip it; a moved or inserted line joins the loose lines (`unbucketed`),
/// which every query measures. Positions after a removal or insertion shift
/// in one pass over the entries (8 bytes each: about 0.1 ms at 100,000).
/// When dead entries and loose lines pile up past what appends may
/// (`rebuildThreshold`), the next query rebuilds: amortized O(1) per edit.
extension LineIndex {
  /// What a change did to the lines' positions.
  public enum Edit: Equatable, Sendable {
    /// Lines untouched (a circle changed).
    case none
    /// One line added after the last.
    case appended
    /// The last line taken away (an add undone).
    case removedLast
    case removed(Int)
    case inserted(Int)
    /// The line there changed its ends.
    case moved(Int)
    /// Anything else: the next query rebuilds.
    case everything
  }

  /// Brings the index up to date with `lines`, which `edit` just changed.
  public mutating func apply(_ edit: Edit, lines: [Line]) {
    switch edit {
    case .none: break
    case .appended:
      guard let line = lines.last else { return invalidate() }
      append(line, lines: lines)
    case .removedLast: remove(at: lines.count, lines: lines)
    case .removed(let position): remove(at: position, lines: lines)
    case .inserted(let position): insert(at: position, lines: lines)
    case .moved(let position): move(at: position, lines: lines)
    case .everything: invalidate()
    }
    _checkInvariants(lines)
  }

  /// Line `position` is gone; `lines` is without it.
  mutating func remove(at position: Int, lines: [Line]) {
    guard isCurrent, count == lines.count + 1, position >= 0, position < count else { return invalidate() }
    if position < builtCount {
      let removed = Int32(position)
      entries.withUnsafeMutableBufferPointer { entries in
        for index in entries.indices {
          let line = entries[index].line
          if line == removed {
            entries[index].line = Entry.dead
            deadCount += 1
          } else if line > removed {
            entries[index].line = line - 1
          }
        }
      }
      if let index = unbucketed.firstIndex(of: removed) {
        unbucketed.remove(at: index)
        if looseCount > 0 { looseCount -= 1 }
      }
      for index in unbucketed.indices where unbucketed[index] > removed { unbucketed[index] -= 1 }
      builtCount -= 1
    }
    setCount(count - 1)
  }

  /// A line was inserted at `position`; `lines` has it.
  mutating func insert(at position: Int, lines: [Line]) {
    guard isCurrent, count == lines.count - 1, position >= 0, position <= count else { return invalidate() }
    if position < builtCount {
      let inserted = Int32(position)
      entries.withUnsafeMutableBufferPointer { entries in
        for index in entries.indices where entries[index].line >= inserted { entries[index].line += 1 }
      }
      for index in unbucketed.indices where unbucketed[index] >= inserted { unbucketed[index] += 1 }
      unbucketed.append(inserted)
      looseCount += 1
      builtCount += 1
    }
    setCount(count + 1)
  }

  /// Line `position` has new ends.
  mutating func move(at position: Int, lines: [Line]) {
    guard isCurrent, count == lines.count, position >= 0, position < count else { return invalidate() }
    // Appended lines and loose ones are measured wherever they are.
    guard position < builtCount else { return }
    let moved = Int32(position)
    guard let index = entries.firstIndex(where: { $0.line == moved }) else { return }
    entries[index].line = Entry.dead
    deadCount += 1
    unbucketed.append(moved)
    looseCount += 1
  }

  /// Lines measured one by one on every query, beyond which a query rebuilds
  /// first: the same allowance appends get (1,024 + 1/32 of the bucketed).
  var needsRebuild: Bool {
    (count - builtCount) + looseCount + deadCount / 8 > 1_024 + builtCount / 32
  }
}
