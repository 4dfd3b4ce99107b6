/// What the event machinery did, as data: the records the page's inspector
/// shows and `touchtracker replay --inspect` (JSON lines) and `--log` (the
/// book's text) print. An application reports them to its one observer
/// (`Application.observer`); with nobody listening each place that could
/// report costs one branch and allocates nothing.
public enum Diagnostic {
  /// A touch came down: the view it hit and the hit-test path from the
  /// window down to that view. `ignored`: the view already has a touch and
  /// does not accept multiple touches, so it never hears of this one.
  case touchBegan(TouchSummary, path: [String], ignored: Bool)
  /// A touch message sent to a view, with the touches it carried (the
  /// book's event-order log: `touchesBegan(_:with:) [1, 2]`).
  case touchesSent(TouchMethod, view: String, touches: [TouchSummary])
  /// A recognizer's state changed, and why.
  case transition(recognizer: String, from: GestureRecognizerState, to: GestureRecognizerState, cause: TransitionCause)
  /// A recognizer would recognize but waits for these to fail first.
  case waiting(recognizer: String, for: [String])
  /// A touch phase is held back from its view by a recognizer
  /// (`delaysTouchesBegan` / `delaysTouchesEnded`).
  case touchHeld(touch: Int, phase: TouchPhase, by: String)
  /// A held phase went to its view after all.
  case touchReleased(touch: Int, phase: TouchPhase)
  /// A held phase will never reach its view (a recognizer took the touch).
  case touchDropped(touch: Int, phase: TouchPhase)
  /// An action went along the responder chain (or straight to its target):
  /// who was asked, in order, and who performed it (nil: nobody).
  case actionSent(action: String, sender: String, asked: [String], handler: String?)
  /// The first responder changed.
  case firstResponder(from: String?, to: String?)
}

/// One touch as a record shows it.
public struct TouchSummary: Equatable {
  /// The host's id (the trace's `id`, the page's pointer id).
  public let id: Int
  /// The touch's phase at the time of the record.
  public let phase: TouchPhase
  /// The touch's x, in window coordinates.
  public let x: Double
  /// The touch's y, in window coordinates.
  public let y: Double
  /// The touch's `tapCount`.
  public let tapCount: Int

  init(_ touch: Touch) {
    id = touch.hostID
    phase = touch.phase
    x = touch.locationInWindow.x
    y = touch.locationInWindow.y
    tapCount = touch.tapCount
  }
}

/// The four touch messages of a responder.
public enum TouchMethod: Equatable {
  /// `touchesBegan(_:with:)`, `touchesMoved(_:with:)`,
  /// `touchesEnded(_:with:)` and `touchesCancelled(_:with:)`.
  case began, moved, ended, cancelled

  /// The method's Swift name: "touchesBegan(_:with:)" and so on.
  public var name: String {
    switch self {
    case .began: "touchesBegan(_:with:)"
    case .moved: "touchesMoved(_:with:)"
    case .ended: "touchesEnded(_:with:)"
    case .cancelled: "touchesCancelled(_:with:)"
    }
  }
}

/// Why a recognizer's state changed.
public enum TransitionCause: Equatable {
  /// Its own reading of the touches: a pan moving, a press lifting.
  case touches
  /// The touches matched its gesture (a tap's last lift, a swipe's distance).
  case matched
  /// A finger moved beyond what the gesture allows.
  case movedTooFar
  /// Its time ran out (the next tap did not come, the swipe took too long).
  case tooSlow
  /// The fingers stayed down long enough (a long press).
  case heldLongEnough
  /// More (or fewer) fingers than the gesture takes.
  case wrongNumberOfTouches
  /// A later tap landed too far from the first.
  case tooFarApart
  /// The fingers lifted before the gesture was complete.
  case liftedTooSoon
  /// It went the wrong way (a swipe).
  case wrongDirection
  /// Its touches were cancelled.
  case touchesCancelled
  /// It had to wait for this one to fail, and this one recognized.
  case requiredToFail(String)
  /// It waited for this one to fail, and it did: it goes ahead.
  case requirementFailed(String)
  /// This recognizer recognized and prevents it.
  case preventedBy(String)
  /// Its delegate's `gestureRecognizerShouldBegin` said no.
  case delegateRefused
  /// A view under its touches refused (`allowsGestureRecognizerToBegin`).
  case viewRefused(String)
  /// It was disabled (`isEnabled = false`).
  case disabled
  /// Back to possible for the next gesture.
  case reset

  /// The words the inspector and the log show ("" for `touches`).
  public var text: String {
    switch self {
    case .touches: ""
    case .matched: "touches matched"
    case .movedTooFar: "moved too far"
    case .tooSlow: "too slow"
    case .heldLongEnough: "held long enough"
    case .wrongNumberOfTouches: "wrong number of touches"
    case .tooFarApart: "taps too far apart"
    case .liftedTooSoon: "lifted too soon"
    case .wrongDirection: "wrong direction"
    case .touchesCancelled: "touches cancelled"
    case .requiredToFail(let other): "required \(other) to fail; it recognized"
    case .requirementFailed(let other): "\(other) failed"
    case .preventedBy(let other): "prevented by \(other)"
    case .delegateRefused: "delegate refused"
    case .viewRefused(let view): "\(view) refused"
    case .disabled: "disabled"
    case .reset: "reset"
    }
  }
}

extension Diagnostic {
  /// The record as one line of the book's event-order log. Touch messages
  /// read as the book prints them (`touchesBegan(_:with:) [1, 2]`); the
  /// rest are indented under them.
  public var text: String {
    switch self {
    case .touchBegan(let touch, let path, let ignored):
      return "  touch \(touch.id) hit \(path.last ?? "nothing") (\(Self.joined(path, " > ")))"
        + (ignored ? ", ignored" : "")
    case .touchesSent(let method, _, let touches):
      return "\(method.name) [\(Self.joined(touches.map { String($0.id) }, ", "))]"
    case .transition(let recognizer, let from, let to, let cause):
      let why = cause.text
      return "  \(recognizer): \(from.name) -> \(to.name)" + (why.isEmpty ? "" : " (\(why))")
    case .waiting(let recognizer, let others):
      return "  \(recognizer): waits for \(Self.joined(others, ", ")) to fail"
    case .touchHeld(let touch, let phase, let recognizer):
      return "  touch \(touch) \(phase.name) held by \(recognizer)"
    case .touchReleased(let touch, let phase):
      return "  touch \(touch) \(phase.name) released"
    case .touchDropped(let touch, let phase):
      return "  touch \(touch) \(phase.name) dropped"
    case .actionSent(let action, let sender, let asked, let handler):
      return "\(Self.methodName(action)) from \(sender): asked \(Self.joined(asked, ", ")), "
        + (handler.map { "\($0) performed it" } ?? "nobody performed it")
    case .firstResponder(let from, let to):
      return "  first responder: \(from ?? "none") -> \(to ?? "none")"
    }
  }

  /// "doubleTap:" as Swift spells the method: "doubleTap(_:)". Byte by
  /// byte: `dropLast()` on a String brought grapheme breaking (5 KB of wasm).
  public static func methodName(_ action: String) -> String {
    var bytes: [UInt8] = []
    for byte in action.utf8 { bytes.append(byte) }
    guard bytes.last == UInt8(ascii: ":") else { return action }
    bytes.removeLast()
    for byte in "(_:)".utf8 { bytes.append(byte) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `joined(separator:)` without the standard library's generic version.
  private static func joined(_ parts: [String], _ separator: String) -> String {
    var result = ""
    for (index, part) in parts.enumerated() {
      if index > 0 { result += separator }
      result += part
    }
    return result
  }
}
