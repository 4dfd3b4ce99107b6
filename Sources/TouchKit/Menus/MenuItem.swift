/// One command in a menu: a title and the action sent along the first
/// responder's chain when it is tapped.
public struct MenuItem: Hashable, Sendable {
  /// The text on the item's button.
  public var title: String
  /// The action sent along the first responder's chain when the item is
  /// tapped. The menu shows the item only when a responder on that chain
  /// can perform it.
  public var action: Action

  /// An item showing `title` that sends `action`.
  public init(title: String, action: Action) {
    self.title = title
    self.action = action
  }
}
