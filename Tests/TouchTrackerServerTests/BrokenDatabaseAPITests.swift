import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
import TouchTrackerCore
import TouchTrackerStore

@testable import TouchTrackerServer

/// What SQLite itself failing answers (issue 40, item 9): the disk full, a
/// damaged page in the file. The answer names the drawing and what went
/// wrong, not a bare "Internal server error"; the SQL stays in the log.
@Suite struct BrokenDatabaseAPITests {
  static func run(
    _ error: DatabaseError, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
  ) async throws {
    let router = buildRouter(
      store: BrokenStore(error), configuration: ServerConfiguration(port: 0, databasePath: "broken.sqlite"))
    try await Application(router: router).test(.router) { try await body($0) }
  }

  static func error(_ response: TestResponse) throws -> String? {
    try (JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any])?["error"] as? String
  }

  @Test func aWriteOnAFullDiskSaysSoNamingTheDrawing() async throws {
    let full = DatabaseError(
      resultCode: .SQLITE_FULL, message: "database or disk is full", sql: "INSERT INTO drawing …")
    try await Self.run(full) { client in
      for (uri, method, body) in [
        ("/api/drawings/kitchen", HTTPRequest.Method.put, documentText(lines: 1)),
        ("/api/drawings/kitchen/changes", .post, #"{"changes":[{"op":"clear"}]}"#),
      ] {
        try await client.execute(uri: uri, method: method, body: body.buffer) {
          #expect($0.status == .internalServerError)
          let error = try Self.error($0)
          #expect(
            error
              == "Could not store drawing 'kitchen': the server's disk is full (SQLite: database or disk is full);"
              + " nothing of this request was stored")
        }
      }
    }
  }

  @Test func aReadOfADamagedPageSaysSoNamingTheDrawing() async throws {
    let corrupt = DatabaseError(resultCode: .SQLITE_CORRUPT, message: "database disk image is malformed")
    try await Self.run(corrupt) { client in
      for uri in ["/api/drawings/kitchen", "/api/drawings/kitchen/changes?since=0"] {
        try await client.execute(uri: uri, method: .get) {
          #expect($0.status == .internalServerError)
          let error = try Self.error($0)
          #expect(
            error
              == "Could not read drawing 'kitchen': the database file is damaged (SQLite: database disk image is malformed)"
          )
        }
      }
      try await client.execute(uri: "/api/drawings", method: .get) {
        let error = try Self.error($0)
        #expect(
          error
            == "Could not read the drawings: the database file is damaged (SQLite: database disk image is malformed)")
      }
    }
  }
}

/// A store whose every call throws `error`, as SQLite does when its disk
/// is full or a page of its file is damaged.
final class BrokenStore: DrawingStorage {
  let error: DatabaseError

  init(_ error: DatabaseError) { self.error = error }

  var location: String { "broken.sqlite" }
  var compaction: CompactionPolicy { .manual }

  func list() async throws -> [DrawingSummary] { throw error }
  func list(_ query: DrawingListQuery) async throws -> DrawingListPage { throw error }
  func load(_ name: DrawingName) async throws -> StoredDrawing? { throw error }
  func loadDocument(_ name: DrawingName) async throws -> StoredDocument? { throw error }
  func changes(of name: DrawingName, since: Int) async throws -> StoredChanges? { throw error }
  func save(_ drawing: Drawing, as name: DrawingName, ifRevision expected: Int?) async throws -> Int { throw error }
  func delete(_ name: DrawingName, ifRevision expected: Int?) async throws -> Bool { throw error }
  func summary(of name: DrawingName) async throws -> DrawingSummary? { throw error }
  func rename(_ name: DrawingName, to newName: DrawingName, ifRevision expected: Int?) async throws -> Renamed? {
    throw error
  }
  func movedTo(_ name: DrawingName) async throws -> DrawingMove? { throw error }
  func adminToken(candidate: String, replacing: Bool) async throws -> String { throw error }
  func append(_ changes: [Change], to name: DrawingName, ifRevision expected: Int?, key: String?) async throws -> Int {
    throw error
  }
  func append(batches: [ChangeBatch], to name: DrawingName) async throws -> [Result<AppendedBatch, any Error>] {
    throw error
  }
  func compact(_ name: DrawingName) async throws -> Int? { throw error }
  func waitForCompactions() async {}
  func links(of name: DrawingName) async throws -> DrawingLinks? { throw error }
  func makeLinks(for name: DrawingName) async throws -> DrawingLinks { throw error }
  func rotateLinks(of name: DrawingName) async throws -> DrawingLinks { throw error }
  func removeLinks(of name: DrawingName) async throws -> Bool { throw error }
  func restore(_ drawing: Drawing, as name: DrawingName, revision: Int, updatedAt: Date, links: DrawingLinks?)
    async throws
  { throw error }
}
