/// The canvas's keys and its description, for the page's keyboard and
/// screen-reader users (`Web/ui/drawing-keys.js`).
extension PageHost {
  /// Runs the key command numbered `code` (`KEY` in Web/core/bridge.js), recorded
  /// like any page command when it does something. False when it does nothing
  /// (an unknown code, nothing to do, a recording playing): the page lets the key go on.
  func press(code: Int32) -> Bool {
    guard player == nil, let command = KeyCommand(rawValue: code) else { return false }
    guard app.drawView.handles(command) else { return false }
    perform(.key(command))
    return true
  }

  /// `DrawView.accessibilityDescription` into `output`; its length.
  func describeDrawing() -> Int {
    setOutput(Array(app.drawView.accessibilityDescription.utf8))
  }
}
