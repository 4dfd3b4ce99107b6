import Foundation

/// Writes a command's output file without replacing what is at the path.
///
/// An atomic write renames a temporary file over the path, which replaced
/// symlinks, turned FIFOs and device nodes into plain files (`-o /dev/null`
/// as root would break the machine) and reset the owner and mode. So:
/// - a regular file (or none yet): a temporary file next to it, renamed over
///   it, with the old file's mode and owner. When the owner cannot be kept
///   (another user's file), the old file has other hard links, or the folder
///   is not writable, the file is rewritten in place instead, which keeps its
///   owner, mode and links;
/// - a symbolic link: written through to the regular file it points to;
/// - anything else (a directory, FIFO, socket, device): refused with one line.
enum OutputFile {
  static func write(_ data: Data, to path: String) throws(CLIError) {
    try write(to: path) { emit in data.withUnsafeBytes { emit($0) } }
  }

  /// Writes what `produce` hands its `emit`, in order, without holding it
  /// all: a million lines' SVG goes to the file a chunk at a time. After a
  /// write fails, the rest is ignored and the failure thrown.
  static func write(
    to path: String, producing produce: (_ emit: (UnsafeRawBufferPointer) -> Void) -> Void
  ) throws(CLIError) {
    let target = try resolve(path)
    var existing = stat()
    let exists = lstat(target, &existing) == 0
    if exists && existing.st_mode & S_IFMT != S_IFREG { throw CLIError("Cannot write '\(path)': not a regular file") }
    let keepsOwner = !exists || (existing.st_uid == geteuid() && existing.st_gid == getegid()) || geteuid() == 0
    if exists && (!keepsOwner || existing.st_nlink > 1) {
      try writeInPlace(produce, to: target, displayPath: path)
      return
    }
    let directory = (target as NSString).deletingLastPathComponent
    var template = Array(
      ((directory.isEmpty ? "." : directory) + "/." + (target as NSString).lastPathComponent + ".XXXXXX").utf8CString)
    let descriptor = mkstemp(&template)
    guard descriptor >= 0 else {
      let code = errno
      if exists && code == EACCES {
        try writeInPlace(produce, to: target, displayPath: path)
        return
      }
      throw failure(path, code)
    }
    let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    do throws(CLIError) {
      defer { close(descriptor) }
      let mode = exists ? existing.st_mode & 0o7777 : 0o666 & ~currentUmask()
      guard fchmod(descriptor, mode) == 0 else { throw failure(path, errno) }
      if exists && geteuid() == 0 {
        guard fchown(descriptor, existing.st_uid, existing.st_gid) == 0 else { throw failure(path, errno) }
      }
      try writeAll(produce, to: descriptor, displayPath: path)
      guard fsync(descriptor) == 0 else { throw failure(path, errno) }
    } catch {
      unlink(temporary)
      throw error
    }
    guard rename(temporary, target) == 0 else {
      let code = errno
      unlink(temporary)
      throw failure(path, code)
    }
  }

  /// The path to write: `path` itself, or for a symbolic link the file it
  /// points to (which must exist, so a dangling link creates nothing odd).
  private static func resolve(_ path: String) throws(CLIError) -> String {
    var status = stat()
    guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return path }
    guard let resolved = realpath(path, nil) else {
      throw CLIError("Cannot write '\(path)': a symbolic link to a missing file")
    }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Rewrites the existing file itself: its inode keeps owner, mode and links.
  private static func writeInPlace(
    _ produce: (_ emit: (UnsafeRawBufferPointer) -> Void) -> Void, to target: String, displayPath path: String
  ) throws(CLIError) {
    let descriptor = open(target, O_WRONLY | O_TRUNC | O_NOFOLLOW)
    guard descriptor >= 0 else { throw failure(path, errno) }
    defer { close(descriptor) }
    try writeAll(produce, to: descriptor, displayPath: path)
  }

  private static func writeAll(
    _ produce: (_ emit: (UnsafeRawBufferPointer) -> Void) -> Void, to descriptor: Int32, displayPath path: String
  ) throws(CLIError) {
    var failed: Int32 = 0
    produce { buffer in
      guard failed == 0 else { return }
      var offset = 0
      while offset < buffer.count {
        let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failed = errno
          return
        }
        offset += written
      }
    }
    if failed != 0 { throw failure(path, failed) }
  }

  private static func currentUmask() -> mode_t {
    let mask = umask(0o022)
    umask(mask)
    return mask
  }

  private static func failure(_ path: String, _ code: Int32) -> CLIError {
    CLIError("Cannot write '\(path)': \(String(cString: strerror(code)))")
  }
}
