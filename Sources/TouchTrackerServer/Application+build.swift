import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle
import TouchTrackerStore

/// The TouchTracker server: the page's files, `/healthz`, `/metrics`, the
/// drawings API under `/api/drawings` (its contract: `docs/openapi.yaml`,
/// served at `/api/openapi.yaml`), backed by the database it opens.
///
/// - Parameter onServerRunning: Called once the server listens, with the port
///   it listens on (useful when `configuration.port` is 0).
/// - Throws: `DrawingStoreError.cannotOpen` if the database cannot be
///   opened, `.badURL` for a PostgreSQL URL that cannot be used.
public func buildApplication(
  _ configuration: ServerConfiguration,
  onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
  var logger = Logger(label: "touchtracker")
  logger.logLevel = configuration.logLevel
  let metrics = ServerMetrics()
  let store = MeasuredStorage(
    try await openDrawingStorage(
      configuration.databasePath, timeout: configuration.databaseTimeout, observer: metrics),
    metrics: metrics)
  let rooms = LiveRooms(store: store, limits: configuration.liveLimits, metrics: metrics)
  let router = buildRouter(store: store, configuration: configuration, rooms: rooms, metrics: metrics)
  let live = LiveUpgrade(
    rooms: rooms, policy: HostPolicy(host: configuration.host, publicHost: configuration.publicHost),
    check: AccessCheck(control: configuration.accessControl, store: store))
  let connectionLimit = ConnectionLimit.fromFileDescriptorLimit()
  let waiting = WaitingConnections(capacity: configuration.maximumWaitingConnections ?? connectionLimit / 2)
  return Application(
    router: router,
    server: GuardedHTTP1Channel.builder(timeouts: configuration.timeouts, waiting: waiting, live: live),
    configuration: ApplicationConfiguration(
      address: .hostname(configuration.host, port: configuration.port),
      serverName: "TouchTracker",
      availableConnectionsDelegate: MaximumAvailableConnections(connectionLimit)
    ),
    services: [StoreClosing(store: store)],
    onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
    logger: logger
  )
}

/// The routes of `buildApplication`, on their own for tests and for embedding.
///
/// Middleware order, outermost first: the request's id and its log line;
/// the time it took (`Server-Timing`); security headers on every answer;
/// the Host/Origin check before anything is read or written; JSON errors
/// under `/api/`; then the page's files; under `/api/drawings`, access
/// control (`AccessMiddleware`) before every route.
///
/// Live sockets (`GET /api/drawings/NAME/live`) are upgraded before the
/// router (`LiveUpgrade`, in `buildApplication`); the router answers that
/// path's plain `GET`s.
public func buildRouter(store: any DrawingStorage, configuration: ServerConfiguration) -> Router<BasicRequestContext> {
  let metrics = ServerMetrics()
  let store = MeasuredStorage(store, metrics: metrics)
  return buildRouter(
    store: store, configuration: configuration, rooms: LiveRooms(store: store, metrics: metrics), metrics: metrics)
}

func buildRouter(
  store: any DrawingStorage, configuration: ServerConfiguration, rooms: LiveRooms, metrics: ServerMetrics
) -> Router<BasicRequestContext> {
  let assets = configuration.webRoot.map { WebAssets(root: $0) } ?? WebAssets()
  let router = Router()
  router.add(middleware: RequestLogMiddleware(metrics: metrics))
  router.add(middleware: ServerTimingMiddleware())
  router.add(middleware: SecurityHeadersMiddleware())
  router.add(
    middleware: HostCheckMiddleware(
      policy: HostPolicy(host: configuration.host, publicHost: configuration.publicHost)))
  router.add(middleware: APIErrorMiddleware())
  router.add(middleware: WebAssetsMiddleware(assets: assets))
  HealthController(store: store, assets: assets).addRoutes(to: router)
  ContractController().addRoutes(to: router)
  let check = AccessCheck(control: configuration.accessControl, store: store)
  MetricsController(metrics: metrics, rooms: rooms, check: check).addRoutes(to: router)
  let drawings = router.group("api/drawings").add(middleware: AccessMiddleware(check: check))
  DrawingsController(store: store, rooms: rooms, budget: configuration.budget).addRoutes(to: drawings)
  LinksController(store: store, check: check, rooms: rooms).addRoutes(to: drawings)
  return router
}

/// Builds the application and runs it until SIGINT or SIGTERM, for
/// `touchtracker serve` (which does not import Hummingbird itself).
///
/// Shutdown is bounded: connections get `timeouts.shutdownBody` to finish a
/// body, the group cancels what is left after `shutdownLimit` minus a
/// second, and `ShutdownDeadline` ends the process at `shutdownLimit`.
public func runServer(
  _ configuration: ServerConfiguration,
  onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
) async throws {
  let app = try await buildApplication(configuration, onServerRunning: onServerRunning)
  var logger = Logger(label: "touchtracker")
  logger.logLevel = configuration.logLevel
  var group = ServiceGroupConfiguration(
    services: [
      .init(service: app),
      // Last, so it hears the shutdown first: the group tells services in
      // reverse order, each after the one before it has finished.
      .init(service: ShutdownDeadline(limit: configuration.shutdownLimit)),
    ],
    gracefulShutdownSignals: [.sigterm, .sigint],
    logger: logger
  )
  group.maximumGracefulShutdownDuration = max(configuration.shutdownLimit - .seconds(1), .milliseconds(100))
  try await ServiceGroup(configuration: group).run()
}

/// Closes the store when the server shuts down (PostgreSQL: its pool and
/// its listening connection).
struct StoreClosing: Service {
  let store: any DrawingStorage

  func run() async throws {
    try? await gracefulShutdown()
    await store.close()
  }
}
