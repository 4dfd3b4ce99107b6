import Foundation
import TouchTrackerCore

/// Changes as JSON text, through the core's `ChangeCoder`: what the server
/// accepts on `POST /api/drawings/NAME/changes` and what the store keeps in
/// a drawing's log, one change a row.
public enum ChangeCodec {
  /// Reads `{"changes": [CHANGE, ...]}`; the error names the problem and
  /// where (`Non-finite number at changes[3].lines[0].begin.x`).
  public static func decodeList(_ data: Data) throws(DocumentError) -> [Change] {
    guard String(data: data, encoding: .utf8) != nil else {
      throw DocumentError(description: "Invalid JSON: the text is not UTF-8")
    }
    let changes: [Change]
    do {
      changes = try ChangeCoder.decodeList(bytes: [UInt8](data))
    } catch {
      throw DocumentError(description: error.message)
    }
    try validate(changes)
    return changes
  }

  /// `validate` of each change of a list, named by its place (`changes[3]`).
  public static func validate(_ changes: [Change]) throws(DocumentError) {
    for (index, change) in changes.enumerated() { try validate(change, path: "changes[\(index)]") }
  }

  /// Reads one change as the log stores it.
  static func decode(_ text: String) throws(DocumentError) -> Change {
    do {
      return try ChangeCoder.decode(bytes: Array(text.utf8))
    } catch {
      throw DocumentError(description: error.message)
    }
  }

  /// Writes one change for the log, refusing one the log could not replay
  /// as it was meant (see `validate`).
  static func encode(_ change: Change, path: String) throws(DocumentError) -> String {
    try validate(change, path: path)
    return String(decoding: ChangeCoder.encode(change), as: UTF8.self)
  }

  /// `ChangeCoder.validate`: what the log could not replay as it was meant.
  static func validate(_ change: Change, path: String) throws(DocumentError) {
    do throws(FormatError) {
      try ChangeCoder.validate(change, path: path)
    } catch {
      throw DocumentError(description: error.message)
    }
  }
}
