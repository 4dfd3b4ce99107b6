import ArgumentParser
import Foundation
import Logging
import TouchTrackerServer
import TouchTrackerStore

/// `touchtracker serve`: the browser app and the drawings API on one port.
///
/// The page's files are built into the binary, so this runs from anywhere;
/// `--web-root` serves them from disk instead, for working on the page.
struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Serve the app in the browser and save its drawings.",
    discussion: """
      Open the printed URL; add ?drawing=NAME to open another drawing. Stop with Ctrl-C.
      On loopback (the default) anyone on this machine may open every drawing. With --access-control \
      every drawing needs its share link (the Share button makes them) or the admin token, which is \
      printed at start in a link to open; listening on any other address needs --access-control.
      """
  )

  @Option(help: "The address to listen on.")
  var host = "127.0.0.1"

  @Option(help: "The port to listen on (0: any free port).")
  var port = 8080

  @Option(
    help: ArgumentHelp(
      "The SQLite file of the drawings (created if missing), or a PostgreSQL database: postgres://USER@HOST:PORT/DATABASE (several servers can share one).",
      valueName: "path-or-url"))
  var database = "touchtracker.sqlite"

  @Option(
    help: ArgumentHelp(
      "With a PostgreSQL database: how long a request waits for it before the answer is 503 (the database is down or not answering).",
      valueName: "seconds"))
  var databaseTimeout = 2.0

  @Option(
    help: ArgumentHelp(
      "How many MiB of request bodies the server holds at once, across all requests; a body that does not fit beside the others is answered 503 (try again), one larger than this 413. Bodies in flight take up to about twice this in memory.",
      valueName: "MiB"))
  var bodyBudget = ServerConfiguration.defaultBodyBudget / (1024 * 1024)

  @Option(
    help: ArgumentHelp(
      "Serve the page's files from this directory instead of those built in (for development).",
      valueName: "path"))
  var webRoot: String?

  @Option(
    help: ArgumentHelp(
      "A name the server is reached by besides its address and localhost (requests naming others are refused).",
      valueName: "name"))
  var publicHost: String?

  @Flag(
    help: """
      Require a drawing's share link or the admin token (printed at start) for every drawing; \
      needed to listen beyond loopback. The token is kept with the drawings: the same after a restart \
      and on every server of one database.
      """)
  var accessControl = false

  @Flag(
    help: """
      With --access-control: replace the stored admin token with a new one; the old one opens nothing here \
      from then on, and nothing on other servers of the database once they restart.
      """)
  var newAdminToken = false

  @Option(
    help: ArgumentHelp(
      "How the log on standard error is written: text, or json (one object a line).", valueName: "format"))
  var logFormat = LogFormat.text

  @Option(
    help: ArgumentHelp(
      "The least important log lines written: trace, debug, info (a line per request), notice, warning, error or critical.",
      valueName: "level"))
  var logLevel = "notice"

  func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("Invalid port \(port): use 0 to 65535") }
    guard databaseTimeout > 0, databaseTimeout <= 600 else {
      throw ValidationError("Invalid database timeout \(databaseTimeout): use more than 0 and at most 600 seconds")
    }
    guard TouchTrackerServer.logLevel(named: logLevel) != nil else {
      throw ValidationError(
        "Invalid log level '\(logLevel)': use trace, debug, info, notice, warning, error or critical")
    }
    guard (1...65536).contains(bodyBudget) else {
      throw ValidationError("Invalid body budget \(bodyBudget): use 1 to 65536 MiB")
    }
    if newAdminToken && !accessControl { throw ValidationError("--new-admin-token needs --access-control") }
    if PostgresURL.isPostgres(database) {
      do {
        _ = try PostgresURL(database)
      } catch {
        throw ValidationError(error.description)
      }
    }
  }

  func run() async throws {
    if !Self.isLoopback(host) && !accessControl {
      throw CLIError(
        "Listening on '\(host)' needs --access-control: without it anyone who reaches the port could read, change and delete every drawing"
      )
    }
    bootstrapLogging(logFormat)
    let webRoot = try self.webRoot.map { try WebRoot.check($0).path }
    let access = accessControl ? try await AccessControl.stored(in: database, replacing: newAdminToken) : nil
    let configuration = ServerConfiguration(
      host: host,
      port: port,
      databasePath: database,
      databaseTimeout: .milliseconds(Int((databaseTimeout * 1000).rounded())),
      webRoot: webRoot,
      publicHost: publicHost,
      logLevel: TouchTrackerServer.logLevel(named: logLevel) ?? .notice,
      accessControl: access,
      bodyBudget: bodyBudget * 1024 * 1024
    )
    if let problem = WebRoot.missingWasm(in: webRoot.map { URL(fileURLWithPath: $0) }) {
      // Through the log, so that under --log-format json every line is JSON.
      Logger(label: "touchtracker").warning("\(problem)")
    }
    let host = host.contains(":") ? "[\(host)]" : host
    try await runServer(configuration) { port in
      // Unbuffered, so a script reading the pipe sees the line at once.
      var lines = "TouchTracker is listening on http://\(host):\(port)/\n"
      if let access {
        // On standard output only, never in a log: the one place it is shown.
        lines += "Access control is on. Open this link to see and share every drawing (keep it to yourself):\n"
        lines += "    http://\(host):\(port)/?token=\(access.adminToken)\n"
      }
      FileHandle.standardOutput.write(Data(lines.utf8))
    }
  }

  /// Whether `host` is only reachable from this machine: `localhost`,
  /// 127.0.0.0/8 or `::1`.
  static func isLoopback(_ host: String) -> Bool {
    let host = host.lowercased()
    if host == "localhost" || host == "::1" || host == "[::1]" { return true }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
  }
}

extension LogFormat: ExpressibleByArgument {}
