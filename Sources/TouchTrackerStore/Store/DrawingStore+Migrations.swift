import GRDB

extension DrawingStore {
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
    return migrator
  }
}
