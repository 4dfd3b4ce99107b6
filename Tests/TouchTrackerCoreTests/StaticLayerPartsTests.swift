import Testing
import TouchTrackerTestSupport

@testable import TouchTrackerCore

/// A big drawing's whole static layer handed to the page a tile at a time
/// (`PageHost.StaticMode.wholeInParts`): building it never blocks the page
/// for long, and the parts add up to the one list it replaces.
@Suite struct StaticLayerPartsTests {
  /// A host over 800x600 points (12 tiles of 256) showing `count` lines that
  /// cross it in every tile, handing out in parts any layer of more than 10 shapes.
  private func host(lines count: Int) -> PageHost {
    let host = PageHost(size: Size(width: 800, height: 600))
    var lines: [Line] = []
    for i in 0..<count {
      let x = Double(i % 80) * 10
      lines.append(Line(begin: Point(x: x, y: 10), end: Point(x: 790 - x, y: 590), color: Color(rgb: UInt32(i))))
    }
    host.app.drawView.load(Drawing(lines: lines))
    host.wholeInPartsAbove = 10
    return host
  }

  private func wholeList(_ host: PageHost) -> [Float] {
    let view = host.app.drawView
    return view.staticLayer(sections: view.wholeSections(view.allTiles)).floats
  }

  /// The static buffer's first `count` commands (what the last render handed out).
  private func handedOut(_ host: PageHost, _ count: Int) -> [Float] {
    Array(host.staticFloats.elements.prefix(count * RenderList.stride))
  }

  /// The first part's floats followed by every part after it, and how many parts there were.
  private func remainingParts(_ host: PageHost, after firstPart: [Float]) -> (floats: [Float], parts: Int) {
    var floats = firstPart
    var parts = 1
    while true {
      let next = host.renderStaticPart()
      if next < 0 { continue }  // still sorting the lines into tiles
      guard next > 0 else { break }
      floats += handedOut(host, next)
      parts += 1
    }
    return (floats, parts)
  }

  @Test func aBigWholeLayerComesATileAtATimeAndAddsUpToTheOneList() {
    let host = host(lines: 50)
    let expected = wholeList(host)
    let first = host.renderStaticLayer(whole: true)
    #expect(host.staticMode == .wholeInParts)
    #expect(first > 0 && first * RenderList.stride < expected.count, "only the first tile")
    let (floats, parts) = remainingParts(host, after: handedOut(host, first))
    #expect(parts == 12, "one part a tile")
    #expect(floats == expected)
    #expect(host.renderStaticPart() == 0, "nothing after the last")
  }

  @Test func theTilesStillToComeShowTheDrawingAsItWasWhenTheLayerBegan() {
    let host = host(lines: 50)
    let before = wholeList(host)
    let firstPart = handedOut(host, host.renderStaticLayer(whole: true))
    // A line is drawn meanwhile: the page gets it as an append, relative to the layer under way.
    _ = host.report(id: 1, phaseCode: TouchPhase.began.rawValue, location: Point(x: 100, y: 100), time: 1)
    _ = host.report(id: 1, phaseCode: TouchPhase.moved.rawValue, location: Point(x: 300, y: 100), time: 1.05)
    _ = host.report(id: 1, phaseCode: TouchPhase.ended.rawValue, location: Point(x: 300, y: 100), time: 1.1)
    host.commit(at: 1.1)
    host.tick(at: 2)
    #expect(host.app.drawView.drawing.lines.count == 51)
    #expect(host.renderStaticLayer(whole: false) == 4, "the new line over the two tiles it meets: clip, segment, twice")
    #expect(host.staticMode == .append)
    #expect(remainingParts(host, after: firstPart).floats == before, "the other tiles without it")
  }

  @Test func linesSortedIntoTilesOverSeveralCallsGiveTheSameParts() {
    let host = host(lines: 50)
    host.linesSortedPerPart = 7
    let expected = wholeList(host)
    #expect(host.renderStaticLayer(whole: true) == 0, "no tile yet")
    #expect(host.staticMode == .wholeInParts)
    var waits = 0
    var first = host.renderStaticPart()
    while first < 0 {
      waits += 1
      first = host.renderStaticPart()
    }
    #expect(waits == 6, "50 lines, 7 a call: the 8th call sorts the last and hands out the first tile")
    let (floats, parts) = remainingParts(host, after: handedOut(host, first))
    #expect(parts == 12)
    #expect(floats == expected)
  }

  @Test func aNewWholeLayerStartsTheTilesOver() {
    let host = host(lines: 50)
    _ = host.renderStaticLayer(whole: true)
    _ = host.renderStaticPart()
    _ = host.renderStaticPart()
    let first = host.renderStaticLayer(whole: true)  // the page cleared its copy (a resize, say)
    #expect(host.staticMode == .wholeInParts)
    let (floats, parts) = remainingParts(host, after: handedOut(host, first))
    #expect(parts == 12)
    #expect(floats == wholeList(host))
  }

  @Test func aSmallWholeLayerComesInOneList() {
    let host = host(lines: 10)  // 10 shapes: not more than the limit
    let count = host.renderStaticLayer(whole: true)
    #expect(host.staticMode == .whole)
    #expect(handedOut(host, count) == wholeList(host))
    #expect(host.renderStaticPart() == 0, "no parts")
  }
}
