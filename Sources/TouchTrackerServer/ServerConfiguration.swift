import Logging

/// Where `touchtracker serve` listens and what it serves.
public struct ServerConfiguration: Sendable {
  public var host: String
  public var port: Int
  /// The SQLite file of the drawings; created if missing.
  public var databasePath: String
  /// The directory of `index.html`, `app.js`, `touchtracker.wasm` and the
  /// rest of the page: the repository's `Web/`.
  public var webRoot: String
  public var logLevel: Logger.Level

  public init(
    host: String = "127.0.0.1",
    port: Int = 8080,
    databasePath: String = "touchtracker.sqlite",
    webRoot: String,
    logLevel: Logger.Level = .notice
  ) {
    self.host = host
    self.port = port
    self.databasePath = databasePath
    self.webRoot = webRoot
    self.logLevel = logLevel
  }
}
