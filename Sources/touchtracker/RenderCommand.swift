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

  @Option(help: "Canvas width in points.")
  var width: Double = 800

  @Option(help: "Canvas height in points.")
  var height: Double = 600

  func run() throws {
    guard width.isFinite, height.isFinite, width >= 1, height >= 1, width <= 100_000, height <= 100_000 else {
      throw CLIError("Canvas size must be between 1 and 100000 points")
    }
    let text = try CLIInput.readText(at: document, what: "document")
    let drawing: Drawing
    do {
      drawing = try DocumentCoder.decode(text)
    } catch {
      throw CLIError("\(document): \(error.message)")
    }
    let svg = SVGWriter.svg(for: drawing, size: Size(width: width, height: height))
    try OutputFile.write(Data(svg.utf8), to: output)
  }
}
