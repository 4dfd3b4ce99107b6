import GRDB

/// The share links of each drawing (`DrawingLinks`), in `drawingLink`
/// (migration "Share links"): one row per name, the two keys as they are
/// handed out. Keys are looked up by the drawing's name, never by the key,
/// so no index lookup's timing depends on a guessed key; the server then
/// compares in constant time (`DrawingLinks.access(for:)`).
///
/// A name's links are independent of its drawing's rows: they may be made
/// before the drawing is first saved, and `removeLinks` (after a delete)
/// revokes them, so a drawing made again under the name gets new ones.
extension SQLiteDrawingStore {
  /// The links of `name`, or nil if none were made.
  public func links(of name: DrawingName) async throws -> DrawingLinks? {
    try await database.read { db in
      try Row.fetchOne(db, sql: "SELECT edit, view FROM drawingLink WHERE name = ?", arguments: [name.rawValue])
        .map { DrawingLinks(edit: $0["edit"], view: $0["view"]) }
    }
  }

  /// The links of `name`, made now (`DrawingLinks.random`) if it had none.
  public func makeLinks(for name: DrawingName) async throws -> DrawingLinks {
    let fresh = DrawingLinks.random()
    return try await writeTransaction { db in
      if let row = try Row.fetchOne(
        db, sql: "SELECT edit, view FROM drawingLink WHERE name = ?", arguments: [name.rawValue])
      {
        return DrawingLinks(edit: row["edit"], view: row["view"])
      }
      try db.execute(
        sql: "INSERT INTO drawingLink (name, edit, view) VALUES (?, ?, ?)",
        arguments: [name.rawValue, fresh.edit, fresh.view])
      return fresh
    }
  }

  /// Replaces both links of `name` with new ones: the old keys open
  /// nothing from now on.
  public func rotateLinks(of name: DrawingName) async throws -> DrawingLinks {
    let fresh = DrawingLinks.random()
    try await writeTransaction { db in
      try db.execute(
        sql: "INSERT OR REPLACE INTO drawingLink (name, edit, view) VALUES (?, ?, ?)",
        arguments: [name.rawValue, fresh.edit, fresh.view])
    }
    return fresh
  }

  /// Forgets the links of `name`; true if it had some.
  @discardableResult
  public func removeLinks(of name: DrawingName) async throws -> Bool {
    try await writeTransaction { db in
      try db.execute(sql: "DELETE FROM drawingLink WHERE name = ?", arguments: [name.rawValue])
      return db.changesCount > 0
    }
  }

  public func adminToken(candidate: String, replacing: Bool) async throws -> String {
    do {
      return try await writeTransaction { db in
        try db.execute(
          sql: replacing
            ? "INSERT OR REPLACE INTO setting (key, value) VALUES ('adminToken', ?)"
            : "INSERT OR IGNORE INTO setting (key, value) VALUES ('adminToken', ?)",
          arguments: [candidate])
        return try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'adminToken'") ?? candidate
      }
    } catch let error as DatabaseError {
      // A busy or read-only file: said as the store says it, not as SQL.
      throw DrawingStoreError.unavailable(location: location, reason: error.message ?? "\(error.resultCode)")
    }
  }

  /// Migration "Share links": one row per name with links.
  static func addLinks(_ db: Database) throws {
    try db.create(table: "drawingLink", options: .withoutRowID) { table in
      table.primaryKey("name", .text)
      table.column("edit", .text).notNull()
      table.column("view", .text).notNull()
    }
  }
}
