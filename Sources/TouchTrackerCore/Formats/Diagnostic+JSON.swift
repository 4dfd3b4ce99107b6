extension Diagnostic {
  /// The record as one JSON object (`touchtracker replay --inspect`, the
  /// page's inspector), with `time` on the application's clock.
  public func json(time: Double) -> [UInt8] {
    var object = JSONObjectWriter()
    object.number("t", time)
    switch self {
    case .touchBegan(let touch, let path, let ignored):
      object.string("kind", "hit")
      object.json("touch", Self.json(touch))
      object.strings("path", path)
      object.bool("ignored", ignored)
    case .touchesSent(let method, let view, let touches):
      object.string("kind", "message")
      object.string("method", method.name)
      object.string("view", view)
      var writer = JSONWriter()
      writer.raw("[")
      for (index, touch) in touches.enumerated() {
        if index > 0 { writer.raw(",") }
        writer.raw(Self.json(touch))
      }
      writer.raw("]")
      object.json("touches", writer.bytes)
    case .transition(let recognizer, let from, let to, let cause):
      object.string("kind", "state")
      object.string("recognizer", recognizer)
      object.string("from", from.name)
      object.string("to", to.name)
      object.string("cause", cause.text)
    case .waiting(let recognizer, let others):
      object.string("kind", "wait")
      object.string("recognizer", recognizer)
      object.strings("for", others)
    case .touchHeld(let touch, let phase, let recognizer):
      object.string("kind", "held")
      object.number("touch", Double(touch))
      object.string("phase", phase.name)
      object.string("by", recognizer)
    case .touchReleased(let touch, let phase):
      object.string("kind", "released")
      object.number("touch", Double(touch))
      object.string("phase", phase.name)
    case .touchDropped(let touch, let phase):
      object.string("kind", "dropped")
      object.number("touch", Double(touch))
      object.string("phase", phase.name)
    case .actionSent(let action, let sender, let asked, let handler):
      object.string("kind", "action")
      object.string("action", Self.methodName(action))
      object.string("sender", sender)
      object.strings("asked", asked)
      if let handler { object.string("handler", handler) } else { object.null("handler") }
    case .firstResponder(let from, let to):
      object.string("kind", "firstResponder")
      if let from { object.string("from", from) } else { object.null("from") }
      if let to { object.string("to", to) } else { object.null("to") }
    }
    return object.finish()
  }

  private static func json(_ touch: TouchSummary) -> [UInt8] {
    var object = JSONObjectWriter()
    object.number("id", Double(touch.id))
    object.string("phase", touch.phase.name)
    object.number("x", touch.x)
    object.number("y", touch.y)
    object.number("tapCount", Double(touch.tapCount))
    return object.finish()
  }
}
