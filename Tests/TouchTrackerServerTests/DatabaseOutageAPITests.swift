import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TouchTrackerCore
import TouchTrackerStore
import TouchTrackerTestSupport

@testable import TouchTrackerServer

/// The answers while the database does not answer: 503 with `Retry-After`
/// and the reason, in the JSON of every API error, and `/healthz` at once.
/// The store is `StalledStore`, as `PostgresDrawingStore` is once its
/// database stops answering; the bound asserted (10 s) says "not hung".
@Suite struct DatabaseOutageAPITests {
  static let hung = Duration.seconds(10)

  static func run(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
    let router = buildRouter(
      store: StalledStore(), configuration: ServerConfiguration(port: 0, databasePath: StalledStore.url))
    try await Application(router: router).test(.router) { try await body($0) }
  }

  @Test func requestsWhileTheDatabaseDoesNotAnswerAre503WithRetryAfterAndTheReason() async throws {
    try await Self.run { client in
      let requests: [(String, HTTPRequest.Method, String?)] = [
        ("/api/drawings/d", .get, nil),
        ("/api/drawings/d/changes?since=0", .get, nil),
        ("/api/drawings/d/changes", .post, #"{"changes":[{"op":"clear"}]}"#),
      ]
      for (uri, method, body) in requests {
        try await client.execute(uri: uri, method: method, body: body?.buffer) {
          #expect($0.status == .serviceUnavailable, "\(method) \(uri)")
          #expect($0.headers[.retryAfter] == "2", "\(method) \(uri)")
          #expect(
            $0.text
              == #"{"error":"The database 'postgres://db/touchtracker' is unavailable: no answer within 2 s"}"#,
            "\(method) \(uri)")
        }
      }
    }
  }

  @Test func healthzSaysAtOnceThatTheDatabaseDoesNotAnswer() async throws {
    try await Self.run { client in
      let answered = await answer(within: Self.hung) {
        try await client.execute(uri: "/healthz", method: .get) { response in
          (response.status, response.headers[.retryAfter], response.text)
        }
      }
      let (status, retryAfter, body) = try #require(try answered?.get(), "/healthz hung past \(Self.hung)")
      #expect(status == .serviceUnavailable)
      #expect(retryAfter == "2")
      #expect(
        body
          == #"{"error":"Cannot read the database 'postgres://db/touchtracker': no answer for 3 s"}"#)
    }
  }
}

/// A store whose database stopped answering, as `PostgresDrawingStore`
/// says it once a call is past its deadline: every call throws
/// `unavailable` ("no answer within 2 s"), `stall` says so, and `list`,
/// which `/healthz` would otherwise wait for, never answers.
final class StalledStore: DrawingStorage {
  static let url = "postgres://db/touchtracker"
  static let late = DrawingStoreError.unavailable(location: url, reason: "no answer within 2 s")

  var location: String { Self.url }
  var compaction: CompactionPolicy { .manual }
  var stall: String? { "no answer for 3 s" }

  func list() async throws -> [DrawingSummary] {
    try await Task.sleep(for: .seconds(3600))
    throw Self.late
  }
  func list(_ query: DrawingListQuery) async throws -> DrawingListPage {
    try await Task.sleep(for: .seconds(3600))
    throw Self.late
  }
  func load(_ name: DrawingName) async throws -> StoredDrawing? { throw Self.late }
  func loadDocument(_ name: DrawingName) async throws -> StoredDocument? { throw Self.late }
  func changes(of name: DrawingName, since: Int) async throws -> StoredChanges? { throw Self.late }
  func save(_ drawing: Drawing, as name: DrawingName, ifRevision expected: Int?) async throws -> Int { throw Self.late }
  func delete(_ name: DrawingName, ifRevision expected: Int?) async throws -> Bool { throw Self.late }
  func summary(of name: DrawingName) async throws -> DrawingSummary? { throw Self.late }
  func rename(_ name: DrawingName, to newName: DrawingName, ifRevision expected: Int?) async throws -> Renamed? {
    throw Self.late
  }
  func movedTo(_ name: DrawingName) async throws -> DrawingMove? { throw Self.late }
  func adminToken(candidate: String, replacing: Bool) async throws -> String { throw Self.late }
  func append(_ changes: [Change], to name: DrawingName, ifRevision expected: Int?, key: String?) async throws -> Int {
    throw Self.late
  }
  func append(batches: [ChangeBatch], to name: DrawingName) async throws -> [Result<AppendedBatch, any Error>] {
    throw Self.late
  }
  func compact(_ name: DrawingName) async throws -> Int? { throw Self.late }
  func waitForCompactions() async {}
  func links(of name: DrawingName) async throws -> DrawingLinks? { throw Self.late }
  func makeLinks(for name: DrawingName) async throws -> DrawingLinks { throw Self.late }
  func rotateLinks(of name: DrawingName) async throws -> DrawingLinks { throw Self.late }
  func removeLinks(of name: DrawingName) async throws -> Bool { throw Self.late }
  func restore(_ drawing: Drawing, as name: DrawingName, revision: Int, updatedAt: Date, links: DrawingLinks?)
    async throws
  { throw Self.late }
}
