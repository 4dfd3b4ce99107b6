/// Where a value sits in a document, spelled as in JavaScript:
/// `lines[3].begin.x`. The empty path is the document itself.
public struct DocumentPath: Hashable, Sendable, CustomStringConvertible {
  public enum Component: Hashable, Sendable {
    case key(String)
    case index(Int)
  }

  public var components: [Component]

  public init(_ components: [Component] = []) {
    self.components = components
  }

  /// The path of a `Decoder` or container; integer keys are array indices.
  public init(_ codingPath: [any CodingKey]) {
    components = codingPath.map { key in key.intValue.map(Component.index) ?? .key(key.stringValue) }
  }

  public var description: String {
    var text = ""
    for component in components {
      switch component {
      case .key(let key): text += text.isEmpty ? key : ".\(key)"
      case .index(let index): text += "[\(index)]"
      }
    }
    return text
  }

  /// " at lines[3].begin.x", or nothing for the document itself, so messages
  /// about the whole document read "Expected an object".
  var suffix: String { components.isEmpty ? "" : " at \(description)" }

  func appending(_ component: Component) -> DocumentPath { DocumentPath(components + [component]) }
}
