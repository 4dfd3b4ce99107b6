/// The name of an action sent through target-action or the responder chain:
/// the role a selector plays in UIKit.
public struct Action: Hashable, Sendable {
  /// The action's name, spelled as an Objective-C selector: `"delete:"`.
  public let name: String

  /// The action named `name`. Actions of the same name are equal.
  public init(_ name: String) {
    self.name = name
  }

  /// Delete the selection, `"delete:"` (UIKit's `delete(_:)` standard edit action).
  public static let delete = Action("delete:")
  /// Undo, `"undo:"`.
  public static let undo = Action("undo:")
  /// Redo, `"redo:"`.
  public static let redo = Action("redo:")
}
