/// One finished change this person made, where it was made (positions), so
/// it goes in without a search; the undo stack keeps its `forward` and
/// `backward` by id.
public enum DrawingChange: Equatable, Sendable {
  case addLine(Line)
  case addCircle(Circle)
  case deleteLine(at: Int, Line)
  /// A circle deleted from position `at`. Undoing it puts the circle back
  /// in front of the others (a change adds circles at the end).
  case deleteCircle(at: Int, Circle)
  case moveLine(at: Int, from: Line, to: Line)
  case moveCircle(at: Int, from: Circle, to: Circle)
  case clear(Drawing)

  /// Applies the change to `drawing`.
  func apply(to drawing: inout Drawing) {
    switch self {
    case .addLine(let line): drawing.lines.append(line)
    case .addCircle(let circle): drawing.circles.append(circle)
    case .deleteLine(let index, _): drawing.lines.remove(at: index)
    case .deleteCircle(let index, _): drawing.circles.remove(at: index)
    case .moveLine(let index, _, let to): drawing.lines[index] = to
    case .moveCircle(let index, _, let to): drawing.circles[index] = to
    case .clear: drawing = Drawing()
    }
  }

  /// What applying it did, by id.
  var forward: Change {
    switch self {
    case .addLine(let line): .add(lines: [line], circles: [], at: nil)
    case .addCircle(let circle): .add(lines: [], circles: [circle], at: nil)
    case .deleteLine(_, let line): .deleteLine(line.id)
    case .deleteCircle(_, let circle): .deleteCircle(circle.id)
    case .moveLine(_, _, let to): .moveLine(to.id, begin: to.begin, end: to.end)
    case .moveCircle(_, _, let to): .moveCircle(to.id, center: to.center)
    case .clear: .clear
    }
  }

  /// What reverting it did, by id.
  var backward: Change {
    switch self {
    case .addLine(let line): .deleteLine(line.id)
    case .addCircle(let circle): .deleteCircle(circle.id)
    case .deleteLine(let index, let line): .add(lines: [line], circles: [], at: index)
    case .deleteCircle(_, let circle): .add(lines: [], circles: [circle], at: nil)
    case .moveLine(_, let from, _): .moveLine(from.id, begin: from.begin, end: from.end)
    case .moveCircle(_, let from, _): .moveCircle(from.id, center: from.center)
    case .clear(let previous): .add(lines: previous.lines, circles: previous.circles, at: nil)
    }
  }

  /// What it did to the lines' positions.
  var lineEdit: LineIndex.Edit {
    switch self {
    case .addLine: .appended
    case .addCircle, .deleteCircle, .moveCircle: .none
    case .deleteLine(let index, _): .removed(index)
    case .moveLine(let index, _, _): .moved(index)
    case .clear: .everything
    }
  }

  /// What takes it back exactly (see `Reversal`).
  var reversal: Reversal {
    switch self {
    case .moveLine(_, let from, _): .apply(.moveLine(from.id, begin: from.begin, end: from.end))
    case .moveCircle(_, let from, _): .apply(.moveCircle(from.id, center: from.center))
    case .clear(let previous): .restore(previous)
    default: .apply(backward)
    }
  }
}

/// Undo and redo of this person's finished changes, by id: an undo takes
/// back what this person did wherever the shapes are by then, even after
/// other people's changes came in between (`DrawView.receiveChanges`). A new
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

  public mutating func record(_ change: DrawingChange) {
    entries.removeLast(entries.count - done)
    entries.append(Entry(forward: change.forward, backward: change.backward))
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

extension Change {
  /// Whether the change names a shape in `ids`.
  fileprivate func names(_ ids: ShapeIDSet) -> Bool {
    switch self {
    case .add(let lines, let circles, _):
      for line in lines where ids.contains(line.id) { return true }
      for circle in circles where ids.contains(circle.id) { return true }
      return false
    case .deleteLine(let id), .deleteCircle(let id), .moveLine(let id, _, _), .moveCircle(let id, _):
      return ids.contains(id)
    case .clear: return false
    }
  }
}
