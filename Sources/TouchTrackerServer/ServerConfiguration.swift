import Logging
import TouchTrackerStore

/// Where `touchtracker serve` listens, what it serves and how long it waits.
public struct ServerConfiguration: Sendable {
  public var host: String
  public var port: Int
  /// The SQLite file of the drawings (created if missing), or the URL of
  /// a PostgreSQL database (`postgres://USER@HOST:PORT/DATABASE`), which
  /// several servers can share.
  public var databasePath: String
  /// How long a request waits for a PostgreSQL database before it is
  /// answered 503 (`DatabaseDeadline`); what a stopped or unreachable
  /// database costs each request.
  public var databaseTimeout: Duration
  /// The directory of `index.html`, `app.js`, `touchtracker.wasm` and the
  /// rest of the page, read from disk on every request (for development);
  /// nil serves the files embedded in the binary.
  public var webRoot: String?
  /// A name the server is reached by besides its bound address and the
  /// loopback names (`drawings.example.org`, with or without a port); every
  /// other `Host` is refused, which is what stops DNS rebinding.
  public var publicHost: String?
  public var timeouts: ConnectionTimeouts
  /// How many connections may wait for a request head at once before the
  /// longest-waiting is closed; nil: half the connection limit (which is the
  /// descriptor limit less a reserve).
  public var maximumWaitingConnections: Int?
  /// How long a graceful shutdown (SIGTERM, SIGINT) may take before the
  /// process exits anyway, whatever the clients are doing.
  public var shutdownLimit: Duration
  public var logLevel: Logger.Level
  /// Share links and the admin token (`AccessControl`); nil: off, everyone
  /// who reaches the server may do anything (loopback only, by default).
  public var accessControl: AccessControl?
  /// The bytes of request bodies the server holds at once, across all
  /// requests (`BodyBudget`): a body that does not fit beside the others is
  /// answered 503 with `Retry-After`, one larger than the budget 413.
  public var bodyBudget: Int {
    get { budget.limit }
    set { budget = BodyBudget(limit: newValue) }
  }
  /// The default of `touchtracker serve --body-budget`: room for two of
  /// the largest documents (256 MiB) at once.
  public static let defaultBodyBudget = 512 * 1024 * 1024
  /// The budget itself, shared by every request of the server.
  var budget = BodyBudget(limit: Self.defaultBodyBudget)
  /// The limits of the live sockets (message size and rate, send queues);
  /// DESIGN.md's unless a test makes them small.
  var liveLimits = LiveLimits()

  public init(
    host: String = "127.0.0.1",
    port: Int = 8080,
    databasePath: String = "touchtracker.sqlite",
    databaseTimeout: Duration = DatabaseDeadline.defaultLimit,
    webRoot: String? = nil,
    publicHost: String? = nil,
    timeouts: ConnectionTimeouts = ConnectionTimeouts(),
    maximumWaitingConnections: Int? = nil,
    shutdownLimit: Duration = .seconds(8),
    logLevel: Logger.Level = .notice,
    accessControl: AccessControl? = nil,
    bodyBudget: Int = Self.defaultBodyBudget
  ) {
    self.budget = BodyBudget(limit: bodyBudget)
    self.accessControl = accessControl
    self.host = host
    self.port = port
    self.databasePath = databasePath
    self.databaseTimeout = databaseTimeout
    self.webRoot = webRoot
    self.publicHost = publicHost
    self.timeouts = timeouts
    self.maximumWaitingConnections = maximumWaitingConnections
    self.shutdownLimit = shutdownLimit
    self.logLevel = logLevel
  }
}
