import Foundation
import TouchTrackerCore

/// Documents as `Data`, through the core's `DocumentCoder`: the server
/// accepts exactly what the page (the same code, as WebAssembly) can load,
/// and refuses everything else with the same messages.
public enum DocumentCodec {
  /// Reads a document; the error names the problem and where
  /// ("Invalid color '#12' at circles[0].color; expected '#rrggbb'").
  ///
  /// A document in the app's shape is read from `data` a chunk at a time
  /// straight into lines (it is ASCII, so UTF-8); only another shape is
  /// checked as text, copied and decoded through the JSON tree. A 100 MB
  /// document then costs its lines, not three copies of it and a tree.
  public static func decode(_ data: Data) throws(DocumentError) -> Drawing {
    var offset = 0
    let direct: Drawing?
    do {
      direct = try DocumentCoder.decode(chunksFrom: { buffer in
        let count = min(buffer.count, data.count - offset)
        data.copyBytes(to: buffer, from: data.startIndex + offset..<data.startIndex + offset + count)
        offset += count
        return count
      })
    } catch {
      throw DocumentError(description: error.message)
    }
    if let direct { return direct }
    guard String(data: data, encoding: .utf8) != nil else {
      throw DocumentError(description: "Invalid JSON: the text is not UTF-8")
    }
    do {
      return try DocumentCoder.decodeThroughTree(bytes: [UInt8](data))
    } catch {
      throw DocumentError(description: error.message)
    }
  }

  /// `encode`'s document as text, for the stores: made from the encoder's
  /// bytes in one copy (through `Data` it took two of a 200 MB document).
  public static func encodeText(_ drawing: Drawing) throws(DocumentError) -> String {
    do {
      try DocumentCoder.validate(drawing)
    } catch {
      throw DocumentError(description: error.message)
    }
    return DocumentCoder.encodeString(drawing)
  }

  /// Writes a document; refuses a drawing whose numbers would not survive
  /// being written (NaN, infinities, beyond `DocumentCoder.maximumMagnitude`).
  public static func encode(_ drawing: Drawing) throws(DocumentError) -> Data {
    do {
      try DocumentCoder.validate(drawing)
    } catch {
      throw DocumentError(description: error.message)
    }
    return Data(DocumentCoder.encode(drawing))
  }
}

/// Why a document could not be read or written, in one sentence.
public struct DocumentError: Error, Hashable, Sendable, CustomStringConvertible {
  public let description: String

  public init(description: String) {
    self.description = description
  }
}
