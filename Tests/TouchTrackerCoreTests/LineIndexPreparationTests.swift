import Testing
import TouchTrackerTestSupport

@testable import TouchTrackerCore

/// The page builds the line index when idle after opening a drawing
/// (`tt_prepare_index`), so the first line drawn does not wait for it.
@Suite struct LineIndexPreparationTests {
  private func openedApp(lines count: Int) -> TouchTrackerApp {
    let app = TouchTrackerApp()
    let lines = (0..<count).map { Line(begin: Point(x: Double($0 % 50) * 10, y: 10), end: Point(x: 300, y: 400)) }
    app.drawView.load(Drawing(lines: lines))
    return app
  }

  @Test func aPreparedDrawingTakesItsFirstLineIntoTheIndexAsItIs() throws {
    let app = openedApp(lines: 500)
    #expect(
      app.drawView.model.prepareLineIndex(upTo: 499) == .notNeeded,
      "more lines than allowed: left to the first tap or line")
    #expect(app.drawView.model.prepareLineIndex(upTo: 500) == .built)
    let built = app.drawView.model.lineIndex.buildCount
    #expect(app.drawView.model.prepareLineIndex(upTo: 500) == .notNeeded, "built already")
    try app.drawLine(from: Point(x: 100, y: 500), to: Point(x: 300, y: 500), at: 1)
    #expect(app.drawView.drawing.lines.count == 501)
    #expect(app.drawView.model.lineIndex.buildCount == built, "no build for the first line")
  }

  @Test func anUnpreparedDrawingBuildsTheIndexForItsFirstLine() throws {
    let app = openedApp(lines: 500)
    let built = app.drawView.model.lineIndex.buildCount
    try app.drawLine(from: Point(x: 100, y: 500), to: Point(x: 300, y: 500), at: 1)
    #expect(app.drawView.model.lineIndex.buildCount == built + 1, "what preparing spares the first line")
  }

  /// The page builds the index of a big drawing in slices (never one long
  /// task): each call does at most `work` lines of the four passes.
  @Test func aSlicedBuildDoesAtMostItsWorkACall() throws {
    let app = openedApp(lines: 500)
    var calls = 1
    while app.drawView.model.prepareLineIndex(upTo: 500, work: 100) == .underWay { calls += 1 }
    #expect(calls == 20, "four passes over 500 lines, 100 lines a call")
    #expect(app.drawView.model.lineIndex.isCurrent && app.drawView.model.lineIndex.count == 500)
    let built = app.drawView.model.lineIndex.buildCount
    try app.drawLine(from: Point(x: 100, y: 500), to: Point(x: 300, y: 500), at: 1)
    #expect(app.drawView.model.lineIndex.buildCount == built, "no build for the first line")
  }

  /// Built in slices of any size, the index is the one built at once: the
  /// same buckets, in the same order, and the same lines left to scan.
  @Test(arguments: [1, 7, 333, 4_000])
  func aSlicedBuildIsTheWholeBuild(work: Int) {
    var generator = SplitMix64(seed: 15)
    var lines: [Line] = (0..<1_000).map { _ in
      let begin = Point(
        x: .random(in: -500...2_000, using: &generator), y: .random(in: -500...1_500, using: &generator))
      let reach = [4.0, 60, 900][Int(generator.next() % 3)]
      let offset = Point(
        x: .random(in: -reach...reach, using: &generator), y: .random(in: -reach...reach, using: &generator))
      return Line(begin: begin, end: begin + offset)
    }
    lines.append(Line(begin: Point(x: 4e12, y: 0), end: Point(x: 4e12 + 10, y: 5)))  // too far out: scanned
    let whole = LineIndex(lines: lines)
    let build = LineIndex.Build(lineCount: lines.count)
    var calls = 1
    while !build.advance(lines, by: work) { calls += 1 }
    #expect(calls == (4 * lines.count + work - 1) / work)
    var sliced = LineIndex()
    sliced.take(build, lines: lines)
    #expect(sliced.entries.map(\.line) == whole.entries.map(\.line))
    #expect(sliced.entries.map(\.ends) == whole.entries.map(\.ends))
    #expect(sliced.classes.map(\.level) == whole.classes.map(\.level))
    #expect(sliced.classes.map(\.starts) == whole.classes.map(\.starts))
    #expect(sliced.unbucketed == whole.unbucketed && sliced.unbucketed == [Int32(lines.count - 1)])
  }

  /// A change while the index is built in slices (positions may move)
  /// starts the build over: taps then find the drawing as it is.
  @Test func aChangeWhileTheIndexIsBuiltStartsItOver() throws {
    let app = openedApp(lines: 500)
    #expect(app.drawView.model.prepareLineIndex(upTo: 500, work: 900) == .underWay)
    app.drawView.load(Drawing(lines: [Line(begin: Point(x: 0, y: 0), end: Point(x: 40, y: 0))]))
    #expect(
      app.drawView.model.prepareLineIndex(upTo: 500, work: 2) == .underWay, "started over: 4 lines of work in all")
    #expect(app.drawView.model.prepareLineIndex(upTo: 500, work: 2) == .built)
    #expect(app.drawView.model.lineIndex.count == 1)
    #expect(
      app.drawView.model.lineIndex.nearest(to: Point(x: 20, y: 2), within: 10, in: app.drawView.drawing.lines) == 0)
  }
}
