import Foundation
import Logging
import NIOPosix
import PostgresNIO

/// A PostgreSQL database named by URL, as `touchtracker serve --database`
/// takes it: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, with an
/// optional `?sslmode=disable|prefer|require|verify-full` (libpq's meaning;
/// `prefer`, the default, uses TLS if the server offers it).
public struct PostgresURL: Sendable, Hashable {
  public var host: String
  public var port: Int
  public var user: String
  public var password: String?
  public var database: String
  public var sslMode: SSLMode

  public enum SSLMode: String, Sendable, Hashable, CaseIterable {
    case disable, prefer, require
    case verifyFull = "verify-full"
  }

  /// Whether `text` names a PostgreSQL database rather than a SQLite file:
  /// it starts with `postgres://` or `postgresql://`.
  public static func isPostgres(_ text: String) -> Bool {
    let lower = text.lowercased()
    return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
  }

  /// - Throws: `DrawingStoreError.badURL` naming what is wrong.
  public init(_ text: String) throws(DrawingStoreError) {
    func bad(_ reason: String) -> DrawingStoreError { .badURL(url: Self.redacted(text), reason: reason) }
    guard Self.isPostgres(text) else { throw bad("it does not start with postgres:// or postgresql://") }
    guard let components = URLComponents(string: text) else {
      throw bad("it is not a valid URL (a character that must be percent-encoded, or a port that is not a number?)")
    }
    guard let host = components.host, !host.isEmpty else {
      throw bad("it names no host (postgres://USER@HOST:PORT/DATABASE)")
    }
    guard let user = components.user, !user.isEmpty else {
      throw bad("it names no user (postgres://USER@HOST:PORT/DATABASE)")
    }
    let port = components.port ?? 5432
    guard (1...65535).contains(port) else { throw bad("port \(port) is not 1 to 65535") }
    let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
    guard !path.isEmpty else { throw bad("it names no database (postgres://USER@HOST:PORT/DATABASE)") }
    guard !path.contains("/") else { throw bad("'\(path)' is not a database name (it has a '/')") }
    var sslMode = SSLMode.prefer
    for item in components.queryItems ?? [] {
      switch item.name {
      case "sslmode":
        guard let value = item.value, let mode = SSLMode(rawValue: value) else {
          throw bad(
            "sslmode '\(item.value ?? "")' is not one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        sslMode = mode
      default:
        throw bad("the parameter '\(item.name)' is not known (only sslmode is)")
      }
    }
    self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    self.port = port
    // URLComponents decodes percent-escapes in these.
    self.user = user
    self.password = components.password
    self.database = path
    self.sslMode = sslMode
  }

  /// The URL without its password, for messages and logs.
  public var description: String {
    let host = self.host.contains(":") ? "[\(self.host)]" : self.host
    return "postgres://\(user)@\(host):\(port)/\(database)" + (sslMode == .prefer ? "" : "?sslmode=\(sslMode.rawValue)")
  }

  /// The URL, password included.
  public var text: String {
    let allowed = CharacterSet.urlUserAllowed.subtracting(CharacterSet(charactersIn: ":@/"))
    func encoded(_ part: String) -> String { part.addingPercentEncoding(withAllowedCharacters: allowed) ?? part }
    let host = self.host.contains(":") ? "[\(self.host)]" : self.host
    let credentials = encoded(user) + (password.map { ":" + encoded($0) } ?? "")
    return "postgres://\(credentials)@\(host):\(port)/\(encoded(database))"
      + (sslMode == .prefer ? "" : "?sslmode=\(sslMode.rawValue)")
  }

  /// Creates the database `name` on this URL's server (for tests and
  /// benchmarks, which make one each).
  public func createDatabase(_ name: String) async throws {
    try await administer("CREATE DATABASE \"\(name)\"")
  }

  /// Drops the database `name` on this URL's server, closing its connections.
  public func dropDatabase(_ name: String) async throws {
    try await administer("DROP DATABASE IF EXISTS \"\(name)\" WITH (FORCE)")
  }

  /// Runs one statement on this URL's database, over a connection of its own.
  private func administer(_ sql: String) async throws {
    var logger = Logger(label: "touchtracker.postgres")
    logger.logLevel = .critical
    let connection: PostgresConnection
    do {
      connection = try await PostgresConnection.connect(
        on: MultiThreadedEventLoopGroup.singleton.next(), configuration: connectionConfiguration(), id: 3,
        logger: logger
      ).get()
    } catch {
      throw DrawingStoreError.cannotOpen(path: description, reason: PostgresDrawingStore.reason(error))
    }
    do {
      try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
      try await connection.close()
    } catch {
      try? await connection.close()
      throw DrawingStoreError.unavailable(
        location: description, reason: "\(sql): " + PostgresDrawingStore.reason(error))
    }
  }

  /// `text` with any password replaced by `***`, for an error about it.
  static func redacted(_ text: String) -> String {
    guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].lastIndex(of: "@") else {
      return text
    }
    let credentials = text[scheme.upperBound..<at]
    guard let colon = credentials.firstIndex(of: ":") else { return text }
    return String(text[..<colon]) + ":***" + String(text[at...])
  }

  /// This URL with another database (the tests make one per test).
  public func with(database: String) -> PostgresURL {
    var copy = self
    copy.database = database
    return copy
  }

  var clientTLS: PostgresClient.Configuration.TLS {
    var relaxed = TLSConfiguration.makeClientConfiguration()
    relaxed.certificateVerification = .none
    switch sslMode {
    case .disable: return .disable
    case .prefer: return .prefer(relaxed)
    case .require: return .require(relaxed)
    case .verifyFull: return .require(.makeClientConfiguration())
    }
  }

  var clientConfiguration: PostgresClient.Configuration {
    PostgresClient.Configuration(
      host: host, port: port, username: user, password: password, database: database, tls: clientTLS)
  }

  func connectionConfiguration() throws -> PostgresConnection.Configuration {
    let tls: PostgresConnection.Configuration.TLS
    switch sslMode {
    case .disable: tls = .disable
    case .prefer, .require, .verifyFull:
      var configuration = TLSConfiguration.makeClientConfiguration()
      if sslMode != .verifyFull { configuration.certificateVerification = .none }
      let context = try NIOSSLContext(configuration: configuration)
      tls = sslMode == .prefer ? .prefer(context) : .require(context)
    }
    return PostgresConnection.Configuration(
      host: host, port: port, username: user, password: password, database: database, tls: tls)
  }
}
