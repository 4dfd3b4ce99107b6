/// The moments a control reports to its targets.
public struct ControlEvents: OptionSet, Hashable, Sendable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  public static let touchDown = ControlEvents(rawValue: 1 << 0)
  public static let touchDownRepeat = ControlEvents(rawValue: 1 << 1)
  public static let touchDragInside = ControlEvents(rawValue: 1 << 2)
  public static let touchDragOutside = ControlEvents(rawValue: 1 << 3)
  public static let touchDragEnter = ControlEvents(rawValue: 1 << 4)
  public static let touchDragExit = ControlEvents(rawValue: 1 << 5)
  public static let touchUpInside = ControlEvents(rawValue: 1 << 6)
  public static let touchUpOutside = ControlEvents(rawValue: 1 << 7)
  public static let touchCancel = ControlEvents(rawValue: 1 << 8)
  public static let valueChanged = ControlEvents(rawValue: 1 << 12)
  public static let primaryActionTriggered = ControlEvents(rawValue: 1 << 13)
}
