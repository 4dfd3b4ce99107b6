/// Why a store could not be opened, or would not save or delete.
public enum DrawingStoreError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A save or delete expected another revision. A drawing that does not
  /// exist (never saved, or deleted) is at revision 0.
  case conflict(name: String, expected: Int, current: Int)
  /// The file is not a database, is damaged, or cannot be created.
  case cannotOpen(path: String, reason: String)
  /// A stored document no longer matches the checksum written with it.
  case damaged(name: String)

  public var description: String {
    switch self {
    case .conflict(let name, let expected, 0):
      "Drawing '\(name)' does not exist, expected revision \(expected)"
    case .conflict(let name, let expected, let current):
      "Drawing '\(name)' is at revision \(current), not \(expected)"
    case .cannotOpen(let path, let reason):
      "Cannot open database '\(path)': \(reason)"
    case .damaged(let name):
      "Drawing '\(name)' is damaged in the database (its checksum does not match); it is not served"
    }
  }
}
