import Foundation

/// `bench-tool http-writers PORT WRITERS SECONDS [health]`: the clients of
/// `Benchmarks/server/writers.py` in one Swift process. Each writer is a
/// thread with one kept-alive loopback connection (blocking sockets, no
/// HTTP library) that POSTs one small change to its own drawing
/// (`/api/drawings/wN/changes`, with an Idempotency-Key, as the page sends
/// one) and sends the next as soon as the answer is read, for SECONDS; with
/// `health`, `GET /healthz` instead. Python's threads needed more CPU than
/// the server they measured (their `GET /healthz` ceiling was 2,153 req/s).
///
/// Keys carry a run's own prefix: a second run against the same server
/// would otherwise resend the first run's keys, and each would be answered
/// from the key table without appending anything.
///
/// Prints {"saves": N, "seconds": S, "latenciesMicroseconds": [...]} (every
/// answer's round trip, sorted) or fails naming the first answer that was
/// not 200.
enum HTTPWriters {
  static func run(port: Int, writers: Int, seconds: Double, health: Bool) -> [String: Any] {
    let stop = now() + seconds
    let collected = Collected()
    let done = DispatchGroup()
    let started = now()
    let run = String(UInt64.random(in: 0..<(1 << 48)), radix: 36)
    for index in 0..<writers {
      done.enter()
      Thread.detachNewThread {
        collected.add(index, Result { try writer(index: index, run: run, port: port, until: stop, health: health) })
        done.leave()
      }
    }
    done.wait()
    let elapsed = now() - started
    let (latencies, failure) = collected.results
    if let failure { fail(failure) }
    return ["saves": latencies.count, "seconds": elapsed, "latenciesMicroseconds": latencies.sorted()]
  }

  /// What the writer threads found.
  final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var latencies: [Int] = []
    private var failure: String?

    func add(_ index: Int, _ outcome: Result<[Int], any Error>) {
      lock.withLock {
        switch outcome {
        case .success(let times): latencies += times
        case .failure(let error): failure = failure ?? "writer \(index): \(error)"
        }
      }
    }

    var results: ([Int], String?) { lock.withLock { (latencies, failure) } }
  }

  struct Refused: Error, CustomStringConvertible {
    let description: String
  }

  /// One writer's loop: the round trip of each answer, in microseconds.
  private static func writer(index: Int, run: String, port: Int, until stop: Double, health: Bool) throws -> [Int] {
    let socket = try connect(port: port)
    defer { close(socket) }
    var times: [Int] = []
    var serial = 0
    var buffer = [UInt8](repeating: 0, count: 65536)
    while now() < stop {
      serial += 1
      let request: String
      if health {
        request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
      } else {
        let body =
          #"{"changes":[{"op":"add","lines":[{"id":\#(serial),"begin":{"x":10.5,"y":20.25},"#
          + ##""end":{"x":300.75,"y":400.5},"color":"#ff8c00","width":10}],"##
          + #""bounds":{"x":0,"y":0,"width":800,"height":600}}]}"#
        request =
          "POST /api/drawings/w\(index)/changes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
          + "Idempotency-Key: k\(run)-\(index)-\(serial)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
      }
      let began = now()
      try send(request, on: socket)
      let status = try readResponse(on: socket, into: &buffer)
      guard status == 200 else { throw Refused(description: "answer \(status) to request \(serial)") }
      times.append(Int((now() - began) * 1e6))
    }
    return times
  }

  private static func connect(port: Int) throws -> Int32 {
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw Refused(description: "socket() failed") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Foundation.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw Refused(description: "cannot connect to port \(port)") }
    var on: Int32 = 1
    setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    return socket
  }

  private static func send(_ text: String, on socket: Int32) throws {
    var bytes = Array(text.utf8)
    var sent = 0
    while sent < bytes.count {
      let count = bytes.withUnsafeMutableBytes { Foundation.send(socket, $0.baseAddress! + sent, $0.count - sent, 0) }
      guard count > 0 else { throw Refused(description: "the connection closed while sending") }
      sent += count
    }
  }

  /// Reads one response (headers, then Content-Length bytes): its status.
  private static func readResponse(on socket: Int32, into buffer: inout [UInt8]) throws -> Int {
    var have = 0
    var headerEnd: Int?
    var bodyLength = 0
    while true {
      if have == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
      let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress! + have, $0.count - have, 0) }
      guard count > 0 else { throw Refused(description: "the connection closed before an answer") }
      have += count
      if headerEnd == nil, let end = find([13, 10, 13, 10], in: buffer, upTo: have) {
        headerEnd = end + 4
        let head = String(decoding: buffer[0..<end], as: UTF8.self).lowercased()
        for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
          bodyLength = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
      }
      if let headerEnd, have >= headerEnd + bodyLength {
        let statusLine = String(decoding: buffer[9..<12], as: UTF8.self)
        return Int(statusLine) ?? 0
      }
    }
  }

  private static func find(_ needle: [UInt8], in bytes: [UInt8], upTo end: Int) -> Int? {
    guard end >= needle.count else { return nil }
    for start in 0...(end - needle.count) where bytes[start..<start + needle.count].elementsEqual(needle) {
      return start
    }
    return nil
  }
}
