import TouchTrackerCore

// What a person drew, without the ids the drawing gave it: tests that check
// geometry and style compare these, tests of ids compare ids.

extension Line {
  public var withoutID: Line { Line(begin: begin, end: end, color: color, width: width) }
}

extension Circle {
  public var withoutID: Circle { Circle(center: center, radius: radius, color: color, width: width) }
}

extension Array where Element == Line {
  public var withoutIDs: [Line] { map(\.withoutID) }
}

extension Array where Element == Circle {
  public var withoutIDs: [Circle] { map(\.withoutID) }
}

extension Drawing {
  public var withoutIDs: Drawing { Drawing(lines: lines.withoutIDs, circles: circles.withoutIDs) }
}
