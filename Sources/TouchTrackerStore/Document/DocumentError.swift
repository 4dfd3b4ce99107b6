/// Why a document could not be read (or, for non-finite numbers, written).
///
/// Each message names the problem and where it is, with the offending text in
/// single quotes, e.g. "Invalid color '#12' at circles[0].color". Locations
/// are document paths (`lines[3].begin.x`) once the text is valid JSON, and
/// lines and columns while it is not. The server sends these messages to the
/// client as they are, and tests check them word for word.
public enum DocumentError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The text is not JSON; the detail says what was found where.
  case invalidJSON(String)
  case unsupportedFormat(String)
  /// The version number as the document spells it.
  case unsupportedVersion(String)
  case missingField(String, at: DocumentPath)
  /// `expected` is "a number", "a string", "an object" or "an array".
  case wrongType(expected: String, at: DocumentPath)
  case duplicateKey(String, at: DocumentPath)
  /// NaN or infinity, or a number too large for a `Double` (`1e999`).
  case nonFiniteNumber(at: DocumentPath)
  /// A non-zero number too small for a `Double` (`1e-999`).
  case numberOutOfRange(String, at: DocumentPath)
  case invalidColor(String, at: DocumentPath)
  case nonPositiveWidth(String, at: DocumentPath)
  case negativeRadius(String, at: DocumentPath)

  public var description: String {
    switch self {
    case .invalidJSON(let detail): "Invalid JSON: \(detail)"
    case .unsupportedFormat(let format): "Unsupported format '\(format)'"
    case .unsupportedVersion(let version): "Unsupported version \(version)"
    case .missingField(let key, let path): "Missing field '\(key)'" + path.suffix
    case .wrongType(let expected, let path): "Expected \(expected)" + path.suffix
    case .duplicateKey(let key, let path): "Duplicate key '\(key)'" + path.suffix
    case .nonFiniteNumber(let path): "Non-finite number" + path.suffix
    case .numberOutOfRange(let text, let path): "Number out of range '\(text)'" + path.suffix
    case .invalidColor(let text, let path): "Invalid color '\(text)'" + path.suffix
    case .nonPositiveWidth(let text, let path): "Non-positive width \(text)" + path.suffix
    case .negativeRadius(let text, let path): "Negative radius \(text)" + path.suffix
    }
  }
}
