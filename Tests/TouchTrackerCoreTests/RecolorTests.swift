import Testing
import TouchTrackerCore
import TouchTrackerTestSupport

/// With a line or circle selected, a color from the palette recolors it:
/// one undoable change, published like the others; with nothing selected,
/// the color is for the lines drawn next.
@Suite struct RecolorTests {
  @Test func aColorChosenWhileALineIsSelectedRecolorsItAndUndoTakesItBack() throws {
    let app = try TouchTrackerApp.withOneLine()
    app.drawView.model.publishesChanges = true
    let id = app.drawing.lines[0].id
    try app.tap(at: Point(x: 200, y: 105), time: 2)
    app.settle()
    #expect(app.state.selectedLine == 0)
    app.controller.showPalette()
    try app.tap(title: "Blue", at: 3)
    app.settle()

    #expect(app.drawing.lines[0].color == .blue, "the selected line took the color")
    #expect(app.drawing.lines[0].begin == Point(x: 100, y: 100) && app.drawing.lines[0].width == 10)
    #expect(app.state.selectedLine == nil, "let go of, so that its new color shows")
    #expect(!app.state.paletteVisible)
    #expect(app.drawView.model.takeChanges().map(\.change) == [.recolor(.line(id), color: .blue)])
    #expect(app.drawView.options.colorMode == .fixed(.black), "new lines keep their color")

    app.undo()
    #expect(app.drawing.lines[0].color == .black)
    app.redo()
    #expect(app.drawing.lines[0].color == .blue)
  }

  @Test func aColorChosenWithNothingSelectedIsForTheNextLines() throws {
    let app = try TouchTrackerApp.withOneLine()
    app.controller.showPalette()
    try app.tap(title: "Blue", at: 2)
    #expect(app.drawing.lines[0].color == .black)
    #expect(app.drawView.options.colorMode == .fixed(.blue))
  }

  @Test func aSelectedCircleIsRecoloredByTheKeyboardsChoice() throws {
    let app = TouchTrackerApp()
    app.drawView.load(Drawing(circles: [Circle(center: Point(x: 300, y: 300), radius: 50)]))
    try app.tap(at: Point(x: 350, y: 300), time: 1)
    app.settle()
    #expect(app.drawView.selectedCircleIndex == 0)
    app.controller.showPalette()
    #expect(app.controller.chooseColor(at: 5))
    #expect(app.drawing.circles[0].color == .purple)
    #expect(app.drawing.circles[0].radius == 50)
  }

  @Test func othersRecolorOfALineThisPersonMovedKeepsBoth() {
    let model = DrawingModel()
    model.publishesChanges = true
    let line = Line(id: model.nextID(), begin: Point(x: 0, y: 0), end: Point(x: 10, y: 0))
    model.commit(.add(lines: [line], circles: [], at: nil), freshIDs: true)
    model.receiveChanges([])
    model.confirmChanges(1)
    model.commit(.moveLine(line.id, begin: Point(x: 5, y: 5), end: Point(x: 15, y: 5)))
    model.receiveChanges([.recolor(.line(line.id), color: .orange)])
    #expect(model.drawing.lines[0].color == .orange)
    #expect(model.drawing.lines[0].begin == Point(x: 5, y: 5))
    _ = model.undo()
    #expect(model.drawing.lines[0].begin == Point(x: 0, y: 0), "undo takes back the move only")
    #expect(model.drawing.lines[0].color == .orange, "and leaves their color")
  }

  @Test func aRecolorIsWrittenAndReadAsJSON() throws {
    let change = Change.recolor(.circle(ShapeID(rawValue: 7)), color: Color(rgb: 0x00733a))
    let text = String(decoding: ChangeCoder.encode(change), as: UTF8.self)
    #expect(text == ##"{"op":"recolor","circle":7,"color":"#00733a"}"##)
    #expect(try ChangeCoder.decode(bytes: Array(text.utf8)) == change)
    #expect(throws: FormatError.self) {
      try ChangeCoder.decode(bytes: Array(#"{"op":"recolor","line":7,"color":"blue"}"#.utf8))
    }
  }
}
