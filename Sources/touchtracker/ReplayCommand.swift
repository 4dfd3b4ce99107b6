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

  @Flag(help: "Write the event-order log (touchesBegan(_:with:) and friends) to stderr.")
  var log = false

  func run() throws {
    let text = try CLIInput.readText(at: trace, what: "trace")
    let options = DrawingOptions(
      colorMode: colors == .angle ? .byAngle : .fixed(.black), widthMode: widths == .speed ? .bySpeed : .fixed)
    do {
      let decoded = try Trace.decode(text)
      let app = try Replay.run(decoded, options: options, log: log ? { CLIInput.printError($0) } : nil)
      print(Replay.output(of: app))
    } catch {
      throw CLIError("\(trace): \(error.message)")
    }
  }
}
