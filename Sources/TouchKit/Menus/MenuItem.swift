/// One command in a menu: a title and the action sent along the first
/// responder's chain when it is tapped.
public struct MenuItem: Hashable, Sendable {
  public var title: String
  public var action: Action

  public init(title: String, action: Action) {
    self.title = title
    self.action = action
  }
}
