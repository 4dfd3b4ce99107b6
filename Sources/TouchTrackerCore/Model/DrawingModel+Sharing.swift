/// Drawing together: other people's changes come in, in the order the
/// server's log has them, while this person goes on drawing.
///
/// The server orders every change; the model holds the log's drawing with
/// this person's unacknowledged changes on top. When others' changes
/// arrive, this person's unacknowledged ones are taken back (exactly, newest
/// first), the others' go in, and this person's go in again: what the server
/// will do once they reach it (they come after everything it sent before
/// their acknowledgement). So once everything is acknowledged, every device
/// holds exactly the log's drawing (docs/DESIGN.md, "Live sync over WebSocket").
///
/// Undo stays per person: it acts on this person's changes by id, and a
/// shape someone else took out is dropped from this person's undo and redo
/// (never brought back or moved by them).
extension DrawingModel {
  /// Applies other people's changes, oldest first. They are not published
  /// (they are in the log already) and not undoable here. Nil when the
  /// drawing did not change.
  @discardableResult
  public func receiveChanges(_ changes: [Change]) -> ModelUpdate? {
    guard !changes.isEmpty else { return nil }
    return rebase(under: changes, withdrawing: 0)
  }

  /// The oldest `count` of this person's unacknowledged changes were in
  /// the drawing already when it was read (sent again after a reload, their
  /// first answer lost): they are taken back, not kept on top twice.
  @discardableResult
  public func withdrawChanges(_ count: Int) -> ModelUpdate? {
    let count = min(max(count, 0), unconfirmed.count)
    guard count > 0 else { return nil }
    return rebase(under: [], withdrawing: count)
  }

  /// Takes this person's unacknowledged changes back (newest first), drops
  /// the oldest `withdrawing` of them, applies `changes`, and applies the
  /// rest of this person's again.
  private func rebase(under changes: [Change], withdrawing: Int) -> ModelUpdate? {
    var damage: Rect? = AppliedChange.nothing
    // Only a change of others that appends one line to the end is painted as an append.
    var isAppend = unconfirmed.isEmpty && changes.count == 1

    for index in unconfirmed.indices.reversed() {
      if let reversal = unconfirmed[index].reversal {
        absorb(drawing.applyTracked(reversal), into: &damage, isAppend: &isAppend)
      }
    }
    unconfirmed.removeFirst(withdrawing)
    var removedLines: [ShapeID] = []
    var removedCircles: [ShapeID] = []
    for change in changes {
      let applied = drawing.applyTracked(change)
      removedLines.append(contentsOf: applied.removedLines)
      removedCircles.append(contentsOf: applied.removedCircles)
      absorb(applied, into: &damage, isAppend: &isAppend)
    }
    for index in unconfirmed.indices {
      let applied = drawing.applyTracked(unconfirmed[index].change)
      unconfirmed[index].reversal = applied.reversal
      absorb(applied, into: &damage, isAppend: &isAppend)
    }
    undoStack.forget(lines: removedLines, circles: removedCircles)
    ids.skip(past: drawing)
    if damage == AppliedChange.nothing { return nil }
    version += 1
    return ModelUpdate(damage: damage, isAppend: isAppend)
  }

  /// Brings the index up to date after `applied`, and adds its damage to `damage`.
  private func absorb(_ applied: AppliedChange, into damage: inout Rect?, isAppend: inout Bool) {
    guard !applied.changedNothing else { return }
    lineIndex.apply(applied.edit, lines: drawing.lines)
    if let rect = applied.damage {
      if rect != AppliedChange.nothing { damage = damage.including(rect) }
    } else {
      damage = nil
    }
    if applied.edit != .appended { isAppend = false }
  }

  /// The oldest `count` published changes are in the server's log: they
  /// need no taking back any more.
  public func confirmChanges(_ count: Int) {
    unconfirmed.removeFirst(min(max(count, 0), unconfirmed.count))
  }

  /// The drawing without this person's unacknowledged changes (the log's,
  /// as far as this model knows) and those changes, oldest first: where a
  /// recording starts, so its replay takes others' changes in beneath
  /// them as this model does.
  public var sharedState: (base: Drawing, pending: [Change]) {
    var base = drawing
    for entry in unconfirmed.reversed() {
      if let reversal = entry.reversal { _ = base.applyTracked(reversal) }
    }
    return (base, unconfirmed.map { $0.change })
  }

  /// Puts `pending` on top of the drawing as this person's unacknowledged
  /// changes (after `load` of `sharedState`'s base; not undoable, not
  /// published again: they were already). False when there was nothing to put.
  @discardableResult
  public func restorePending(_ pending: [Change]) -> Bool {
    guard publishesChanges, !pending.isEmpty else { return false }
    for change in pending {
      let applied = drawing.applyTracked(change)
      unconfirmed.append(UnconfirmedChange(change: change, reversal: applied.reversal))
    }
    ids.skip(past: drawing)
    lineIndex.invalidate()
    version += 1
    return true
  }

  /// How many published changes wait for the server's acknowledgement.
  public var unconfirmedCount: Int { unconfirmed.count }
}

/// A published change the server has not acknowledged, with what takes it
/// back exactly from the drawing as it is now.
struct UnconfirmedChange {
  let change: Change
  var reversal: Reversal?
}
