/// A `Change` as it went into one drawing: what the line index, the static
/// layer and an exact reversal need to know. Undo, redo and other people's
/// changes go in this way (by id, wherever the shapes are by then); a
/// change's `reversal` takes it back exactly, which is how this person's
/// unacknowledged changes step aside for others' (`DrawingModel.rebase`).
///
/// A new kind of change is defined in `Change.swift` (the case and its
/// plain `apply`), here (what it did and what takes it back) and in
/// `ChangeCoder.swift` (its JSON); everything else (the model, undo, the
/// static layer, the store's log) goes by what these say.
struct AppliedChange {
  /// What it did to the lines' positions.
  var edit: LineIndex.Edit = .none
  /// Every pixel it colored or uncolored: nil for everything, `nothing` when it changed nothing.
  var damage: Rect? = AppliedChange.nothing
  /// What takes it back exactly: ids, positions and shapes (nil: it changed nothing).
  var reversal: Reversal?
  /// What an undo applies when the exact reversal restores the drawing
  /// (see `undo`).
  var undoInstead: Change?

  /// What takes it back by id, wherever the shapes are by then: what an
  /// undo applies (nil: it changed nothing, or it replaced many shapes).
  var undo: Change? {
    switch reversal {
    case .apply(let change)?: change
    case .restore?: undoInstead
    case nil: nil
    }
  }
  /// The ids of the shapes it took out (a delete, a clear).
  var removedLines: [ShapeID] = []
  var removedCircles: [ShapeID] = []

  static let nothing = Rect(x: 0, y: 0, width: 0, height: 0)

  var changedNothing: Bool { damage == AppliedChange.nothing && edit == .none }
}

/// What takes an applied change back.
enum Reversal {
  /// A change by id: enough for most (delete what was added, add back
  /// where it was what was deleted, move back what was moved).
  case apply(Change)
  /// The whole drawing as it was: for the rare changes that are not undone
  /// by id (an add that replaced shapes or added many, a circle's delete:
  /// changes put circles only at the end, a clear). Costs a copy of the
  /// arrays the change then modified.
  case restore(Drawing)
}

extension Drawing {
  /// Applies `change` as `apply(_:)` does, and says what it did.
  /// `freshIDs`: the caller knows that the shapes it adds have ids the
  /// drawing does not hold (its `ShapeIDSource` just made them), so no
  /// scan looks for them.
  ///
  /// - Complexity: O(shapes) for a change by id; an add of more than one
  ///   line, or one that replaces shapes, makes the index rebuild.
  mutating func applyTracked(_ change: Change, freshIDs: Bool = false) -> AppliedChange {
    var applied = AppliedChange()
    switch change {
    case .add(let added, let addedCircles, let position):
      if added.count + addedCircles.count == 1 {
        let id = added.first?.id ?? addedCircles[0].id
        if freshIDs || (!lines.contains(where: { $0.id == id }) && !circles.contains(where: { $0.id == id })) {
          if let line = added.first {
            let at = min(max(position ?? lines.count, 0), lines.count)
            lines.insert(line, at: at)
            // Put back in its place (an undone delete) is an insert, even at the end.
            applied.edit = position == nil ? .appended : .inserted(at)
            applied.damage = line.paintedBounds
            applied.reversal = .apply(.deleteLine(id))
          } else {
            circles.append(addedCircles[0])
            applied.damage = addedCircles[0].paintedBounds
            applied.reversal = .apply(.deleteCircle(id))
          }
          return applied
        }
      }
      guard !added.isEmpty || !addedCircles.isEmpty else { break }
      // Many shapes, or shapes replacing ones with their ids: taken back as a whole.
      applied.reversal = .restore(self)
      apply(change)
      applied.edit = .everything
      applied.damage = nil
    case .deleteLine(let id):
      guard let index = lines.lastIndex(where: { $0.id == id }) else { break }
      let line = lines.remove(at: index)
      applied.edit = .removed(index)
      applied.damage = line.paintedBounds
      applied.reversal = .apply(.add(lines: [line], circles: [], at: index))
      applied.removedLines = [id]
    case .deleteCircle(let id):
      guard let index = circles.lastIndex(where: { $0.id == id }) else { break }
      applied.reversal = .restore(self)
      let circle = circles.remove(at: index)
      applied.damage = circle.paintedBounds
      applied.undoInstead = .add(lines: [], circles: [circle], at: nil)
      applied.removedCircles = [id]
    case .moveLine(let id, let begin, let end):
      guard let index = lines.lastIndex(where: { $0.id == id }) else { break }
      let old = lines[index]
      lines[index].begin = begin
      lines[index].end = end
      applied.edit = .moved(index)
      applied.damage = old.paintedBounds.union(lines[index].paintedBounds)
      applied.reversal = .apply(.moveLine(id, begin: old.begin, end: old.end))
    case .moveCircle(let id, let center):
      guard let index = circles.lastIndex(where: { $0.id == id }) else { break }
      let old = circles[index]
      circles[index].center = center
      applied.damage = old.paintedBounds.union(circles[index].paintedBounds)
      applied.reversal = .apply(.moveCircle(id, center: old.center))
    case .recolor(let shape, let color):
      let old: Color
      switch shape {
      case .line(let id):
        guard let index = lines.lastIndex(where: { $0.id == id }) else { return applied }
        old = lines[index].color
        lines[index].color = color
        applied.damage = lines[index].paintedBounds
      case .circle(let id):
        guard let index = circles.lastIndex(where: { $0.id == id }) else { return applied }
        old = circles[index].color
        circles[index].color = color
        applied.damage = circles[index].paintedBounds
      }
      applied.reversal = .apply(.recolor(shape, color: old))
    case .clear:
      guard !isEmpty else { break }
      let before = self
      self = Drawing()
      applied.edit = .everything
      applied.damage = nil
      applied.reversal = .restore(before)
      applied.undoInstead = .add(lines: before.lines, circles: before.circles, at: nil)
      for line in before.lines { applied.removedLines.append(line.id) }
      for circle in before.circles { applied.removedCircles.append(circle.id) }
    }
    return applied
  }

  /// Takes a change back (its own reversal is not needed: what it
  /// reverses is applied again from its change).
  mutating func applyTracked(_ reversal: Reversal) -> AppliedChange {
    switch reversal {
    case .apply(let change):
      return applyTracked(change)
    case .restore(let drawing):
      self = drawing
      var applied = AppliedChange()
      applied.edit = .everything
      applied.damage = nil
      return applied
    }
  }
}

extension Optional where Wrapped == Rect {
  /// This damage grown to take in `rect` (nil, everything, stays nil).
  func including(_ rect: Rect) -> Rect? {
    guard let damage = self else { return nil }
    return damage == AppliedChange.nothing ? rect : damage.union(rect)
  }
}
