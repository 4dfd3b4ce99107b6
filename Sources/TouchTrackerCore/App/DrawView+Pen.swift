/// Pens and palms: a pen's pressure sets its line's width (see
/// `DrawView.touchesBegan`), and while a pen is in use a finger on the
/// screen is taken for the hand holding it and draws nothing.
///
/// "In use" is a pen down, or lifted less than `penInUseInterval` ago: a
/// hand rests on the screen between strokes too, and lands before the pen
/// does. A finger that was drawing when a pen comes down is such a palm;
/// its line is dropped. Recognizers are not affected: a finger still taps
/// to select, long-presses and moves lines. The app's recognizers do not
/// receive a pen's touches then (`allowedTouchTypes`), as
/// with iPadOS's "Only Draw with Apple Pencil": the pen only draws, so its
/// line starts at once (no double tap to wait for), and it takes nothing
/// from a finger's tap. With palm rejection off a pen is one more finger.
extension DrawView {
  /// How long after the last pen lifted fingers still do not draw, in seconds.
  public static let penInUseInterval = 5.0

  /// Whether fingers are palms at `time`: palm rejection on and a pen down or lifted recently.
  public func isPenInUse(at time: Double) -> Bool {
    guard options.penOnlyDraws else { return false }
    return pensDown > 0 || time - lastPenLift <= DrawView.penInUseInterval
  }

  /// With palm rejection on, the gestures of this view (the app's, and the
  /// palette's swipe added to it) are the fingers'; off, pens' too.
  public func updateAllowedTouchTypes() {
    let types: [TouchType] = options.penOnlyDraws ? [.direct, .indirectPointer] : TouchType.allCases
    for recognizer in gestureRecognizers where recognizer.allowedTouchTypes != types {
      recognizer.allowedTouchTypes = types
    }
  }

  /// Only fingers are palms: a mouse beside a pen tablet still draws.
  func rejectsAsPalm(_ touch: Touch) -> Bool {
    touch.type == .direct && isPenInUse(at: touch.timestamp)
  }

  /// No pen was used before now (a recording starts: its replay has no
  /// pen before it either, so fingers draw in both).
  func forgetPens() {
    lastPenLift = -Double.infinity
  }

  /// Counts the pens that came down, and drops the lines of fingers already drawing (palms).
  func notePens(began touches: [Touch]) {
    let before = pensDown
    for touch in touches where touch.type == .pencil { pensDown += 1 }
    guard pensDown > before, options.penOnlyDraws else { return }
    linesInProgress.removeAll { !$0.byPen }
    circlesInProgress.removeAll()
  }

  func notePens(finished touches: [Touch]) {
    // A view is sent exactly one end or cancellation for each began it got.
    for touch in touches where touch.type == .pencil {
      pensDown -= 1
      lastPenLift = touch.timestamp
    }
  }
}
