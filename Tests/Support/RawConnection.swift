import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A plain TCP connection to a live test server, for what an HTTP client
/// library will not send: half a header, a broken chunk size, HTTP/1.0, a
/// body that stops. Every read waits at most `readTimeout`, so a server that
/// never answers fails the test instead of hanging it.
public final class RawConnection {
  private let socket: Int32
  private var isOpen = true

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  public init(port: Int, readTimeout: Double = 10) throws {
    socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw Failure(description: "socket() failed") }
    var timeout = timeval(tv_sec: Int(readTimeout), tv_usec: Int((readTimeout - readTimeout.rounded(.down)) * 1e6))
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      Glibc.close(socket)
      throw Failure(description: "connect() to port \(port) failed")
    }
  }

  deinit { if isOpen { Glibc.close(socket) } }

  /// Closes the connection with a reset (`SO_LINGER` 0), as a client that
  /// vanishes does, rather than the orderly close `deinit` makes.
  public func abort() {
    guard isOpen else { return }
    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
    setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    Glibc.close(socket)
    isOpen = false
  }

  /// Closes the connection in order (a FIN), now rather than at `deinit`.
  public func close() {
    guard isOpen else { return }
    Glibc.close(socket)
    isOpen = false
  }

  /// Sends `text`; false if the server has closed the connection.
  @discardableResult
  public func send(_ text: String) -> Bool {
    send(Array(text.utf8))
  }

  @discardableResult
  public func send(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard sent > 0 else { return false }
      offset += sent
    }
    return true
  }

  /// Everything the server sends until it closes the connection.
  ///
  /// - Throws: If the read timeout passes first: the server kept it open.
  public func readUntilClosed() throws -> String {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count == 0 { return String(decoding: received, as: UTF8.self) }
      if count < 0 {
        if errno == ECONNRESET { return String(decoding: received, as: UTF8.self) }
        throw Failure(
          description:
            "The server kept the connection open; received so far: \(String(decoding: received, as: UTF8.self))"
        )
      }
      received += buffer[..<count]
    }
  }

  /// The first response's head and body, read up to the end of its
  /// `Content-Length`, leaving the connection open.
  public func readResponse() throws -> String {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let text = String(decoding: received, as: UTF8.self)
      if let end = text.range(of: "\r\n\r\n") {
        let head = text[..<end.lowerBound].lowercased()
        let length =
          head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
          .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        if text.utf8.count - text[..<end.upperBound].utf8.count >= length { return text }
      }
      let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { throw Failure(description: "No complete response; received: \(text)") }
      received += buffer[..<count]
    }
  }
}
