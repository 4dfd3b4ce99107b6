import Testing
import TouchTrackerCore
import TouchTrackerTestSupport

@testable import TouchTrackerStore

/// The shared change fixtures (`Tests/Support/ChangeFixtures`) in the
/// store: the log replayed on read and the compaction's fold give the
/// fixture's drawing, on each backend.
@Suite struct ChangeFixtureStoreTests: ChangeLogTesting {
  @Test(arguments: StoreBackend.available, ChangeFixture.all)
  func theLogAndItsFoldGiveTheExpectedDrawing(_ backend: StoreBackend, _ fixture: ChangeFixture) async throws {
    try await Self.withStore(backend) { store, _ in
      let saved = try await store.save(fixture.base, as: Self.name, ifRevision: 0)
      let revision = try await store.append(fixture.changes, to: Self.name, ifRevision: saved)
      #expect(try await store.load(Self.name)?.drawing == fixture.expected, "the log replayed")
      #expect(try await store.compact(Self.name) == revision)
      #expect(try await store.load(Self.name)?.drawing == fixture.expected, "the log folded")
    }
  }
}
