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
    return migrator
  }
}
