import Foundation
import Testing
import TouchTrackerCore

@testable import TouchTrackerStore

/// `touchtracker backup` and `restore` (`DrawingBackup`): taken while
/// writes go on, a backup holds everything acknowledged before it began;
/// restored into either backend, every drawing comes back byte for byte, at
/// its revision, with its links.
@Suite struct DrawingBackupTests: ChangeLogTesting {
  static let names = (0..<4).map { try! DrawingName("d\($0)") }

  /// What the writers had acknowledged, per drawing: the ids of its lines.
  actor Acknowledged {
    var ids: [DrawingName: Set<UInt64>] = [:]
    var appends = 0
    func add(_ id: UInt64, to name: DrawingName) {
      ids[name, default: []].insert(id)
      appends += 1
    }
  }

  @Test(arguments: StoreBackend.available)
  func aBackupTakenWhileWritesGoOnHoldsEverythingAcknowledgedBeforeIt(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let server = try await open(compaction: .automatic)
      let links = try await server.makeLinks(for: Self.names[0])
      let acknowledged = Acknowledged()
      try await withTemporaryDirectory { directory in
        try await withThrowingTaskGroup(of: Void.self) { group in
          for (index, name) in Self.names.enumerated() {
            group.addTask {
              // Bounded: 40 lines a drawing, each acknowledged before the next.
              for step in 0..<40 {
                let id = UInt64(index * 1000 + step + 1)
                _ = try await server.append([Self.add(id)], to: name, ifRevision: nil, key: nil)
                await acknowledged.add(id, to: name)
              }
            }
          }
          // The backup, as another process: its own store on the database.
          while await acknowledged.appends < 40 { try await Task.sleep(for: .milliseconds(5)) }
          let before = await acknowledged.ids
          let reader = try await open(compaction: .manual)
          let file = directory.appendingPathComponent("backup.sqlite").path
          let backup = try SQLiteDrawingStore(path: file, compaction: .manual)
          let copied = try await DrawingBackup.copy(from: reader, to: backup)
          #expect(copied.links == 1)
          for (name, ids) in before {
            let stored = try #require(try await backup.load(name), "\(name.rawValue) is in the backup")
            let inBackup = Set(stored.drawing.lines.map { $0.id.rawValue })
            #expect(ids.isSubset(of: inBackup), "\(name.rawValue): \(ids.subtracting(inBackup).sorted()) missing")
            #expect(stored.revision >= ids.count)
          }
          #expect(try await backup.links(of: Self.names[0]) == links)
          try await group.waitForAll()
          await backup.close()
        }
      }
    }
  }

  @Test(arguments: StoreBackend.available)
  func aRestoreBringsBackEveryDrawingByteForByteAtItsRevisionWithItsLinks(_ backend: StoreBackend) async throws {
    try await withTemporaryDirectory { directory in
      // The original: drawings with lines and circles, a fold, a deletion, links.
      let original = try SQLiteDrawingStore(
        path: directory.appendingPathComponent("original.sqlite").path, compaction: .manual)
      for (index, name) in Self.names.enumerated() {
        for step in 0..<(index + 2) {
          let id = UInt64(index * 100 + step + 1)
          _ = try await original.append(
            [.add(lines: [Self.line(id, x: Double(step))], circles: [Self.circle(id + 50)], at: nil)], to: name,
            ifRevision: nil, key: nil)
        }
      }
      _ = try await original.compact(Self.names[1])
      _ = try await original.append([.deleteLine(ShapeID(rawValue: 1))], to: Self.names[0])
      let gone = try DrawingName("gone")
      _ = try await original.append([Self.add(9)], to: gone)
      _ = try await original.delete(gone)
      let links = try await original.makeLinks(for: Self.names[2])

      let backupPath = directory.appendingPathComponent("backup.sqlite").path
      let backup = try SQLiteDrawingStore(path: backupPath, compaction: .manual)
      #expect(try await DrawingBackup.copy(from: original, to: backup) == .init(drawings: 4, links: 1))

      try await backend.withDatabase { open in
        let restored = try await open(compaction: .manual)
        #expect(try await DrawingBackup.copy(from: backup, to: restored) == .init(drawings: 4, links: 1))
        #expect(try await restored.list().map(\.name) == Self.names)
        for name in Self.names {
          let before = try #require(try await original.loadDocument(name))
          let after = try #require(try await restored.loadDocument(name))
          #expect(after.json == before.json, "\(name.rawValue)")
          #expect(after.revision == before.revision)
          #expect(abs(after.updatedAt.timeIntervalSince(before.updatedAt)) < 0.001)
        }
        #expect(try await restored.links(of: Self.names[2]) == links)
        #expect(try await restored.load(gone) == nil)
        // Into a database that holds drawings: refused, nothing written.
        await #expect(throws: DrawingBackupError.notEmpty(location: restored.location, drawings: 4)) {
          try await DrawingBackup.copy(from: backup, to: restored)
        }
      }
      await backup.close()
      await original.close()
    }
  }
}
