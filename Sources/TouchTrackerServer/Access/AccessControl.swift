import Foundation
import TouchTrackerStore

/// Access control switched on: every drawing route needs the admin token or
/// that drawing's edit or view link (`DrawingLinks`), and listing drawings
/// needs the admin token. Off (`ServerConfiguration.accessControl` nil),
/// the server serves everyone who reaches it, which `touchtracker serve`
/// allows on loopback only.
///
/// The admin token is printed with the address, as Jupyter prints its
/// token. `touchtracker serve` keeps it with the drawings
/// (`AccessControl.stored`): made on the first start, the same after a
/// restart (an admin's saved link keeps working) and on every server of one
/// PostgreSQL database (a page that fails over to another server keeps its
/// access); `--new-admin-token` replaces it. Links are stored with the
/// drawings too.
public struct AccessControl: Sendable {
  /// The admin's key: lists, creates and deletes drawings, opens every one.
  public var adminToken: String

  /// - Parameter adminToken: A new random key unless given (tests give one).
  public init(adminToken: String = AccessKey.random()) {
    self.adminToken = adminToken
  }

  /// Access control with the admin token stored in the database at
  /// `databasePath` (a path or a PostgreSQL URL): the one there, or a new one
  /// stored now if there is none or `replacing`.
  ///
  /// - Throws: what opening the database throws.
  public static func stored(in databasePath: String, replacing: Bool = false) async throws -> AccessControl {
    // Opened for this alone, and closed again before the server opens it:
    // no compaction is started here.
    let store = try await openDrawingStorage(databasePath, compaction: .manual)
    do {
      let token = try await store.adminToken(candidate: AccessKey.random(), replacing: replacing)
      await store.close()
      return AccessControl(adminToken: token)
    } catch {
      await store.close()
      throw error
    }
  }
}

/// What a request may do with a drawing.
enum Access: String, Sendable, Equatable {
  /// Access control is off: anything, as before links existed.
  case open
  /// The admin token: anything, on every drawing.
  case admin
  /// The drawing's edit link: read and change it, see its links.
  case edit
  /// The drawing's view link: read it and watch it change.
  case view

  var canWrite: Bool { self != .view }
  /// Deleting a drawing, rotating its links and listing drawings.
  var isAdmin: Bool { self == .open || self == .admin }
}

/// Decides what a key opens, for the HTTP routes (`AccessMiddleware`) and
/// the live socket's `hello` alike.
struct AccessCheck: Sendable {
  let control: AccessControl?
  let store: any DrawingStorage

  var isOn: Bool { control != nil }

  /// What `key` opens on drawing `name` (nil `name`: the list), or nil for
  /// nothing. The admin token is compared first, then the drawing's links,
  /// each in constant time (`AccessKey.matches`); the links are read by the
  /// drawing's name, so a wrong key costs the same whether or not the
  /// drawing exists.
  func access(to name: DrawingName?, key: String?) async throws -> Access? {
    guard let control else { return .open }
    guard let key else { return nil }
    if AccessKey.matches(key, control.adminToken) { return .admin }
    guard let name, let links = try await store.links(of: name) else { return nil }
    switch links.access(for: key) {
    case .edit: return .edit
    case .view: return .view
    case nil: return nil
    }
  }

  /// The key of `Authorization: Bearer KEY`, or nil without one.
  static func bearerKey(_ value: String?) -> String? {
    guard let value else { return nil }
    let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    let key = parts[1].trimmingCharacters(in: .whitespaces)
    return key.isEmpty ? nil : key
  }
}
