/// Undo and redo of this person's finished changes, by id: an undo takes
/// back what this person did wherever the shapes are by then, even after
/// other people's changes came in between (`DrawingModel.receiveChanges`). A new
/// change clears what could be redone.
public struct UndoStack: Sendable {
  /// One action: what doing it applies, and what undoing it applies.
  struct Entry: Sendable {
    var forward: Change
    var backward: Change
  }

  /// Every action kept, oldest first; those before `done` are done (undoable),
  /// the rest were undone (redoable).
  private var entries: [Entry] = []
  private var done = 0
  /// Older changes are forgotten beyond this many, so memory stays bounded.
  public var limit = 1000

  public init() {}

  public var canUndo: Bool { done > 0 }
  public var canRedo: Bool { done < entries.count }

  /// Records an action: `forward` does it, `backward` takes it back by id.
  public mutating func record(_ forward: Change, undoneBy backward: Change) {
    entries.removeLast(entries.count - done)
    entries.append(Entry(forward: forward, backward: backward))
    if entries.count > limit { entries.removeFirst(entries.count - limit) }
    done = entries.count
  }

  /// The change that undoes the newest action (now redoable); nil if there is none.
  public mutating func undo() -> Change? {
    guard done > 0 else { return nil }
    done -= 1
    return entries[done].backward
  }

  /// The change that redoes the newest undone action; nil if there is none.
  public mutating func redo() -> Change? {
    guard done < entries.count else { return nil }
    done += 1
    return entries[done - 1].forward
  }

  /// Someone else took these shapes out: no undo or redo of this person's
  /// brings them back or moves them. Every action that names one of them
  /// is dropped (a clear's undo names every shape it took out), so the next
  /// undo does something the person can see.
  mutating func forget(lines: [ShapeID], circles: [ShapeID]) {
    guard !lines.isEmpty || !circles.isEmpty else { return }
    var ids = ShapeIDSet(capacity: lines.count + circles.count)
    for id in lines { _ = ids.insert(id) }
    for id in circles { _ = ids.insert(id) }
    var kept = 0
    var keptDone = 0
    for index in entries.indices where !entries[index].forward.names(ids) && !entries[index].backward.names(ids) {
      entries.swapAt(kept, index)
      kept += 1
      if index < done { keptDone += 1 }
    }
    entries.removeLast(entries.count - kept)
    done = keptDone
  }

  public mutating func removeAll() {
    entries.removeAll()
    done = 0
  }
}
