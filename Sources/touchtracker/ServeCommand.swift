import ArgumentParser
import Foundation
import TouchTrackerServer

/// `touchtracker serve`: the browser app and the drawings API on one port.
struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Serve the app in the browser and save its drawings.",
    discussion: "Open the printed URL; add ?drawing=NAME to open another drawing. Stop with Ctrl-C."
  )

  @Option(help: "The address to listen on.")
  var host = "127.0.0.1"

  @Option(help: "The port to listen on (0: any free port).")
  var port = 8080

  @Option(help: ArgumentHelp("The SQLite file of the drawings; created if missing.", valueName: "path"))
  var database = "touchtracker.sqlite"

  @Option(
    help: ArgumentHelp(
      "The directory of index.html and the app's files (default: the nearest Web/ above).",
      valueName: "path"))
  var webRoot: String?

  func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("Invalid port \(port): use 0 to 65535") }
  }

  func run() async throws {
    let configuration = ServerConfiguration(
      host: host,
      port: port,
      databasePath: database,
      webRoot: try WebRoot.resolve(webRoot).path
    )
    let host = host.contains(":") ? "[\(host)]" : host
    try await runServer(configuration) { port in
      // Unbuffered, so a script reading the pipe sees the line at once.
      FileHandle.standardOutput.write(Data("TouchTracker is listening on http://\(host):\(port)/\n".utf8))
    }
  }
}
