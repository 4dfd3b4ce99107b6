import Foundation
import TouchTrackerCore

/// One row of `DrawingStore.list()`: enough to show a list without loading
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
