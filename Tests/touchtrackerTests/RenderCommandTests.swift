import Foundation
import Testing

/// `touchtracker render DOCUMENT.json -o FILE.svg`: a saved drawing as an SVG file.
@Suite struct RenderCommandTests {
  @Test func writesOneSVGLinePerLineAndOneCirclePerCircle() async throws {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("touchtracker-\(UUID().uuidString).svg")
    defer { try? FileManager.default.removeItem(at: output) }
    let result = try await TouchTrackerProcess.run([
      "render", try TouchTrackerProcess.fixture("drawing"), "-o", output.path,
    ])
    #expect(result.status == 0)
    #expect(result.stdout == "")
    #expect(result.stderr == "")
    let svg = try String(contentsOf: output, encoding: .utf8)
    #expect(svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600">"#))
    #expect(svg.hasSuffix("</svg>\n"))
    let lines = svg.split(separator: "\n").filter { $0.hasPrefix("<line ") }
    #expect(
      lines == [
        ##"<line x1="10" y1="20" x2="30" y2="40" stroke="#000000" stroke-width="10" stroke-linecap="round"/>"##,
        ##"<line x1="100" y1="100" x2="300" y2="100" stroke="#ff0000" stroke-width="4.5" stroke-linecap="round"/>"##,
        ##"<line x1="50" y1="500" x2="50" y2="500" stroke="#0050ff" stroke-width="10" stroke-linecap="round"/>"##,
      ])
    #expect(svg.split(separator: "\n").filter { $0.hasPrefix("<circle ") }.count == 1)
  }

  /// A drawing that goes on past the canvas (drawn after panning, some of
  /// it left of and above the origin) is all in the picture: the canvas
  /// grows past each side it crosses, 20 pt beyond it.
  @Test func thePictureHoldsLinesBeyondTheCanvas() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("touchtracker-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("wide.json")
    let output = directory.appendingPathComponent("wide.svg")
    try Data(
      ##"{"format":"touchtracker","version":1,"lines":[{"begin":{"x":-300,"y":100},"end":{"x":2000,"y":100},"color":"#000000","width":10}],"circles":[]}"##
        .utf8
    ).write(to: input)
    let result = try await TouchTrackerProcess.run(["render", input.path, "-o", output.path])
    #expect(result.status == 0 && result.stderr == "")
    let svg = try String(contentsOf: output, encoding: .utf8)
    // Half the width (5) and the antialiased edge (2) past each end, then the margin (20).
    #expect(
      svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" width="2354" height="600" viewBox="-327 0 2354 600">"#))
    #expect(svg.contains(##"<rect x="-327" y="0" width="2354" height="600" fill="#c8c8c8"/>"##))
  }

  @Test func aBadDocumentIsOneLineAndNoFile() async throws {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("touchtracker-\(UUID().uuidString).svg")
    let path = try TouchTrackerProcess.fixture("bad-color")
    let result = try await TouchTrackerProcess.run(["render", path, "-o", output.path])
    #expect(result.status != 0)
    #expect(!result.crashed)
    #expect(
      result.stderr == "Error: \(path): Invalid color 'black' at lines[0].color; expected '#rrggbb'\n")
    #expect(!FileManager.default.fileExists(atPath: output.path))
  }

  /// A file in the app's shape is read a chunk at a time; one in another
  /// shape (an extra key) is read whole: the same SVG.
  @Test func aDocumentRendersAlikeStreamedOrReadWhole() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("touchtracker-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let plain =
      ##"{"format":"touchtracker","version":1,"lines":[{"begin":{"x":10,"y":20},"end":{"x":30,"y":40},"color":"#000000","width":10}],"circles":[]}"##
    let other = plain.replacingOccurrences(of: #""circles":[]"#, with: #""circles":[],"note":"kept by another app""#)
    var svgs: [String] = []
    for (name, text) in [("plain", plain), ("other", other)] {
      let input = directory.appendingPathComponent("\(name).json")
      let output = directory.appendingPathComponent("\(name).svg")
      try Data(text.utf8).write(to: input)
      let result = try await TouchTrackerProcess.run(["render", input.path, "-o", output.path])
      #expect(result.status == 0 && result.stderr == "")
      svgs.append(try String(contentsOf: output, encoding: .utf8))
    }
    #expect(svgs[0].contains(##"<line x1="10" y1="20" x2="30" y2="40" stroke="#000000""##))
    #expect(svgs[1] == svgs[0])
  }
}
