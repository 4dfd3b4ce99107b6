import ArgumentParser
import Foundation
import TouchTrackerCore

/// A failure the user can fix, printed as one line: "Error: <message>".
///
/// The message quotes file names and tokens from files; control characters
/// in it are escaped here, so no newline or terminal escape ever reaches the
/// terminal whichever message forgot to quote its token.
struct CLIError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) {
    self.description = QuotedToken.escaped(description)
  }
}

enum CLIInput {
  /// The largest input file read, so a wrong path (a disk image, /dev/zero) fails fast.
  static let maximumFileSize = 256 * 1024 * 1024

  /// Opens a drawing document. A regular file in the shape the app writes
  /// is read a chunk at a time straight into the drawing, at any size
  /// (memory holds the drawing, not the text: `DocumentCoder.decode(chunksFrom:)`).
  /// Anything else (another shape, an invalid document, a pipe or a device)
  /// is read whole, at most `maximumFileSize`, and decoded through the JSON
  /// tree, which gives the drawing or names the problem.
  static func readDocument(at path: String) throws -> Drawing {
    do {
      if let drawing = try streamDocument(at: path) { return drawing }
      return try DocumentCoder.decode(readText(at: path, what: "document"))
    } catch let error as FormatError {
      throw CLIError("\(path): \(error.message)")
    }
  }

  /// The drawing in the regular file at `path` when it is in the app's shape; nil otherwise.
  private static func streamDocument(at path: String) throws(FormatError) -> Drawing? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    // Only a regular file can be read again if it is not in the app's shape.
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    return try DocumentCoder.decode(chunksFrom: { buffer in
      while true {
        let count = read(descriptor, buffer.baseAddress, buffer.count)
        if count < 0 && errno == EINTR { continue }
        // A failed read ends the document early: it is then read again whole, which reports the failure.
        return max(0, count)
      }
    })
  }

  static func readText(at path: String, what: String) throws -> String {
    let data: Data
    do {
      let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
      defer { try? handle.close() }
      data = try handle.read(upToCount: maximumFileSize + 1) ?? Data()
    } catch {
      throw CLIError("Cannot read \(what) '\(path)': \(reason(error))")
    }
    guard data.count <= maximumFileSize else {
      throw CLIError("The \(what) '\(path)' is larger than \(maximumFileSize / 1024 / 1024) MiB")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw CLIError("The \(what) '\(path)' is not UTF-8 text")
    }
    return text
  }

  /// The operating system's reason, without Foundation's wrapping.
  static func reason(_ error: Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
      return String(cString: strerror(Int32(underlying.code)))
    }
    if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
    if nsError.domain == NSCocoaErrorDomain {
      switch nsError.code {
      case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return "No such file or directory"
      case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "Permission denied"
      default: break
      }
    }
    return nsError.localizedDescription
  }

  static func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}
