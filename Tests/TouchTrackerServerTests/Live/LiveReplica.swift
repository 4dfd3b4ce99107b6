import Foundation
import TouchTrackerCore

/// What one live client knows, kept as the tests' check of the protocol:
/// the batches it received and its own acknowledged ones, by revision.
/// `document` applies them in revision order, as a client that re-applies
/// its own pending changes after remote ones ends up showing.
struct LiveReplica {
  /// Batches by their last revision, with their changes.
  private(set) var batches: [Int: [Change]] = [:]
  /// Every revision this socket carried, in the order it carried them
  /// (`changes` and `ack`), for the ordering checks.
  private(set) var revisions: [Int] = []
  /// Own batches by key, until acknowledged.
  var pending: [String: [Change]] = [:]
  private(set) var welcomed: Int?

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Takes in one message; returns its type.
  @discardableResult
  mutating func receive(_ message: [String: Any]) throws -> String {
    let type = message["type"] as? String ?? "?"
    switch type {
    case "changes":
      let revision = try require(message["revision"] as? Int)
      let list = try require(message["changes"] as? [Any])
      let changes = try list.map { object in
        let data = try JSONSerialization.data(withJSONObject: object)
        return try ChangeCoder.decode(bytes: Array(data))
      }
      if let key = message["key"] as? String, let own = pending.removeValue(forKey: key) {
        batches[revision] = own  // its own, seen again: the ack of a lost answer
      } else {
        batches[revision] = changes
      }
      revisions.append(revision)
    case "ack":
      let revision = try require(message["revision"] as? Int)
      let key = try require(message["key"] as? String)
      if let own = pending.removeValue(forKey: key) { batches[revision] = own }
      revisions.append(revision)
    case "welcome":
      welcomed = try require(message["revision"] as? Int)
    default:
      break
    }
    return type
  }

  /// The drawing: every batch applied in revision order.
  var document: String {
    var drawing = Drawing()
    for revision in batches.keys.sorted() {
      for change in batches[revision]! { drawing.apply(change) }
    }
    return DocumentCoder.encodeString(drawing)
  }
}

/// `#require` for the model: throws instead of recording.
func require<T>(_ value: T?, _ what: String = "a value") throws -> T {
  guard let value else { throw LiveReplica.Failure(description: "Missing \(what)") }
  return value
}
