import Testing
import TouchTrackerCore

/// The drawing's model driven alone, without a view or touches: what a
/// server, a test or another front end builds on.
@Suite struct DrawingModelTests {
  private func line(_ id: UInt64, _ x: Double) -> Line {
    Line(id: ShapeID(rawValue: id), begin: Point(x: x, y: 10), end: Point(x: x + 20, y: 10), width: 4)
  }

  @Test func aCommitSaysWhatItPaintedAndAnUndoTakesItBackById() throws {
    let model = DrawingModel()
    let first = line(1, 0)
    let update = try #require(model.commit(.add(lines: [first], circles: [], at: nil)))
    #expect(update.damage == first.paintedBounds && update.isAppend)
    let moved = try #require(model.commit(.moveLine(first.id, begin: Point(x: 50, y: 50), end: Point(x: 70, y: 50))))
    #expect(moved.isAppend == false)
    #expect(moved.damage == first.paintedBounds.union(model.drawing.lines[0].paintedBounds))

    _ = model.undo()
    #expect(model.drawing.lines == [first], "the move is undone")
    _ = model.undo()
    #expect(model.drawing.isEmpty && !model.canUndo && model.canRedo)
    _ = model.redo()
    #expect(model.drawing.lines == [first])
  }

  @Test func aChangeThatChangesNothingIsNeitherUndoableNorPublished() {
    let model = DrawingModel()
    model.publishesChanges = true
    #expect(model.commit(.deleteLine(ShapeID(rawValue: 9))) == nil)
    #expect(model.commit(.clear) == nil, "clearing an empty drawing")
    #expect(!model.canUndo)
    #expect(model.takeChanges().isEmpty)
  }

  @Test func aDeletedCircleAndAClearedDrawingComeBackByUndo() {
    let model = DrawingModel()
    let circle = Circle(id: ShapeID(rawValue: 7), center: Point(x: 40, y: 40), radius: 10)
    model.commit(.add(lines: [line(1, 0)], circles: [circle], at: nil))
    model.commit(.deleteCircle(circle.id))
    #expect(model.drawing.circles.isEmpty)
    _ = model.undo()
    #expect(model.drawing.circles == [circle])
    let before = model.drawing
    model.commit(.clear)
    _ = model.undo()
    #expect(model.drawing == before)
  }

  @Test func othersChangesGoBeneathThisPersonsUnacknowledgedOnes() {
    let model = DrawingModel()
    model.publishesChanges = true
    let mine = line(model.nextID().rawValue, 0)
    model.commit(.add(lines: [mine], circles: [], at: nil), freshIDs: true)
    #expect(model.takeChanges().map(\.change) == [.add(lines: [mine], circles: [], at: nil)])
    #expect(model.unconfirmedCount == 1)

    let theirs = line(1_000, 100)
    let update = model.receiveChanges([.add(lines: [theirs], circles: [], at: nil)])
    #expect(update != nil)
    #expect(model.drawing.lines == [theirs, mine], "the server puts theirs first: it had them first")
    #expect(model.sharedState.base.lines == [theirs])
    #expect(model.sharedState.pending == [.add(lines: [mine], circles: [], at: nil)])

    model.confirmChanges(1)
    #expect(model.unconfirmedCount == 0)
    #expect(model.takeChanges().isEmpty, "received changes are not published")
  }

  @Test func someoneElsesDeleteLeavesNothingForUndoToBringBack() {
    let model = DrawingModel()
    let mine = line(model.nextID().rawValue, 0)
    model.commit(.add(lines: [mine], circles: [], at: nil), freshIDs: true)
    model.receiveChanges([.deleteLine(mine.id)])
    #expect(!model.canUndo)
    #expect(model.drawing.isEmpty)
  }

  @Test func theVersionMovesWithEveryChangeToTheDrawing() {
    let model = DrawingModel()
    let start = model.version
    model.commit(.add(lines: [line(1, 0)], circles: [], at: nil))
    #expect(model.version == start + 1)
    model.receiveChanges([.deleteLine(ShapeID(rawValue: 99))])
    #expect(model.version == start + 1, "a change of nothing leaves it")
    model.load(Drawing())
    #expect(model.version == start + 2)
  }
}
