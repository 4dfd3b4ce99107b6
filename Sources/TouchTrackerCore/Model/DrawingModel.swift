/// The drawing and everything kept about its changes: the shapes, where new
/// ids come from, this person's undo and redo, the line index that finds a
/// line under a finger, the changes published for the server and those it
/// has not acknowledged yet (`DrawingModel+Sharing.swift`).
///
/// Every change goes in through `commit` (this person's), `undo`/`redo`, or
/// `receiveChanges` (other people's), and each says what it did
/// (`ModelUpdate`), so the view repaints only that. The model knows nothing
/// of touches, gestures or pixels: `DrawView` keeps those, and a test or a
/// server drives the model alone.
public final class DrawingModel {
  public internal(set) var drawing = Drawing()
  var undoStack = UndoStack()
  var lineIndex = LineIndex()
  /// The index being built a slice at a time, and the `version` it is of (`prepareLineIndex`).
  private var indexBuild: (build: LineIndex.Build, version: Int)?
  /// Where new lines and circles get their ids. Hosts that share a drawing
  /// with other devices set a random `origin` (`setIDOrigin`).
  var ids = ShapeIDSource()
  /// Whether finished changes are kept for `takeChanges()`; off, nothing is
  /// kept (the CLI), on, the page takes them after each frame.
  public var publishesChanges = false {
    didSet {
      if !publishesChanges {
        published.removeAll()
        unconfirmed.removeAll()
      }
    }
  }
  private var published: [PublishedChange] = []
  /// This person's published changes the server has not acknowledged yet,
  /// oldest first, each with how to take it back (`receiveChanges`).
  var unconfirmed: [UnconfirmedChange] = []
  /// Bumped on every change to the drawing.
  public internal(set) var version = 0

  public init() {}

  public var canUndo: Bool { undoStack.canUndo }
  public var canRedo: Bool { undoStack.canRedo }

  // MARK: Changes

  /// Applies this person's finished change, makes it undoable, and
  /// publishes it. `freshIDs`: the shapes it adds got their ids from
  /// `nextID()` (no scan looks for them in the drawing). Nil when it
  /// changed nothing.
  @discardableResult
  public func commit(_ change: Change, freshIDs: Bool = false) -> ModelUpdate? {
    let applied = drawing.applyTracked(change, freshIDs: freshIDs)
    guard !applied.changedNothing else { return nil }
    if let undo = applied.undo { undoStack.record(change, undoneBy: undo) }
    return didChange(applied, publishing: change)
  }

  /// Takes back this person's newest action (by id: other people's
  /// changes since stay). Nil when there is none.
  public func undo() -> ModelUpdate? {
    guard let change = undoStack.undo() else { return nil }
    return didChange(drawing.applyTracked(change), publishing: change)
  }

  public func redo() -> ModelUpdate? {
    guard let change = undoStack.redo() else { return nil }
    return didChange(drawing.applyTracked(change), publishing: change)
  }

  /// Brings the index up to date after this person's change went in, and publishes it.
  private func didChange(_ applied: AppliedChange, publishing change: Change) -> ModelUpdate {
    lineIndex.apply(applied.edit, lines: drawing.lines)
    version += 1
    if publishesChanges {
      published.append(PublishedChange(change: change, bounds: applied.damage))
      unconfirmed.append(UnconfirmedChange(change: change, reversal: applied.reversal))
    }
    return ModelUpdate(damage: applied.damage, isAppend: applied.edit == .appended)
  }

  /// The finished changes since the last call, oldest first (only while
  /// `publishesChanges` is on).
  public func takeChanges() -> [PublishedChange] {
    defer { published.removeAll(keepingCapacity: true) }
    return published
  }

  // MARK: Ids

  /// A new shape's id, one the drawing does not hold.
  public func nextID() -> ShapeID { ids.next() }

  /// New ids are drawn from `origin` from now on (see `ShapeID`).
  public func setIDOrigin(_ origin: UInt32) {
    ids = ShapeIDSource(origin: origin)
    ids.skip(past: drawing)
  }

  /// Where new ids come from: a recording writes it down and its replay
  /// sets it (`setIDs(_:)`), so both hand out the same ids.
  public var idSource: ShapeIDSource { ids }

  /// Never below an id of its origin the drawing holds: a hand-written
  /// trace cannot make two shapes share an id (a page's record is past them already).
  public func setIDs(_ source: ShapeIDSource) {
    ids = source
    ids.skip(past: drawing)
  }

  // MARK: History

  /// Undo goes back no further than here (a recording starts: its replay
  /// starts from the drawing as it is, without the history before it).
  public func startHistory() {
    undoStack.removeAll()
  }

  /// Replaces the whole drawing (opening a saved one). Not undoable: it is
  /// where the history starts. Shapes without an id get one (as reading a
  /// document without ids gives them).
  public func load(_ newDrawing: Drawing) {
    drawing = newDrawing
    try? DocumentCoder.assignIDs(in: &drawing)
    ids.skip(past: drawing)
    undoStack.removeAll()
    published.removeAll()
    unconfirmed.removeAll()
    lineIndex.invalidate()
    version += 1
  }

  // MARK: The line index

  /// The nearest line within `reach` of `point`, by true segment distance.
  public func indexOfLine(at point: Point, within reach: Double) -> Int? {
    lineIndex.nearest(to: point, within: reach, in: drawing.lines)
  }

  /// What `prepareLineIndex(upTo:work:)` did.
  public enum IndexPreparation: Equatable, Sendable {
    /// Nothing: the index is built, or the drawing has more lines than allowed.
    case notNeeded
    /// The build went on and has more to do.
    case underWay
    /// The build finished: the next tap or line uses the index as it is.
    case built
  }

  /// Builds the line index if the next tap or finished line would have to
  /// (after a load), for a drawing of at most `maximum` lines, `work` lines
  /// of it a call (four passes over the lines in all): the page calls it
  /// when idle, a slice of a few milliseconds at a time, so the first line
  /// drawn after opening 100,000 lines takes ~1 ms, not the ~45 ms of the
  /// build, and building never holds input up either. A change to the
  /// drawing before the build finishes starts it over (positions move).
  public func prepareLineIndex(upTo maximum: Int, work: Int = .max) -> IndexPreparation {
    guard drawing.lines.count <= maximum, !lineIndex.isCurrent || lineIndex.count != drawing.lines.count else {
      indexBuild = nil
      return .notNeeded
    }
    if indexBuild?.version != version {
      indexBuild = (LineIndex.Build(lineCount: drawing.lines.count), version)
    }
    guard let build = indexBuild?.build, build.advance(drawing.lines, by: work) else { return .underWay }
    lineIndex.take(build, lines: drawing.lines)
    indexBuild = nil
    return .built
  }
}

/// What a change did to the drawing, for a view to repaint.
public struct ModelUpdate: Equatable, Sendable {
  /// Every pixel it colored or uncolored; nil for everything.
  public var damage: Rect?
  /// It only appended one line at the end.
  public var isAppend: Bool
}

/// A finished change as the app publishes it: what it did by id, and the
/// rectangle it touched (nil: everything).
public struct PublishedChange: Equatable, Sendable {
  public let change: Change
  public let bounds: Rect?
}
