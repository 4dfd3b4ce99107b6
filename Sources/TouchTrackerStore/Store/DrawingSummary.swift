import Foundation
import TouchTrackerCore

/// One row of `SQLiteDrawingStore.list()`: enough to show a list without loading
/// any document.
public struct DrawingSummary: Hashable, Sendable {
  public var name: DrawingName
  public var revision: Int
  public var updatedAt: Date
  public var lineCount: Int
  public var circleCount: Int

  public init(name: DrawingName, revision: Int, updatedAt: Date, lineCount: Int, circleCount: Int) {
    self.name = name
    self.revision = revision
    self.updatedAt = updatedAt
    self.lineCount = lineCount
    self.circleCount = circleCount
  }
}

/// A saved drawing and the revision it was saved as.
public struct StoredDrawing: Hashable, Sendable {
  public var drawing: Drawing
  public var revision: Int
  public var updatedAt: Date

  public init(drawing: Drawing, revision: Int, updatedAt: Date) {
    self.drawing = drawing
    self.revision = revision
    self.updatedAt = updatedAt
  }
}

/// A saved drawing as its document text, exactly as `DocumentCodec.encode`
/// wrote it; what the server sends without decoding it again.
public struct StoredDocument: Hashable, Sendable {
  public var json: Data
  public var revision: Int
  public var updatedAt: Date

  public init(json: Data, revision: Int, updatedAt: Date) {
    self.json = json
    self.revision = revision
    self.updatedAt = updatedAt
  }
}

/// The changes a drawing's log holds after some revision, for a client
/// that has that revision and wants to catch up without the whole document.
public struct StoredChanges: Hashable, Sendable {
  /// The drawing's revision now.
  public var revision: Int
  /// Every change after the revision asked for, in order; the last one's
  /// revision is `revision`.
  public var changes: [StoredChange]

  public init(revision: Int, changes: [StoredChange]) {
    self.revision = revision
    self.changes = changes
  }
}

/// One change of a drawing's log, as `ChangeCoder` wrote it.
public struct StoredChange: Hashable, Sendable {
  public var revision: Int
  /// One change object's JSON text.
  public var json: String
  /// The idempotency key of the batch it was appended in, if it had one:
  /// consecutive changes with one key are one batch.
  public var batchKey: String?

  public init(revision: Int, json: String, batchKey: String? = nil) {
    self.revision = revision
    self.json = json
    self.batchKey = batchKey
  }
}
