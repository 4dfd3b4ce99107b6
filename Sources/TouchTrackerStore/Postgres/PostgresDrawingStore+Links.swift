import PostgresNIO

/// Share links (`SQLiteDrawingStore+Links.swift`'s twin), in `drawingLink`
/// (migration 2). Writes take the drawing's advisory lock, as every write does.
extension PostgresDrawingStore {
  public func links(of name: DrawingName) async throws -> DrawingLinks? {
    try await read { connection in try await self.storedLinks(name.rawValue, on: connection) }
  }

  public func makeLinks(for name: DrawingName) async throws -> DrawingLinks {
    let fresh = DrawingLinks.random()
    let rawName = name.rawValue
    return try await write(rawName) { connection in
      if let stored = try await self.storedLinks(rawName, on: connection) { return stored }
      try await connection.query(
        "INSERT INTO drawingLink (name, edit, view) VALUES (\(rawName), \(fresh.edit), \(fresh.view))",
        logger: self.logger)
      return fresh
    }
  }

  public func rotateLinks(of name: DrawingName) async throws -> DrawingLinks {
    let fresh = DrawingLinks.random()
    let rawName = name.rawValue
    try await write(rawName) { connection in
      try await connection.query(
        """
        INSERT INTO drawingLink (name, edit, view) VALUES (\(rawName), \(fresh.edit), \(fresh.view))
        ON CONFLICT (name) DO UPDATE SET edit = excluded.edit, view = excluded.view
        """, logger: self.logger)
    }
    return fresh
  }

  @discardableResult
  public func removeLinks(of name: DrawingName) async throws -> Bool {
    let rawName = name.rawValue
    return try await write(rawName) { connection in
      var removed = false
      for try await _ in try await connection.query(
        "DELETE FROM drawingLink WHERE name = \(rawName) RETURNING name", logger: self.logger
      ).decode(String.self) {
        removed = true
      }
      return removed
    }
  }

  public func adminToken(candidate: String, replacing: Bool) async throws -> String {
    // One statement, atomic on its own: of two servers starting at once, one
    // inserts and the other updates the row to what it holds (or to its own
    // token when replacing), and both read back the stored value.
    try await transaction("BEGIN") { connection in
      var token = candidate
      for try await value in try await connection.query(
        """
        INSERT INTO setting (key, value) VALUES ('adminToken', \(candidate))
        ON CONFLICT (key) DO UPDATE SET value = CASE WHEN \(replacing) THEN excluded.value ELSE setting.value END
        RETURNING value
        """, logger: self.logger
      ).decode(String.self) {
        token = value
      }
      return token
    }
  }

  private func storedLinks(_ name: String, on connection: PostgresConnection) async throws -> DrawingLinks? {
    var links: DrawingLinks?
    for try await (edit, view) in try await connection.query(
      "SELECT edit, view FROM drawingLink WHERE name = \(name)", logger: logger
    ).decode((String, String).self) {
      links = DrawingLinks(edit: edit, view: view)
    }
    return links
  }
}
