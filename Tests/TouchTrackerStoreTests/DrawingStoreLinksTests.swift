import Foundation
import GRDB
import Testing
import TouchTrackerCore

@testable import TouchTrackerStore

@Suite struct DrawingStoreLinksTests {
  static let name = try! DrawingName("d")

  @Test(arguments: StoreBackend.available)
  func linksAreMadeOnceAndKeptAcrossAReopen(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let store = try await open(compaction: .manual)
      #expect(try await store.links(of: Self.name) == nil)
      let made = try await store.makeLinks(for: Self.name)
      #expect(made.edit != made.view && AccessKey.isWellFormed(made.edit) && AccessKey.isWellFormed(made.view))
      #expect(try await store.makeLinks(for: Self.name) == made)
      let reopened = try await open(compaction: .manual)
      #expect(try await reopened.links(of: Self.name) == made)
      #expect(try await reopened.links(of: try DrawingName("e")) == nil)
    }
  }

  /// The admin token is stored once and kept: a restart, or another server
  /// on the same database, takes the same one (its candidate is ignored)
  /// until it is replaced on purpose.
  @Test(arguments: StoreBackend.available)
  func theAdminTokenIsStoredOnceKeptAcrossAReopenAndReplacedOnlyOnPurpose(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let store = try await open(compaction: .manual)
      #expect(try await store.adminToken(candidate: "first", replacing: false) == "first")
      #expect(try await store.adminToken(candidate: "second", replacing: false) == "first")
      let other = try await open(compaction: .manual)
      #expect(try await other.adminToken(candidate: "third", replacing: false) == "first")
      #expect(try await other.adminToken(candidate: "fourth", replacing: true) == "fourth")
      #expect(try await store.adminToken(candidate: "fifth", replacing: false) == "fourth")
    }
  }

  /// Two servers starting at once on one database store one token, and both take it.
  @Test(arguments: StoreBackend.available)
  func twoStoresAskingAtOnceTakeOneAdminToken(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let (one, two) = (try await open(compaction: .manual), try await open(compaction: .manual))
      async let first = one.adminToken(candidate: "one", replacing: false)
      async let second = two.adminToken(candidate: "two", replacing: false)
      let (a, b) = try await (first, second)
      #expect(a == b && ["one", "two"].contains(a))
    }
  }

  @Test(arguments: StoreBackend.available)
  func rotatingReplacesBothKeysAndRemovingForgetsThem(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let store = try await open(compaction: .manual)
      let made = try await store.makeLinks(for: Self.name)
      let rotated = try await store.rotateLinks(of: Self.name)
      #expect(rotated.edit != made.edit && rotated.view != made.view)
      #expect(try await store.links(of: Self.name) == rotated)
      #expect(try await store.removeLinks(of: Self.name))
      #expect(try await store.links(of: Self.name) == nil)
      #expect(try await !store.removeLinks(of: Self.name))
    }
  }

  /// A database made before links existed opens, keeps its drawings, and
  /// gets the table.
  @Test func aDatabaseFromBeforeLinksIsMigrated() async throws {
    try await withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("a.sqlite").path
      do {
        let old = try DatabaseQueue(path: path)
        let migrator = SQLiteDrawingStore.migrator
        try migrator.migrate(old, upTo: "Snapshot and change log")
      }
      let store = try SQLiteDrawingStore(path: path, compaction: .manual)
      #expect(try await store.save(Drawing(), as: Self.name) == 1)
      _ = try await store.makeLinks(for: Self.name)
      #expect(try await store.list().map(\.name) == [Self.name])
    }
  }
}
