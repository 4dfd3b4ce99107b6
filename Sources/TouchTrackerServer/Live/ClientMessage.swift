import Foundation
import TouchTrackerCore
import TouchTrackerStore

/// A message a client sends on `GET /api/drawings/NAME/live`, as DESIGN.md
/// "Live sync over WebSocket" writes it: one JSON object a text frame,
/// `"type"` first.
///
/// `decode` is the only reader. Every refusal is one sentence naming the
/// problem and where (`Number out of range at changes[1].lines[0].begin.x`,
/// `Missing 'client' in hello`), sent to the client before the close.
enum ClientMessage: Equatable, Sendable {
  /// `{"type": "hello", "since": R, "client": "ID", "key": "KEY",
  /// "batches": true}`; the key (a link's or the admin's) only when access
  /// control is on; `batches` when the client takes several messages in one
  /// frame (a JSON array of them: `LiveConnection.frames`).
  case hello(since: Int, client: String, key: String? = nil, batches: Bool = false)
  /// `{"type": "changes", "key": "K", "changes": [CHANGE, ...]}`
  case changes(key: String, changes: [Change])
  /// `{"type": "presence", "lines": [LINE, ...]}`
  case presence([PresenceLine])
  /// `{"type": "ping"}`: answered `pong` at once, so that a client learns
  /// within its deadline when the connection is dead.
  case ping

  /// Revisions are integers JSON numbers hold exactly.
  static let maximumRevision = 9_007_199_254_740_991.0

  /// The message's `type`, as the client sent it (`/metrics`).
  var type: String {
    switch self {
    case .hello: "hello"
    case .changes: "changes"
    case .presence: "presence"
    case .ping: "ping"
    }
  }

  static func decode(_ bytes: [UInt8]) throws(LiveError) -> ClientMessage {
    // Most messages are changes in the page's shape: read straight, with
    // no JSON tree. Anything else, or anything wrong, goes the long way
    // below, which names the problem.
    if let (type, key, changes) = ChangeCoder.readChangesMessage(bytes: bytes), type == "changes", let key,
      (try? DrawingName(key)) != nil, (try? ChangeCodec.validate(changes)) != nil
    {
      return .changes(key: key, changes: changes)
    }
    let root: JSONValue
    do {
      root = try JSONParser.parse(bytes: bytes)
    } catch {
      throw LiveError(error.message)
    }
    guard case .object = root else { throw LiveError("Expected a JSON object, got \(root.typeName)") }
    guard let type = root["type"] else { throw LiveError("Missing 'type'; expected hello, changes, presence or ping") }
    guard case .string(let name) = type else {
      throw LiveError("Expected a string at type, got \(type.typeName)")
    }
    switch name {
    case "hello": return try hello(root)
    case "changes": return try changes(root, bytes)
    case "presence": return .presence(try PresenceLine.lines(in: root))
    case "ping": return .ping
    default:
      throw LiveError(
        "Unknown message type '\(String(name.prefix(64)))' at type; expected hello, changes, presence or ping")
    }
  }

  private static func hello(_ root: JSONValue) throws(LiveError) -> ClientMessage {
    guard let since = root["since"] else { throw LiveError("Missing 'since' in hello") }
    guard case .number(let value) = since, value >= 0, value <= maximumRevision, value.rounded() == value else {
      throw LiveError("Invalid since at since: expected a revision like 3")
    }
    guard let client = root["client"] else { throw LiveError("Missing 'client' in hello") }
    guard case .string(let id) = client, isClientID(id) else {
      throw LiveError("Invalid client at client: expected 8 hexadecimal digits")
    }
    var key: String?
    if let value = root["key"] {
      // The key itself is never in an error: errors reach logs.
      guard case .string(let text) = value, !text.isEmpty, text.utf8.count <= 256 else {
        throw LiveError("Invalid key at key: expected the link's key as a string")
      }
      key = text
    }
    var batches = false
    if let value = root["batches"] {
      guard case .bool(let flag) = value else { throw LiveError("Invalid batches at batches: expected true or false") }
      batches = flag
    }
    return .hello(since: Int(value), client: id.lowercased(), key: key, batches: batches)
  }

  private static func changes(_ root: JSONValue, _ bytes: [UInt8]) throws(LiveError) -> ClientMessage {
    guard let key = root["key"] else { throw LiveError("Missing 'key' in changes") }
    guard case .string(let text) = key, (try? DrawingName(text)) != nil else {
      throw LiveError(
        "Invalid key at key: use 1 to \(DrawingName.maximumLength) letters, digits, '_' or '-'")
    }
    guard root["changes"] != nil else { throw LiveError("Missing 'changes' in changes") }
    do {
      // The list's reader reads `changes` of any object and skips the rest.
      return .changes(key: text, changes: try ChangeCodec.decodeList(Data(bytes)))
    } catch {
      throw LiveError(error.description)
    }
  }

  /// A client id as `hello` takes it: 8 hexadecimal digits.
  static func isClientID(_ text: String) -> Bool { text.utf8.count == 8 && text.utf8.allSatisfy(isHexDigit) }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
  }
}

/// Why a live connection is closed: one sentence for the `error` message,
/// and the close code after it.
struct LiveError: Error, Equatable, Sendable, CustomStringConvertible {
  var message: String
  /// 1008 (policy violation) unless said otherwise: 1009 for too big, 1003 for binary.
  var closeCode: UInt16

  init(_ message: String, closeCode: UInt16 = LiveError.policyViolation) {
    self.message = message
    self.closeCode = closeCode
  }

  var description: String { message }

  static let policyViolation: UInt16 = 1008
  static let normalClosure: UInt16 = 1000
  static let messageTooBig: UInt16 = 1009
  /// RFC 6455 §7.4.1: frames out of order (a continuation with no message
  /// begun, a new message before the last one's final fragment).
  static let protocolError: UInt16 = 1002
  /// RFC 6455 §8.1: a text message that is not UTF-8.
  static let invalidPayload: UInt16 = 1007
  /// RFC 6455 §7.4.1: "a type of data it cannot accept (e.g., an endpoint
  /// that understands only text data MAY send this if it receives a binary
  /// message)".
  static let unsupportedData: UInt16 = 1003
  static let internalError: UInt16 = 1011
}
