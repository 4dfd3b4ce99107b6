/// The name of an action sent through target-action or the responder chain:
/// the role a selector plays in UIKit.
public struct Action: Hashable, Sendable {
  public let name: String

  public init(_ name: String) {
    self.name = name
  }

  public static let delete = Action("delete:")
  public static let undo = Action("undo:")
  public static let redo = Action("redo:")
}
