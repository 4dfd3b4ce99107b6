import ArgumentParser
import Foundation
import TouchTrackerCore

/// `touchtracker render DOCUMENT.json -o FILE.svg`: draws a saved drawing.
struct RenderCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract: "Render a drawing document to an SVG file."
  )

  @Argument(help: "The document file (JSON).")
  var document: String

  @Option(name: .shortAndLong, help: "The SVG file to write.")
  var output: String

  @Option(help: "Canvas width in points (grown to hold a drawing that goes past it, with 20 pt beyond).")
  var width: Double = 800

  @Option(help: "Canvas height in points (grown to hold a drawing that goes past it, with 20 pt beyond).")
  var height: Double = 600

  func run() throws {
    guard width.isFinite, height.isFinite, width >= 1, height >= 1, width <= 100_000, height <= 100_000 else {
      throw CLIError("Canvas size must be between 1 and 100000 points")
    }
    let drawing = try CLIInput.readDocument(at: document)
    let size = Size(width: width, height: height)
    // Written a chunk at a time: the drawing and its render list are all
    // that is held (a million lines peak under 150 MB; see BENCHMARKS.md).
    try OutputFile.write(to: output) { emit in
      SVGWriter.write(drawing, size: size) { chunk in chunk.withUnsafeBytes { emit($0) } }
    }
  }
}
