/// Everything the user has finished: lines in the order they were finished,
/// then circles. This is what the document format stores.
public struct Drawing: Hashable, Sendable {
  public var lines: [Line]
  public var circles: [Circle]

  public init(lines: [Line] = [], circles: [Circle] = []) {
    self.lines = lines
    self.circles = circles
  }

  public var isEmpty: Bool { lines.isEmpty && circles.isEmpty }
}
