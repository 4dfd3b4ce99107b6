import Testing
import TouchKitTestSupport
import TouchTrackerCore

/// An app that is let go is freed with everything it made: the page's
/// `tt_init` starts over by dropping its app, and a cycle anywhere would
/// leak the whole app each time (~1.8 MB; the heap ran out after 63).
@Suite struct AppLifetimeTests {
  @Test func anAppThatWasUsedIsFreedWhenLetGo() throws {
    weak var weakApp: TouchTrackerApp?
    weak var weakView: DrawView?
    weak var weakApplication: Application?
    do {
      let app = TouchTrackerApp()
      weakApp = app
      weakView = app.drawView
      weakApplication = app.application
      try app.drawLine(from: Point(x: 100, y: 100), to: Point(x: 300, y: 100), at: 0)
      app.advanceClock(to: 1)
      try app.tap(at: Point(x: 200, y: 100), time: 1)
      app.settle()
      // A finger still down and a timer still pending when the app goes.
      try app.send([began(2, 200, 100)], at: 3)
      try app.send([began(3, 600, 500), began(4, 650, 550)], at: 3.1)
      app.controller.showPalette()
    }
    #expect(weakApp == nil)
    #expect(weakView == nil)
    #expect(weakApplication == nil)
  }
}
