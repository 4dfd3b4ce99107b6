import Foundation
import TouchTrackerCore

/// A message the server sends on the live socket, as DESIGN.md "Live sync
/// over WebSocket" writes it; `text` is the only writer. Compact, `"type"`
/// first; changes are the change log's own text, not encoded again.
enum ServerMessage: Equatable, Sendable {
  /// One batch: `changes` are JSON texts of change records, at revisions
  /// `revision - changes.count + 1 ... revision`.
  case changes(revision: Int, key: String?, by: String?, changes: [String])
  case ack(key: String, revision: Int)
  case welcome(revision: Int)
  case reset(revision: Int)
  /// `lines` is the relayed lines as `PresenceLine.json` wrote them.
  case presence(by: String, lines: String)
  case leave(by: String)
  case error(String)
  /// The drawing is called `name` now (a rename), its revisions `shift`
  /// higher: the client follows it there; this connection closes.
  case renamed(name: String, shift: Int)
  /// The answer to a client's `ping`.
  case pong

  var text: String {
    switch self {
    case .changes(let revision, let key, let by, let changes):
      var text = #"{"type":"changes","revision":\#(revision)"#
      if let key { text += #","key":"\#(key)""# }
      if let by { text += #","by":"\#(by)""# }
      text += #","changes":["#
      text += changes.joined(separator: ",")
      text += "]}"
      return text
    case .ack(let key, let revision): return #"{"type":"ack","key":"\#(key)","revision":\#(revision)}"#
    case .welcome(let revision): return #"{"type":"welcome","revision":\#(revision)}"#
    case .reset(let revision): return #"{"type":"reset","revision":\#(revision)}"#
    case .presence(let by, let lines): return #"{"type":"presence","by":"\#(by)","lines":\#(lines)}"#
    case .leave(let by): return #"{"type":"leave","by":"\#(by)"}"#
    case .error(let message): return #"{"type":"error","error":\#(Self.quoted(message))}"#
    case .pong: return #"{"type":"pong"}"#
    case .renamed(let name, let shift): return #"{"type":"renamed","name":\#(Self.quoted(name)),"shift":\#(shift)}"#
    }
  }

  /// `text` as a JSON string literal.
  static func quoted(_ text: String) -> String {
    var quoted = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": quoted += "\\\""
      case "\\": quoted += "\\\\"
      case "\n": quoted += "\\n"
      case "\r": quoted += "\\r"
      case "\t": quoted += "\\t"
      case _ where scalar.value < 0x20: quoted += String(format: "\\u%04x", scalar.value)
      default: quoted.unicodeScalars.append(scalar)
      }
    }
    return quoted + "\""
  }
}

extension PresenceLine {
  /// `[{"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":"#ff0000","width":2}, ...]`
  static func json(_ lines: [PresenceLine]) -> String {
    "["
      + lines.map { line in
        #"{"begin":{"x":\#(number(line.begin.x)),"y":\#(number(line.begin.y))},"#
          + #""end":{"x":\#(number(line.end.x)),"y":\#(number(line.end.y))},"#
          + #""color":"\#(line.color)","width":\#(number(line.width))}"#
      }.joined(separator: ",") + "]"
  }

  /// A finite number as JSON: integers without a fraction.
  private static func number(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }
}
