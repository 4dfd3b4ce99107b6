/// One finished change to a drawing, by shape id: what the app publishes,
/// the page keeps until the server has it, and the server appends to a
/// drawing's log (JSON in `ChangeCoder`; docs/DESIGN.md, "Changes").
///
/// Applying a change is defined for any drawing, so the same log gives the
/// same drawing wherever it is replayed: deleting or moving an id the
/// drawing does not have does nothing, and adding a shape whose id is there
/// already (a line or a circle) takes that shape out first: ids stay unique.
public enum Change: Equatable, Sendable {
  /// Lines inserted at position `at` (clamped; nil: after the last), circles appended.
  case add(lines: [Line], circles: [Circle], at: Int?)
  case deleteLine(ShapeID)
  case deleteCircle(ShapeID)
  /// The line's ends after the move (it keeps its style and place).
  case moveLine(ShapeID, begin: Point, end: Point)
  /// The circle's center after the move (it keeps its radius, style and place).
  case moveCircle(ShapeID, center: Point)
  /// The shape's new color (it keeps its geometry, width and place).
  case recolor(ShapeReference, color: Color)
  /// Every line and circle removed.
  case clear
}

extension Drawing {
  /// Applies `change` (see `Change` for what an absent or present id does).
  ///
  /// - Complexity: O(shapes) for a change by id (a scan for it).
  public mutating func apply(_ change: Change) {
    switch change {
    case .add(let added, let addedCircles, let position):
      removeShapes(withIDsOf: added, addedCircles)
      lines.insert(contentsOf: added, at: min(max(position ?? lines.count, 0), lines.count))
      circles.append(contentsOf: addedCircles)
    case .deleteLine(let id):
      if let index = lines.firstIndex(where: { $0.id == id }) { lines.remove(at: index) }
    case .deleteCircle(let id):
      if let index = circles.firstIndex(where: { $0.id == id }) { circles.remove(at: index) }
    case .moveLine(let id, let begin, let end):
      if let index = lines.firstIndex(where: { $0.id == id }) {
        lines[index].begin = begin
        lines[index].end = end
      }
    case .moveCircle(let id, let center):
      if let index = circles.firstIndex(where: { $0.id == id }) { circles[index].center = center }
    case .recolor(.line(let id), let color):
      if let index = lines.firstIndex(where: { $0.id == id }) { lines[index].color = color }
    case .recolor(.circle(let id), let color):
      if let index = circles.firstIndex(where: { $0.id == id }) { circles[index].color = color }
    case .clear:
      self = Drawing()
    }
  }
}

extension Drawing {
  /// Takes out every line and circle whose id one of `lines` or `circles`
  /// has, in one pass over each (a set of the added ids, not a scan per id:
  /// an add of a million lines to a drawing of a million stays linear).
  mutating func removeShapes(withIDsOf lines: [Line], _ circles: [Circle]) {
    guard !lines.isEmpty || !circles.isEmpty else { return }
    var ids = ShapeIDSet(capacity: lines.count + circles.count)
    for line in lines { _ = ids.insert(line.id) }
    for circle in circles { _ = ids.insert(circle.id) }
    self.lines.removeAll { ids.contains($0.id) }
    self.circles.removeAll { ids.contains($0.id) }
  }
}

/// A shape a change names by its id.
public enum ShapeReference: Hashable, Sendable {
  case line(ShapeID)
  case circle(ShapeID)
}

extension Change {
  /// The one shape the change acts on, and whether it takes it out; nil for
  /// the changes that act on the drawing as a whole (an add, a clear). A
  /// change with a target does nothing to a drawing without that shape:
  /// what lets undo, the store's log and its counts go by this alone.
  public var target: (shape: ShapeReference, removes: Bool)? {
    switch self {
    case .add, .clear: nil
    case .deleteLine(let id): (.line(id), true)
    case .deleteCircle(let id): (.circle(id), true)
    case .moveLine(let id, _, _): (.line(id), false)
    case .moveCircle(let id, _): (.circle(id), false)
    case .recolor(let shape, _): (shape, false)
    }
  }

  /// How many lines and circles applying the change adds (negative: removes),
  /// assuming its ids are as the change expects (adds new, deletes present);
  /// nil for `clear`, which leaves none. What a store keeps as counts
  /// without reading the drawing.
  public var countDelta: (lines: Int, circles: Int)? {
    switch self {
    case .add(let lines, let circles, _): return (lines.count, circles.count)
    case .clear: return nil
    default:
      guard let (shape, removes) = target, removes else { return (0, 0) }
      if case .line = shape { return (-1, 0) }
      return (0, -1)
    }
  }

  /// Whether the change names a shape in `ids`.
  func names(_ ids: ShapeIDSet) -> Bool {
    switch self {
    case .add(let lines, let circles, _):
      for line in lines where ids.contains(line.id) { return true }
      for circle in circles where ids.contains(circle.id) { return true }
      return false
    case .clear: return false
    default:
      switch target?.shape {
      case .line(let id)?, .circle(let id)?: return ids.contains(id)
      case nil: return false
      }
    }
  }
}
