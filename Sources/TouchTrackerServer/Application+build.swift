import Hummingbird
import Logging
import TouchTrackerStore

/// The TouchTracker server: the page and its files from the web root, and the
/// drawings API under `/api/drawings`, backed by the database it opens.
///
/// - Parameter onServerRunning: Called once the server listens, with the port
///   it listens on (useful when `configuration.port` is 0).
/// - Throws: `DrawingStoreError.cannotOpen` if the database cannot be opened.
public func buildApplication(
  _ configuration: ServerConfiguration,
  onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
  var logger = Logger(label: "touchtracker")
  logger.logLevel = configuration.logLevel
  let store = try DrawingStore(path: configuration.databasePath)
  let router = buildRouter(store: store, webRoot: configuration.webRoot, logger: logger)
  return Application(
    router: router,
    configuration: ApplicationConfiguration(
      address: .hostname(configuration.host, port: configuration.port),
      serverName: "TouchTracker"
    ),
    onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
    logger: logger
  )
}

/// The routes of `buildApplication`, on their own for tests and for embedding.
public func buildRouter(
  store: DrawingStore,
  webRoot: String,
  logger: Logger = Logger(label: "touchtracker")
) -> Router<BasicRequestContext> {
  let router = Router()
  router.add(middleware: APIErrorMiddleware())
  router.add(middleware: WebRootMiddleware(webRoot: webRoot, logger: logger))
  DrawingsController(store: store).addRoutes(to: router.group("api/drawings"))
  return router
}

/// Builds the application and runs it until SIGINT or SIGTERM, for
/// `touchtracker serve` (which does not import Hummingbird itself).
public func runServer(
  _ configuration: ServerConfiguration,
  onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
) async throws {
  let app = try await buildApplication(configuration, onServerRunning: onServerRunning)
  try await app.runService()
}
