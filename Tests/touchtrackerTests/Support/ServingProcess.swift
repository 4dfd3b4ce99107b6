import Foundation
import TouchTrackerTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `touchtracker serve` running as a user runs it, on a free loopback port,
/// stopped (SIGKILL) when the test lets go of it if it is still running.
///
/// Starting and stopping wait on a thread of their own (`start`, `stop`):
/// the blocking `init` and `terminate` would hold a thread of the
/// cooperative pool meanwhile.
final class ServingProcess: @unchecked Sendable {
  let process = Process()
  private let stdout = Pipe()
  private let stderrURL: URL
  /// The port from its "listening on" line.
  private(set) var port = 0

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Starts `binary serve --port 0 ARGUMENTS` in `directory` and waits (at
  /// most `timeout` seconds) for it to say where it listens.
  init(binary: URL, arguments: [String], in directory: URL, timeout: Double = 30) throws {
    stderrURL = directory.appendingPathComponent("serve.stderr")
    _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
    process.executableURL = binary
    process.arguments = ["serve", "--port", "0"] + arguments
    process.currentDirectoryURL = directory
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = stdout
    process.standardError = try FileHandle(forWritingTo: stderrURL)
    try process.run()
    let line = try readLine(timeout: timeout)
    guard let portText = line.split(separator: ":").last?.split(separator: "/").first, let port = Int(portText)
    else { throw Failure(description: "No port in '\(line)'; stderr: \(stderr)") }
    self.port = port
  }

  /// `init` on a thread of its own.
  static func start(binary: URL, arguments: [String], in directory: URL, timeout: Double = 30) async throws
    -> ServingProcess
  {
    try await onAThreadOfItsOwn {
      try ServingProcess(binary: binary, arguments: arguments, in: directory, timeout: timeout)
    }
  }

  /// `terminate(limit:)` on a thread of its own.
  func stop(limit: Double) async throws -> Double? {
    try await onAThreadOfItsOwn { self.terminate(limit: limit) }
  }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }

  var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

  /// Sends SIGTERM and returns how long the process took to exit, waiting at
  /// most `limit` seconds (then it is killed and nil returned).
  func terminate(limit: Double) -> Double? {
    let start = Date()
    kill(process.processIdentifier, SIGTERM)
    while process.isRunning {
      if Date().timeIntervalSince(start) > limit {
        kill(process.processIdentifier, SIGKILL)
        return nil
      }
      usleep(20_000)  // Polling the exit: Process offers no bounded wait.
    }
    return Date().timeIntervalSince(start)
  }

  func readLine(timeout: Double) throws -> String {
    let fd = stdout.fileHandleForReading.fileDescriptor
    var received: [UInt8] = []
    let deadline = Date().addingTimeInterval(timeout)
    while !received.contains(UInt8(ascii: "\n")) {
      let remaining = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, remaining) > 0 else {
        throw Failure(description: "touchtracker serve said nothing within \(timeout) s; stderr: \(stderr)")
      }
      var byte: UInt8 = 0
      guard read(fd, &byte, 1) == 1 else {
        throw Failure(description: "touchtracker serve exited; stderr: \(stderr)")
      }
      received.append(byte)
    }
    return String(decoding: received, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
