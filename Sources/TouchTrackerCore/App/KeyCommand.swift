/// What a key does on the canvas, for people who draw without a pointer:
/// a focus moves through the lines and circles, the focused shape is
/// selected, nudged, recolored (the palette) or deleted, and a line is drawn
/// by choosing its two ends with a cursor. The page only maps keys to these
/// commands (`Web/ui/drawing-keys.js`); what each does is decided here.
public enum KeyCommand: Int32, CaseIterable, Sendable {
  /// The focus goes to the next shape in order (lines, then circles), or the first.
  case next = 0
  /// The focus goes to the previous shape, or the last.
  case previous = 1
  case first = 2
  case last = 3
  /// Arrows: the focus goes to the nearest shape that way; a selected shape
  /// moves `KeyCommand.step` points that way (one undoable change a press);
  /// the keyboard line's cursor moves as far.
  case left = 4
  case right = 5
  case up = 6
  case down = 7
  /// Shift with an arrow: as the arrow, by `KeyCommand.fineStep` points.
  case fineLeft = 8
  case fineRight = 9
  case fineUp = 10
  case fineDown = 11
  /// Enter: selects the focused shape (or lets go of it); while a line is
  /// drawn with the keyboard, fixes its first end, then its second.
  case activate = 12
  /// Starts a line drawn with the keyboard: a cursor in the middle of the view.
  case drawLine = 13
  /// Escape: stops the line drawn with the keyboard (not handled otherwise).
  case cancel = 14
  /// The canvas lost the keyboard (Tab away, a pointer on it): the focus
  /// ring hides and a keyboard line stops; the focus is kept for the next key.
  case blur = 15

  /// How far an arrow moves, in points on screen; `fineStep` with Shift.
  public static let step = 10.0
  public static let fineStep = 1.0

  /// The name a trace and the page use (`KEY` in Web/core/bridge.js).
  public var name: String {
    switch self {
    case .next: "next"
    case .previous: "previous"
    case .first: "first"
    case .last: "last"
    case .left: "left"
    case .right: "right"
    case .up: "up"
    case .down: "down"
    case .fineLeft: "fineLeft"
    case .fineRight: "fineRight"
    case .fineUp: "fineUp"
    case .fineDown: "fineDown"
    case .activate: "activate"
    case .drawLine: "drawLine"
    case .cancel: "cancel"
    case .blur: "blur"
    }
  }

  /// An arrow's direction (y grows downward) and its step on screen; nil for the other commands.
  var arrow: (direction: Point, step: Double)? {
    switch self {
    case .left: (Point(x: -1, y: 0), KeyCommand.step)
    case .right: (Point(x: 1, y: 0), KeyCommand.step)
    case .up: (Point(x: 0, y: -1), KeyCommand.step)
    case .down: (Point(x: 0, y: 1), KeyCommand.step)
    case .fineLeft: (Point(x: -1, y: 0), KeyCommand.fineStep)
    case .fineRight: (Point(x: 1, y: 0), KeyCommand.fineStep)
    case .fineUp: (Point(x: 0, y: -1), KeyCommand.fineStep)
    case .fineDown: (Point(x: 0, y: 1), KeyCommand.fineStep)
    default: nil
    }
  }
}
