import TouchTrackerCore
import TouchTrackerTestSupport

/// Random changes to a drawing, kept applied to `drawing` as they are made:
/// adds (sometimes at a position, sometimes replacing a shape by its id),
/// deletes and moves (of lines and circles) of present and absent ids, and now and then a clear.
struct ChangeGenerator {
  var random: SplitMix64
  var drawing = Drawing()
  private var nextID: UInt64 = 1

  init(seed: UInt64) {
    random = SplitMix64(seed: seed)
  }

  mutating func newID() -> ShapeID {
    defer { nextID += 1 }
    return ShapeID(rawValue: nextID)
  }

  mutating func point() -> Point {
    Point(
      x: Double(Int.random(in: -500...2000, using: &random)) / 4, y: Double(Int.random(in: 0...1500, using: &random)))
  }

  mutating func line(id: ShapeID? = nil) -> Line {
    let colors: [Color] = [.black, .blue, Color(red: 12, green: 200, blue: 7)]
    return Line(
      id: id ?? newID(), begin: point(), end: point(), color: colors.randomElement(using: &random)!,
      width: Double(Int.random(in: 1...40, using: &random)) / 2)
  }

  mutating func next() -> Change {
    let change: Change
    let lineIDs = drawing.lines.map(\.id)
    let circleIDs = drawing.circles.map(\.id)
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<40:
      let lines = (0..<Int.random(in: 1...3, using: &random)).map { _ in line() }
      let position = Bool.random(using: &random) ? Int.random(in: 0...(drawing.lines.count + 3), using: &random) : nil
      change = .add(lines: lines, circles: [], at: position)
    case 40..<48:
      let circle = Circle(id: newID(), center: point(), radius: Double(Int.random(in: 0...90, using: &random)))
      change = .add(lines: [], circles: [circle], at: nil)
    case 48..<55 where !lineIDs.isEmpty:
      // The same id again: replaces that line (an undo of a move, say).
      change = .add(lines: [line(id: lineIDs.randomElement(using: &random)!)], circles: [], at: nil)
    case 55..<72:
      change = .deleteLine(lineIDs.randomElement(using: &random) ?? ShapeID(rawValue: 999_999))
    case 72..<76:
      change = .deleteCircle(circleIDs.randomElement(using: &random) ?? ShapeID(rawValue: 999_998))
    case 76..<78:
      change = .deleteLine(ShapeID(rawValue: 888_888))  // never there
    case 78..<93:
      change = .moveLine(lineIDs.randomElement(using: &random) ?? ShapeID(rawValue: 7), begin: point(), end: point())
    case 93..<97:
      change = .moveCircle(circleIDs.randomElement(using: &random) ?? ShapeID(rawValue: 8), center: point())
    case 97..<100:
      change = .clear
    default:
      change = .deleteLine(ShapeID(rawValue: 777_777))
    }
    drawing.apply(change)
    return change
  }
}
