import Foundation
import TouchTrackerCore

/// What applying changes means, written once as data
/// (`Tests/Support/ChangeFixtures/*.json`: a base document, change records
/// in the server's order, the document they give) and read by every place
/// that applies changes: the core (`Drawing.apply`, the tracked apply, a
/// view receiving others' changes), the store's log and its compaction,
/// and the live server. So they cannot drift apart.
public struct ChangeFixture: Sendable, CustomStringConvertible {
  public let name: String
  public let base: Drawing
  public let changes: [Change]
  public let expected: Drawing
  /// The records as the file has them, `{"changes":[...]}`, for whoever sends them.
  public let changesJSON: String

  public var description: String { name }

  /// Every fixture, by name.
  public static let all: [ChangeFixture] = {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ChangeFixtures")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted().map { file in
      do {
        return try fixture(named: String(file.dropLast(5)), data: Data(contentsOf: folder.appendingPathComponent(file)))
      } catch {
        fatalError("Change fixture \(file): \(error)")
      }
    }
  }()

  static func fixture(named name: String, data: Data) throws -> ChangeFixture {
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
      let base = object["base"], let changes = object["changes"], let expected = object["expected"]
    else { throw FormatError("expected base, changes and expected") }
    func text(_ value: Any) throws -> String {
      String(decoding: try JSONSerialization.data(withJSONObject: value), as: UTF8.self)
    }
    let list = "{\"changes\":\(try text(changes))}"
    return ChangeFixture(
      name: name, base: try DocumentCoder.decode(try text(base)),
      changes: try ChangeCoder.decodeList(bytes: Array(list.utf8)),
      expected: try DocumentCoder.decode(try text(expected)),
      changesJSON: list)
  }
}
