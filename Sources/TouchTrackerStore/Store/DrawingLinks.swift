/// The two share links of a drawing, as their keys (`AccessKey`): whoever
/// holds `edit` may read and change the drawing, whoever holds `view` may
/// read it and watch it change. The page writes them into links such as
/// `/?drawing=NAME&key=KEY`.
public struct DrawingLinks: Hashable, Sendable {
  public var edit: String
  public var view: String

  public init(edit: String, view: String) {
    self.edit = edit
    self.view = view
  }

  /// Two new keys.
  public static func random() -> DrawingLinks {
    DrawingLinks(edit: AccessKey.random(), view: AccessKey.random())
  }

  /// What `key` opens: `.edit`, `.view`, or nil for neither. Both keys are
  /// compared, each in constant time (`AccessKey.matches`), whatever the
  /// first answered.
  public func access(for key: String) -> LinkAccess? {
    let isEdit = AccessKey.matches(key, edit)
    let isView = AccessKey.matches(key, view)
    return isEdit ? .edit : isView ? .view : nil
  }
}

/// What a share link lets its holder do.
public enum LinkAccess: String, Hashable, Sendable {
  /// Read, change, and see the links.
  case edit
  /// Read and watch; every write is refused.
  case view
}
