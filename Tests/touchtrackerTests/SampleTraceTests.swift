import Foundation
import Testing
import TouchTrackerCore

/// The traces in `Samples/` that the README points people to keep working.
@Suite struct SampleTraceTests {
  static let samples = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Samples")

  @Test(arguments: [("three-fingers", 3, 0), ("circle", 0, 1), ("move-line", 1, 0)])
  func sampleReplaysCleanly(name: String, lines: Int, circles: Int) async throws {
    let result = try await TouchTrackerProcess.run(["replay", Self.samples.appendingPathComponent("\(name).json").path])
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let output = try ReplayOutput(result.stdout)
    #expect(output.drawing.lines.count == lines)
    #expect(output.drawing.circles.count == circles)
  }
}
