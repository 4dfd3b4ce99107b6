/// A message the server sends on the live socket (docs/DESIGN.md, "Live
/// sync over WebSocket"), as the client reads it: the ones sync acts on,
/// and the rest (presence, leave, error, renamed, pong) for the page.
public enum SyncMessage: Equatable, Sendable {
  case changes(revision: Int, key: String?, changes: [Change])
  case ack(key: String, revision: Int)
  case welcome(revision: Int)
  case reset(revision: Int)
  /// Anything else, as it came: the page shows it (presence, a rename, an error).
  case other(JSONValue)

  /// One frame: an object, or an array of them (a client that said `batches`).
  public static func decode(bytes: [UInt8]) throws(FormatError) -> [SyncMessage] {
    let root: JSONValue
    do {
      root = try JSONParser.parse(bytes: bytes)
    } catch {
      throw FormatError(error.message)
    }
    if case .array(let elements) = root {
      var messages: [SyncMessage] = []
      for (index, element) in elements.enumerated() {
        messages.append(try message(JSONCursor(element, path: "[\(index)]")))
      }
      return messages
    }
    return [try message(JSONCursor(root, path: ""))]
  }

  static func message(_ cursor: JSONCursor) throws(FormatError) -> SyncMessage {
    let object = try cursor.object()
    switch try object.require("type").string() {
    case "changes":
      let key = try object.member("key").map { (field) throws(FormatError) in try field.string() }
      return .changes(
        revision: try SyncJournal.count(object.require("revision")), key: key,
        changes: try SyncJournal.changes(object.require("changes")))
    case "ack":
      return .ack(key: try object.require("key").string(), revision: try SyncJournal.count(object.require("revision")))
    case "welcome":
      return .welcome(revision: try SyncJournal.count(object.require("revision")))
    case "reset":
      return .reset(revision: try SyncJournal.count(object.require("revision")))
    default:
      return .other(object.value)
    }
  }
}

extension SyncClient {
  /// Acts on one server message; `.other` is the page's.
  public mutating func handle(_ message: SyncMessage) {
    switch message {
    case .changes(let revision, let key, let changes): received(changes, revision: revision, key: key)
    case .ack(let key, let revision): acknowledged(key: key, revision: revision)
    case .welcome(let revision): welcomed(revision: revision)
    case .reset: reset()
    case .other: break
    }
  }
}
