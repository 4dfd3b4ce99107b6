import ArgumentParser
import Foundation
import TouchTrackerCore

/// `touchtracker replay TRACE.json`: plays a recorded touch session through
/// the real application and prints the drawing and what is on screen.
struct ReplayCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "replay",
    abstract: "Replay a touch trace and print the resulting drawing and state as JSON."
  )

  enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case black, angle
  }

  enum WidthChoice: String, ExpressibleByArgument, CaseIterable {
    case fixed, speed
  }

  @Argument(help: "The trace file (JSON).")
  var trace: String

  @Option(help: "Line colors: 'black', or 'angle' to color each line by its direction.")
  var colors: ColorChoice = .black

  @Option(help: "Line widths: 'fixed' (10 pt), or 'speed' to set each width by the finger's speed.")
  var widths: WidthChoice = .fixed

  @Flag(
    help: ArgumentHelp(
      "Write the event-order log to stderr: touchesBegan(_:with:) and friends, recognizer states and why,"
        + " touches held back, actions along the responder chain."))
  var log = false

  @Flag(help: "Write the same records to stderr as JSON lines (what the page's inspector shows).")
  var inspect = false

  func run() throws {
    let text = try CLIInput.readText(at: trace, what: "trace")
    let options = DrawingOptions(
      colorMode: colors == .angle ? .byAngle : .fixed(.black), widthMode: widths == .speed ? .bySpeed : .fixed)
    do {
      let decoded = try Trace.decode(text)
      let (log, inspect) = (self.log, self.inspect)
      let observer: ((Double, Diagnostic) -> Void)? =
        log || inspect
        ? { time, record in
          if log { CLIInput.printError(record.text) }
          if inspect { CLIInput.printError(String(decoding: record.json(time: time), as: UTF8.self)) }
        } : nil
      let app = try Replay.run(decoded, options: options, observer: observer)
      print(Replay.output(of: app))
    } catch {
      throw CLIError("\(trace): \(error.message)")
    }
  }
}
