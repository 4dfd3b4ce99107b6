import Foundation
import TouchTrackerCore

/// A drawing as stored, read in one transaction: its summary row, snapshot
/// and every change after the snapshot, checked against their checksums.
struct LogState {
  var head: DrawingRecord
  var snapshot: SnapshotRecord
  var changes: [ChangeRecord]

  /// The snapshot with every change applied in revision order.
  func replayed() throws -> Drawing {
    try replaying(through: head.revision) { _ in }
  }

  /// The snapshot with every change applied in revision order, `atFold`
  /// called with the drawing at `fold` on the way.
  private func replaying(through fold: Int, atFold: (Drawing) -> Void) throws -> Drawing {
    let document = try snapshot.verifiedDocument()
    do {
      var replay = LogReplay(try DocumentCodec.decode(document))
      var folded = false
      for record in changes {
        if !folded, record.revision > fold {
          atFold(replay.drawing)
          folded = true
        }
        replay.apply(try ChangeCodec.decode(record.change))
      }
      if !folded { atFold(replay.drawing) }
      return replay.drawing
    } catch {
      throw DrawingStoreError.unreadable(name: head.name, reason: error.description)
    }
  }

  /// `Drawing.apply`, kept from giving one id to two shapes: an add whose
  /// id a shape of the other kind holds (a line added with a circle's id)
  /// removes that shape first, as an add of a line replaces the line with
  /// its id. `apply` replaces only shapes of the same kind, and a drawing
  /// with one id twice is a document no reader accepts: one client's
  /// mistake in the log would make the drawing unreadable for everyone.
  /// (An add naming one id twice is refused before it is stored.)
  static func replay(_ change: Change, on drawing: inout Drawing) {
    if case .add(let lines, let circles, _) = change {
      if !lines.isEmpty, !drawing.circles.isEmpty {
        let ids = Set(lines.map(\.id))
        drawing.circles.removeAll { ids.contains($0.id) }
      }
      if !circles.isEmpty, !drawing.lines.isEmpty {
        let ids = Set(circles.map(\.id))
        drawing.lines.removeAll { ids.contains($0.id) }
      }
    }
    drawing.apply(change)
  }

  /// The drawing at `head.revision` as a new snapshot.
  func folded() throws -> Folded {
    try folded(through: head.revision)
  }

  /// The drawing as a new snapshot with all but the last `kept` changes
  /// folded in; nil when that folds none.
  func folded(keeping kept: Int) throws -> Folded? {
    let revision = head.revision - max(0, kept)
    guard revision > head.snapshotRevision else { return nil }
    return try folded(through: revision)
  }

  /// The snapshot at `revision`, with the counts of the drawing at
  /// `head.revision` (the kept changes replayed too: they are few, and the
  /// summary's counts become exact, as a fold of everything makes them).
  private func folded(through revision: Int) throws -> Folded {
    var document = ""
    let drawing = try replaying(through: revision) { document = DocumentCoder.encodeString($0) }
    return Folded(
      snapshot: SnapshotRecord(name: head.name, document: document), revision: revision,
      lineCount: drawing.lines.count, circleCount: drawing.circles.count, countedAt: head.revision)
  }
}

/// `LogState.replay` over a whole log, with the ids present at hand: an add
/// of ids the drawing does not hold yet (nearly every add) is inserted
/// without the pass over every line and circle that looks for shapes it
/// replaces, and a delete of an absent id scans nothing. Replaying k changes
/// onto n lines cost n * k before (a compaction of 1,000 adds at 20,000
/// lines: 20 M line visits, 13% of a live server's CPU); now n + k for adds.
/// The drawing is the same as `LogState.replay`'s, change by change
/// (`DrawingStoreCompactionTests`).
struct LogReplay {
  private(set) var drawing: Drawing
  private var lineIDs: Set<ShapeID>
  private var circleIDs: Set<ShapeID>

  init(_ drawing: Drawing) {
    self.drawing = drawing
    lineIDs = Set(drawing.lines.map(\.id))
    circleIDs = Set(drawing.circles.map(\.id))
  }

  private func isFresh(_ id: ShapeID) -> Bool { !lineIDs.contains(id) && !circleIDs.contains(id) }

  mutating func apply(_ change: Change) {
    switch change {
    case .add(let lines, let circles, let position):
      if lines.allSatisfy({ isFresh($0.id) }) && circles.allSatisfy({ isFresh($0.id) }) {
        drawing.lines.insert(contentsOf: lines, at: min(max(position ?? drawing.lines.count, 0), drawing.lines.count))
        drawing.circles.append(contentsOf: circles)
      } else {
        LogState.replay(change, on: &drawing)
        // A line takes its id from a circle, and a circle from a line.
        for line in lines { circleIDs.remove(line.id) }
        for circle in circles { lineIDs.remove(circle.id) }
      }
      lineIDs.formUnion(lines.lazy.map(\.id))
      circleIDs.formUnion(circles.lazy.map(\.id))
    case .clear:
      lineIDs.removeAll()
      circleIDs.removeAll()
      drawing.apply(change)
    default:
      // A change by id does nothing without its shape: no scan for an absent one.
      guard let (shape, removes) = change.target else { return drawing.apply(change) }
      switch shape {
      case .line(let id):
        guard removes ? lineIDs.remove(id) != nil : lineIDs.contains(id) else { return }
      case .circle(let id):
        guard removes ? circleIDs.remove(id) != nil : circleIDs.contains(id) else { return }
      }
      drawing.apply(change)
    }
  }
}

/// A drawing's snapshot and log folded into one document at `revision`.
struct Folded: Sendable {
  var snapshot: SnapshotRecord
  var revision: Int
  /// The counts of the drawing at `countedAt` (at or after `revision`).
  var lineCount: Int
  var circleCount: Int
  var countedAt: Int
}
