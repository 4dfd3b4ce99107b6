/// The moments a control reports to its targets.
public struct ControlEvents: OptionSet, Hashable, Sendable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// A touch began in the control.
  public static let touchDown = ControlEvents(rawValue: 1 << 0)
  /// A touch began in the control as a repeated tap (`Touch.tapCount`
  /// above 1); sent together with ``touchDown``.
  public static let touchDownRepeat = ControlEvents(rawValue: 1 << 1)
  /// The tracked touch moved, inside the control's tracking area (its bounds
  /// grown by `Control.trackingMargin`).
  public static let touchDragInside = ControlEvents(rawValue: 1 << 2)
  /// The tracked touch moved, outside the control's tracking area.
  public static let touchDragOutside = ControlEvents(rawValue: 1 << 3)
  /// The tracked touch moved from outside the tracking area into it; sent
  /// together with ``touchDragInside``.
  public static let touchDragEnter = ControlEvents(rawValue: 1 << 4)
  /// The tracked touch moved from inside the tracking area out of it; sent
  /// together with ``touchDragOutside``.
  public static let touchDragExit = ControlEvents(rawValue: 1 << 5)
  /// The tracked touch lifted inside the tracking area: a tap on the
  /// control. Sent together with ``primaryActionTriggered``.
  public static let touchUpInside = ControlEvents(rawValue: 1 << 6)
  /// The tracked touch lifted outside the tracking area.
  public static let touchUpOutside = ControlEvents(rawValue: 1 << 7)
  /// The tracked touch was cancelled (a gesture recognizer took it, or the
  /// control left the window).
  public static let touchCancel = ControlEvents(rawValue: 1 << 8)
  /// The control's value changed. `Control` never sends it: a subclass
  /// with a value (a slider, a switch) sends it with
  /// `sendActions(for:)`.
  public static let valueChanged = ControlEvents(rawValue: 1 << 12)
  /// The control's primary action happened: `Control` sends it with
  /// ``touchUpInside``.
  public static let primaryActionTriggered = ControlEvents(rawValue: 1 << 13)
}
