import Testing
import TouchTrackerTestSupport

@testable import TouchTrackerCore

/// Menus and the palette stay clear of the host's own controls (a page's
/// toolbar over the canvas), and the palette keeps and shows the color
/// chosen (issue 10, problems 2 and 7).
@Suite struct SafeAreaAndPaletteTests {
  /// A phone's window with the page's toolbar covering its top 60 points.
  private func phone(width: Double = 390, height: Double = 844) -> TouchTrackerApp {
    let app = TouchTrackerApp(size: Size(width: width, height: height))
    app.setSafeAreaInsets(EdgeInsets(top: 60, left: 0, bottom: 0, right: 0))
    return app
  }

  private func frame(_ button: Button) -> Rect {
    Rect(origin: button.convert(toWindow: .zero), size: button.frame.size)
  }

  @Test func theMenuOfALineNearTheTopFlipsBelowItOutOfTheToolbar() throws {
    let app = phone()
    try app.drawLine(from: Point(x: 60, y: 80), to: Point(x: 330, y: 80), at: 0)
    try app.tap(at: Point(x: 200, y: 80), time: 1)
    app.settle()
    let delete = try #require(app.visibleButtons.first { $0.title == "Delete" })
    #expect(frame(delete).minY >= 80 + 5, "below the line")
    #expect(frame(delete).minY >= 60)
  }

  @Test func theMenuOfALineFurtherDownStaysAboveIt() throws {
    let app = phone()
    try app.drawLine(from: Point(x: 60, y: 300), to: Point(x: 330, y: 300), at: 0)
    try app.tap(at: Point(x: 200, y: 300), time: 1)
    app.settle()
    let delete = try #require(app.visibleButtons.first { $0.title == "Delete" })
    #expect(frame(delete).maxY <= 300)
  }

  @Test func aShownMenuMovesOutWhenTheSafeAreaGrows() throws {
    let app = TouchTrackerApp(size: Size(width: 390, height: 844))
    try app.drawLine(from: Point(x: 60, y: 100), to: Point(x: 330, y: 100), at: 0)
    try app.tap(at: Point(x: 200, y: 100), time: 1)
    app.settle()
    app.setSafeAreaInsets(EdgeInsets(top: 90, left: 0, bottom: 0, right: 0))
    let delete = try #require(app.visibleButtons.first { $0.title == "Delete" })
    #expect(frame(delete).minY >= 94)
  }

  @Test(arguments: [(390.0, 844.0), (667.0, 375.0), (320.0, 568.0), (320.0, 420.0)])
  func thePaletteFitsBelowTheToolbar(width: Double, height: Double) throws {
    let app = phone(width: width, height: height)
    app.controller.showPalette()
    let palette = try #require(app.controller.palette)
    let area = Rect(x: 0, y: 60, width: width, height: height - 60)
    #expect(area.contains(palette.frame.origin))
    #expect(palette.frame.maxX <= width && palette.frame.maxY <= height)
    #expect(palette.frame.minX >= 0)
    #expect(app.visibleButtons.map { $0.title } == PaletteView.choices.map { $0.title })
    for button in app.visibleButtons {
      #expect(frame(button).minY >= 60, "\(button.title) is not under the toolbar")
    }
  }

  @Test func aTapOutsideThePaletteClosesIt() throws {
    let app = phone()
    app.controller.showPalette()
    try app.tap(at: Point(x: 20, y: 800), time: 1)
    app.settle()
    #expect(!app.state.paletteVisible)
    #expect(app.drawing.isEmpty)
  }

  @Test func thePaletteMarksTheCurrentChoice() throws {
    let app = phone()
    app.controller.showPalette()
    try app.tap(title: "Blue", at: 1)
    app.controller.showPalette()
    let chosen = app.visibleButtons.compactMap { $0 as? PaletteButton }.filter(\.isChosen).map(\.title)
    #expect(chosen == ["Blue"])
  }

  @Test func noPaletteColorIsTheColorOfALineBeingDrawnOrSelected() {
    func near(_ a: Color, _ b: Color) -> Bool {
      abs(Int(a.red) - Int(b.red)) + abs(Int(a.green) - Int(b.green)) + abs(Int(a.blue) - Int(b.blue)) < 96
    }
    for choice in PaletteView.choices {
      guard let color = choice.color else { continue }
      #expect(!near(color, DrawView.inProgressColor), "\(choice.title)")
      #expect(!near(color, DrawView.selectedColor), "\(choice.title)")
    }
  }

  @Test func turningColorsByAngleOffGoesBackToTheChosenColor() throws {
    let host = PageHost(size: Size(width: 800, height: 600))
    host.app.controller.showPalette()
    try host.app.tap(title: "Blue", at: 1)
    host.colorsByAngle = true
    host.colorsByAngle = false
    try host.app.drawLine(from: Point(x: 100, y: 100), to: Point(x: 300, y: 150), at: 2)
    #expect(host.app.drawing.lines.map { $0.color } == [.blue])
  }

  @Test func badSafeAreaInsetsAreIgnoredAndCounted() {
    let host = PageHost(size: Size(width: 800, height: 600))
    host.setSafeArea(EdgeInsets(top: .nan, left: 0, bottom: -1, right: 0))
    #expect(host.app.application.window.safeAreaInsets == .zero)
    #expect(host.ignoredInputCount == 1)
    host.setSafeArea(EdgeInsets(top: 1e9, left: 0, bottom: 0, right: 0))
    #expect(host.app.application.window.safeAreaFrame.height == 0)
  }
}

/// The palette from the keyboard: the page maps keys 1–7 to its choices.
@Suite struct PaletteKeyboardTests {
  @Test func choosingByIndexColorsNewLinesAndClosesThePalette() throws {
    let app = TouchTrackerApp()
    app.controller.showPalette()
    #expect(app.controller.chooseColor(at: 3))
    #expect(!app.state.paletteVisible)
    try app.drawLine(from: Point(x: 100, y: 100), to: Point(x: 300, y: 150), at: 1)
    #expect(app.drawing.lines.map { $0.color } == [.blue])
    #expect(app.controller.chooseColor(at: 6))
    #expect(app.drawView.options.colorMode == .byAngle)
  }

  @Test(arguments: [-1, 7, 1000])
  func anIndexOutOfRangeChangesNothing(index: Int) {
    let app = TouchTrackerApp()
    app.controller.showPalette()
    #expect(!app.controller.chooseColor(at: index))
    #expect(app.state.paletteVisible)
    #expect(app.drawView.options.colorMode == .fixed(.black))
  }
}

/// A message appearing under an open palette moves it only when it would cover it.
@Suite struct PalettePlaceTests {
  @Test func aPaletteStillInsideTheSafeAreaStaysPut() throws {
    let app = TouchTrackerApp(size: Size(width: 390, height: 844))
    app.setSafeAreaInsets(EdgeInsets(top: 60, left: 0, bottom: 0, right: 0))
    app.controller.showPalette()
    let before = try #require(app.controller.palette).frame
    app.setSafeAreaInsets(EdgeInsets(top: 60, left: 0, bottom: 80, right: 0))
    #expect(try #require(app.controller.palette).frame == before)
    app.setSafeAreaInsets(EdgeInsets(top: 60, left: 0, bottom: 300, right: 0))
    let moved = try #require(app.controller.palette).frame
    #expect(moved.maxY <= 844 - 300)
    #expect(moved.minY >= 60)
  }
}
