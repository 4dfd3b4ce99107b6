import Foundation
import TouchTrackerCore
import TouchTrackerStore

/// A store that times every call that reads or writes drawings and counts
/// its failures (`ServerMetrics.storeCall`), counts the changes appended
/// and the batches replayed (`ServerMetrics.appended`), and otherwise is
/// `base`.
final class MeasuredStorage: DrawingStorage {
  let base: any DrawingStorage
  let metrics: ServerMetrics

  init(_ base: any DrawingStorage, metrics: ServerMetrics) {
    self.base = base
    self.metrics = metrics
  }

  private func measured<T>(_ operation: String, _ body: () async throws -> T) async throws -> T {
    let start = ContinuousClock.now
    do {
      let result = try await body()
      metrics.storeCall(operation, elapsed: ContinuousClock.now - start, failed: false)
      return result
    } catch {
      metrics.storeCall(operation, elapsed: ContinuousClock.now - start, failed: true)
      throw error
    }
  }

  var location: String { base.location }
  var compaction: CompactionPolicy { base.compaction }
  var stall: String? { base.stall }

  func list() async throws -> [DrawingSummary] { try await measured("list") { try await base.list() } }

  func list(_ query: DrawingListQuery) async throws -> DrawingListPage {
    try await measured("listPage") { try await base.list(query) }
  }

  func load(_ name: DrawingName) async throws -> StoredDrawing? {
    try await measured("load") { try await base.load(name) }
  }

  func loadDocument(_ name: DrawingName) async throws -> StoredDocument? {
    try await measured("loadDocument") { try await base.loadDocument(name) }
  }

  func changes(of name: DrawingName, since: Int) async throws -> StoredChanges? {
    try await measured("changes") { try await base.changes(of: name, since: since) }
  }

  func save(_ drawing: Drawing, as name: DrawingName, ifRevision expected: Int?) async throws -> Int {
    try await measured("save") { try await base.save(drawing, as: name, ifRevision: expected) }
  }

  func delete(_ name: DrawingName, ifRevision expected: Int?) async throws -> Bool {
    try await measured("delete") { try await base.delete(name, ifRevision: expected) }
  }

  func summary(of name: DrawingName) async throws -> DrawingSummary? {
    try await measured("summary") { try await base.summary(of: name) }
  }

  func rename(_ name: DrawingName, to newName: DrawingName, ifRevision expected: Int?) async throws -> Renamed? {
    try await measured("rename") { try await base.rename(name, to: newName, ifRevision: expected) }
  }

  func movedTo(_ name: DrawingName) async throws -> DrawingMove? {
    try await measured("movedTo") { try await base.movedTo(name) }
  }

  func adminToken(candidate: String, replacing: Bool) async throws -> String {
    try await base.adminToken(candidate: candidate, replacing: replacing)
  }

  func append(_ changes: [Change], to name: DrawingName, ifRevision expected: Int?, key: String?) async throws -> Int {
    try await measured("append") { try await base.append(changes, to: name, ifRevision: expected, key: key) }
  }

  func append(batches: [ChangeBatch], to name: DrawingName) async throws -> [Result<AppendedBatch, any Error>] {
    let results = try await measured("appendBatches") { try await base.append(batches: batches, to: name) }
    metrics.appended(batches, results)
    return results
  }

  func compact(_ name: DrawingName) async throws -> Int? {
    try await measured("compact") { try await base.compact(name) }
  }

  func waitForCompactions() async { await base.waitForCompactions() }
  func notices() -> AsyncStream<DrawingNotice?>? { base.notices() }
  func broadcast(_ payload: String) async throws { try await base.broadcast(payload) }
  func broadcasts() -> AsyncStream<String>? { base.broadcasts() }
  func close() async { await base.close() }

  func links(of name: DrawingName) async throws -> DrawingLinks? {
    try await measured("links") { try await base.links(of: name) }
  }

  func makeLinks(for name: DrawingName) async throws -> DrawingLinks {
    try await measured("makeLinks") { try await base.makeLinks(for: name) }
  }

  func rotateLinks(of name: DrawingName) async throws -> DrawingLinks {
    try await measured("rotateLinks") { try await base.rotateLinks(of: name) }
  }

  func removeLinks(of name: DrawingName) async throws -> Bool {
    try await measured("removeLinks") { try await base.removeLinks(of: name) }
  }

  func restore(_ drawing: Drawing, as name: DrawingName, revision: Int, updatedAt: Date, links: DrawingLinks?)
    async throws
  {
    try await measured("restore") {
      try await base.restore(drawing, as: name, revision: revision, updatedAt: updatedAt, links: links)
    }
  }
}
