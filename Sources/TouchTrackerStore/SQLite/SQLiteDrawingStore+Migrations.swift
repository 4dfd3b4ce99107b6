import GRDB

extension SQLiteDrawingStore {
  /// The schema, one migration per change; never edit a migration that has
  /// shipped, add a new one.
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("Create drawing") { db in
      try db.create(table: "drawing") { table in
        table.primaryKey("name", .text)
        table.column("document", .text)
        table.column("revision", .integer).notNull()
        table.column("lineCount", .integer).notNull()
        table.column("circleCount", .integer).notNull()
        table.column("updatedAt", .datetime).notNull()
      }
    }
    // Every stored document carries the CRC-32 of its UTF-8 bytes, checked on
    // every read (see `DrawingRecord.verifiedDocument`); rows written before
    // this migration get theirs computed here, from what they hold now.
    migrator.registerMigration("Add document checksum") { db in
      try db.alter(table: "drawing") { table in table.add(column: "checksum", .integer) }
      let rows = try Row.fetchAll(db, sql: "SELECT name, document FROM drawing WHERE document IS NOT NULL")
      for row in rows {
        let document: String = row["document"]
        try db.execute(
          sql: "UPDATE drawing SET checksum = ? WHERE name = ?",
          arguments: [Int64(CRC32.checksum(document.utf8)), row["name"] as String])
      }
    }
    migrator.registerMigration("Snapshot and change log", migrate: addChangeLog)
    migrator.registerMigration("Share links", migrate: addLinks)
    // Where a renamed drawing went, for pages that missed the rename: the
    // old name, the new one, how far the revisions moved, and the revision
    // of the tombstone the rename left (a row counts only while the old
    // name's tombstone is still at it: nothing has happened there since).
    migrator.registerMigration("Renames") { db in
      try db.create(table: "drawingRename", options: .withoutRowID) { table in
        table.primaryKey("name", .text)
        table.column("renamedTo", .text).notNull()
        table.column("shift", .integer).notNull()
        table.column("tombstoneRevision", .integer).notNull()
      }
    }
    // Settings of the whole store, one row each: the admin token.
    migrator.registerMigration("Settings") { db in
      try db.create(table: "setting", options: .withoutRowID) { table in
        table.primaryKey("key", .text)
        table.column("value", .text).notNull()
      }
    }
    // The drawings list, newest first, a page at a time
    // (`list(_ query:)`): one index range, whatever the number of drawings.
    migrator.registerMigration("Drawings list by time") { db in
      try db.execute(
        sql: "CREATE INDEX drawingByTime ON drawing (updatedAt DESC, name) WHERE NOT isDeleted")
    }
    return migrator
  }

  /// A drawing becomes a snapshot plus a log of changes.
  ///
  /// The document moves out of `drawing` into `drawingSnapshot`: SQLite
  /// rewrites a whole row on every `UPDATE` and walks a large value's
  /// overflow pages to reach the columns stored after it, so with a 10 MB
  /// document in the row, bumping the revision for one appended line would
  /// read and write the 10 MB again, and listing would read every document.
  /// `drawing` keeps only small columns: appending and listing cost the same
  /// whatever the drawings' sizes.
  ///
  /// - `drawing`: the summary of each name, a tombstone (`isDeleted`) after
  ///   a delete; `snapshotRevision` is the revision the snapshot is at, and
  ///   the log holds every revision after it up to `revision`; `logBytes`
  ///   is the size of those log rows (when to compact).
  /// - `drawingSnapshot`: the document at `snapshotRevision` and its CRC-32;
  ///   no row for a tombstone.
  /// - `drawingChange`: one row per change, `(name, revision)`, the change's
  ///   JSON (`ChangeCoder`), its CRC-32, and the idempotency key of the
  ///   batch it came in. Most are ~150 bytes (one line); an undo of "clear"
  ///   can be megabytes, which a WITHOUT ROWID table stores correctly, in
  ///   overflow pages, if less compactly.
  /// - `drawingBatch`: the revision each keyed batch ended at; kept when
  ///   the log is compacted, so a retry long after its first try appends
  ///   nothing twice.
  private static func addChangeLog(_ db: Database) throws {
    try db.create(table: "drawingSnapshot") { table in
      table.primaryKey("name", .text)
      table.column("document", .text).notNull()
      table.column("checksum", .integer).notNull()
    }
    try db.execute(
      sql: """
        INSERT INTO drawingSnapshot (name, document, checksum)
        SELECT name, document, checksum FROM drawing WHERE document IS NOT NULL
        """)
    // WITHOUT ROWID where rows are small: one B-tree per table instead of a
    // table and an index on its key, so an append writes fewer pages.
    try db.create(table: "drawingSummary", options: .withoutRowID) { table in
      table.primaryKey("name", .text)
      table.column("revision", .integer).notNull()
      table.column("isDeleted", .boolean).notNull()
      table.column("lineCount", .integer).notNull()
      table.column("circleCount", .integer).notNull()
      table.column("updatedAt", .datetime).notNull()
      table.column("snapshotRevision", .integer).notNull()
      table.column("logBytes", .integer).notNull()
    }
    try db.execute(
      sql: """
        INSERT INTO drawingSummary
          (name, revision, isDeleted, lineCount, circleCount, updatedAt, snapshotRevision, logBytes)
        SELECT name, revision, document IS NULL, lineCount, circleCount, updatedAt, revision, 0 FROM drawing
        """)
    try db.drop(table: "drawing")
    try db.rename(table: "drawingSummary", to: "drawing")
    try db.create(table: "drawingChange", options: .withoutRowID) { table in
      table.column("name", .text).notNull()
      table.column("revision", .integer).notNull()
      table.column("change", .text).notNull()
      table.column("batchKey", .text)
      table.column("checksum", .integer).notNull()
      table.primaryKey(["name", "revision"])
    }
    try db.create(table: "drawingBatch", options: .withoutRowID) { table in
      table.column("name", .text).notNull()
      table.column("batchKey", .text).notNull()
      table.column("revision", .integer).notNull()
      table.primaryKey(["name", "batchKey"])
    }
  }
}
