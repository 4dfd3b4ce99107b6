/// One finished change to the drawing, with what it takes to undo it. The
/// undo stack keeps these (by position, so undo puts a line back exactly
/// where it was); what the app publishes is their `Change` by id.
public enum DrawingChange: Equatable, Sendable {
  case addLine(Line)
  case addCircle(Circle)
  case deleteLine(at: Int, Line)
  case moveLine(at: Int, from: Line, to: Line)
  case clear(Drawing)

  /// Applies the change to `drawing`.
  func apply(to drawing: inout Drawing) {
    switch self {
    case .addLine(let line): drawing.lines.append(line)
    case .addCircle(let circle): drawing.circles.append(circle)
    case .deleteLine(let index, _): drawing.lines.remove(at: index)
    case .moveLine(let index, _, let to): drawing.lines[index] = to
    case .clear: drawing = Drawing()
    }
  }

  /// Takes the change back out of `drawing`.
  func revert(in drawing: inout Drawing) {
    switch self {
    case .addLine: drawing.lines.removeLast()
    case .addCircle: drawing.circles.removeLast()
    case .deleteLine(let index, let line): drawing.lines.insert(line, at: index)
    case .moveLine(let index, let from, _): drawing.lines[index] = from
    case .clear(let previous): drawing = previous
    }
  }

  /// What applying it did, by id.
  var forward: Change {
    switch self {
    case .addLine(let line): .add(lines: [line], circles: [], at: nil)
    case .addCircle(let circle): .add(lines: [], circles: [circle], at: nil)
    case .deleteLine(_, let line): .deleteLine(line.id)
    case .moveLine(_, _, let to): .moveLine(to.id, begin: to.begin, end: to.end)
    case .clear: .clear
    }
  }

  /// What reverting it did, by id.
  var backward: Change {
    switch self {
    case .addLine(let line): .deleteLine(line.id)
    case .addCircle(let circle): .deleteCircle(circle.id)
    case .deleteLine(let index, let line): .add(lines: [line], circles: [], at: index)
    case .moveLine(_, let from, _): .moveLine(from.id, begin: from.begin, end: from.end)
    case .clear(let previous): .add(lines: previous.lines, circles: previous.circles, at: nil)
    }
  }

  /// What it did to the lines' positions, applied (`forward`) or reverted.
  func lineEdit(forward: Bool) -> LineIndex.Edit {
    switch self {
    case .addLine: forward ? .appended : .removedLast
    case .addCircle: .none
    case .deleteLine(let index, _): forward ? .removed(index) : .inserted(index)
    case .moveLine(let index, _, _): .moved(index)
    case .clear: .everything
    }
  }
}

/// Undo and redo of finished changes. A new change clears what could be redone.
public struct UndoStack: Sendable {
  private var undoable: [DrawingChange] = []
  private var redoable: [DrawingChange] = []
  /// Older changes are forgotten beyond this many, so memory stays bounded.
  public var limit = 1000

  public init() {}

  public var canUndo: Bool { !undoable.isEmpty }
  public var canRedo: Bool { !redoable.isEmpty }

  public mutating func record(_ change: DrawingChange) {
    undoable.append(change)
    if undoable.count > limit { undoable.removeFirst(undoable.count - limit) }
    redoable.removeAll()
  }

  /// Reverts the newest change in `drawing`; returns it, or nil if there was none.
  public mutating func undo(in drawing: inout Drawing) -> DrawingChange? {
    guard let change = undoable.popLast() else { return nil }
    change.revert(in: &drawing)
    redoable.append(change)
    return change
  }

  public mutating func redo(in drawing: inout Drawing) -> DrawingChange? {
    guard let change = redoable.popLast() else { return nil }
    change.apply(to: &drawing)
    undoable.append(change)
    return change
  }

  public mutating func removeAll() {
    undoable.removeAll()
    redoable.removeAll()
  }
}
