import Foundation
import Testing
import TouchTrackerTestSupport

/// Runs the built `touchtracker` binary as a user would, and captures what it says.
enum TouchTrackerProcess {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
    /// Whether the process ended by a signal (a trap), not by exiting.
    var crashed: Bool

    var stderrLines: [Substring] { stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast() }
  }

  enum Failure: Error, CustomStringConvertible {
    case binaryNotFound([String])

    var description: String {
      switch self {
      case .binaryNotFound(let searched):
        "No touchtracker binary next to the tests; set TOUCHTRACKER_BINARY. Searched: \(searched.joined(separator: ", "))"
      }
    }
  }

  /// The binary: `TOUCHTRACKER_BINARY` if set, else the products directory
  /// the test bundle was built into (`.build*/debug/touchtracker`; on macOS
  /// the bundle is a directory inside it, on Linux an executable in it).
  static func binary() throws -> URL {
    let fileManager = FileManager.default
    if let path = ProcessInfo.processInfo.environment["TOUCHTRACKER_BINARY"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    var starts: [URL] = [Bundle.main.bundleURL, Bundle.module.bundleURL]
    if let executable = Bundle.main.executableURL { starts.append(executable) }
    starts.append(URL(fileURLWithPath: CommandLine.arguments[0]))
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") { starts.append(bundle.bundleURL) }
    var searched: [String] = []
    for start in starts {
      var directory = start.standardizedFileURL.resolvingSymlinksInPath()
      for _ in 0..<5 {
        directory.deleteLastPathComponent()
        let candidate = directory.appendingPathComponent("touchtracker")
        var isDirectory: ObjCBool = false
        searched.append(candidate.path)
        if fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
          fileManager.isExecutableFile(atPath: candidate.path)
        {
          return candidate
        }
      }
    }
    throw Failure.binaryNotFound(searched)
  }

  /// Runs `touchtracker` with `arguments`, output going to files so that
  /// neither pipe can fill up and stall it, and waits for it on a thread
  /// of its own (`onAThreadOfItsOwn`).
  static func run(_ arguments: [String]) async throws -> Result {
    try await onAThreadOfItsOwn { try runBlocking(arguments) }
  }

  private static func runBlocking(_ arguments: [String]) throws -> Result {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("touchtracker-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let stdoutURL = scratch.appendingPathComponent("stdout")
    let stderrURL = scratch.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
    let stdoutHandle = try FileHandle(forWritingTo: stdoutURL)
    let stderrHandle = try FileHandle(forWritingTo: stderrURL)
    let process = Process()
    process.executableURL = try binary()
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = stdoutHandle
    process.standardError = stderrHandle
    try process.run()
    process.waitUntilExit()
    try stdoutHandle.close()
    try stderrHandle.close()
    return Result(
      status: process.terminationStatus,
      stdout: String(decoding: try Data(contentsOf: stdoutURL), as: UTF8.self),
      stderr: String(decoding: try Data(contentsOf: stderrURL), as: UTF8.self),
      crashed: process.terminationReason == .uncaughtSignal)
  }

  /// The path of a fixture trace or document.
  static func fixture(_ name: String) throws -> String {
    let url = try #require(
      Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"), "fixture \(name).json")
    return url.path
  }
}
