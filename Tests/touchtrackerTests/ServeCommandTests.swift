import Foundation
import Testing
import TouchTrackerTestSupport

/// `touchtracker serve` as deployed: from a copy of the binary in an empty
/// directory, loopback only unless told otherwise, and a bounded shutdown.
@Suite struct ServeCommandTests {
  static func withEmptyDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("touchtracker-serve-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
  }

  @Test func versionPrintsTheVersion() async throws {
    let result = try await TouchTrackerProcess.run(["--version"])
    #expect(result.status == 0)
    #expect(result.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil)
  }

  @Test(arguments: ["0.0.0.0", "::", "192.168.1.10"])
  func listeningBeyondLoopbackNeedsAccessControl(host: String) async throws {
    let result = try await TouchTrackerProcess.run([
      "serve", "--host", host, "--port", "0", "--database", "/nonexistent/x",
    ])
    #expect(result.status == 1)
    #expect(
      result.stderrLines == [
        "Error: Listening on '\(host)' needs --access-control: without it anyone who reaches the port could read, change and delete every drawing"
      ])
  }

  /// 192.0.2.1 (TEST-NET-1) is no address of this machine: with access
  /// control the server goes on to bind, which fails; it never listens
  /// beyond loopback without access control.
  @Test func accessControlLetsTheServerTryAnAddressBeyondLoopback() async throws {
    try await Self.withEmptyDirectory { directory in
      let database = directory.appendingPathComponent("d.sqlite").path
      let result = try await TouchTrackerProcess.run([
        "serve", "--host", "192.0.2.1", "--access-control", "--port", "0", "--database", database,
      ])
      #expect(result.status != 0)
      #expect(!result.stderr.contains("needs --access-control"))
    }
  }

  /// The admin link is printed once, on standard output; nothing the server
  /// logs on standard error holds the token or a link's key, whatever the
  /// requests carried (right keys, wrong keys, a key in a socket's hello).
  /// Also with a line per request (`--log-level info`), in either format.
  @Test(arguments: [[], ["--log-level", "info"], ["--log-format", "json", "--log-level", "info"]])
  func accessControlPrintsTheAdminLinkAndKeepsKeysOutOfTheLog(logging: [String]) async throws {
    try await Self.withEmptyDirectory { directory in
      let server = try await ServingProcess.start(
        binary: try TouchTrackerProcess.binary(), arguments: ["--access-control"] + logging, in: directory)
      // Blocking reads of its pipe and sockets, on a thread of their own: on
      // one of the pool's two threads they stalled the in-process servers of
      // the tests beside this one.
      struct Seen: Sendable {
        var said = "", link = "", listWithout = "", listWith = "", put = "", wrongGet = "", viewPut = ""
        var keyInQuery = "", keyInPage = "", editDelete = "", token = "", edit = "", view = "", wrong = ""
      }
      let port = server.port
      let seen = try await onAThreadOfItsOwn { () throws -> Seen in
        var seen = Seen()
        seen.said = try server.readLine(timeout: 10)
        seen.link = try server.readLine(timeout: 10)
        seen.token = String(seen.link.dropFirst("http://127.0.0.1:\(port)/?token=".count))
        func request(_ head: String, body: String = "") throws -> String {
          let connection = try RawConnection(port: port)
          connection.send(
            head + "Host: localhost\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
          return try connection.readUntilClosed()
        }
        let token = seen.token
        let document = #"{"format":"touchtracker","version":1,"lines":[],"circles":[]}"#
        seen.listWithout = try request("GET /api/drawings HTTP/1.1\r\n")
        seen.listWith = try request("GET /api/drawings HTTP/1.1\r\nAuthorization: Bearer \(token)\r\n")
        seen.put = try request("PUT /api/drawings/d HTTP/1.1\r\nAuthorization: Bearer \(token)\r\n", body: document)
        let links = try request("GET /api/drawings/d/links HTTP/1.1\r\nAuthorization: Bearer \(token)\r\n")
        seen.edit = String(links.firstMatch(of: /"edit":"([A-Za-z0-9_-]{32})"/)?.1 ?? "")
        seen.view = String(links.firstMatch(of: /"view":"([A-Za-z0-9_-]{32})"/)?.1 ?? "")
        seen.wrong = String(token.reversed())
        seen.wrongGet = try request("GET /api/drawings/d HTTP/1.1\r\nAuthorization: Bearer \(seen.wrong)\r\n")
        seen.viewPut = try request(
          "PUT /api/drawings/d HTTP/1.1\r\nAuthorization: Bearer \(seen.view)\r\n", body: document)
        seen.keyInQuery = try request("GET /api/drawings/d?key=\(seen.edit) HTTP/1.1\r\n")
        seen.keyInPage = try request("GET /?drawing=d&key=\(seen.edit) HTTP/1.1\r\n")
        seen.editDelete = try request("DELETE /api/drawings/d HTTP/1.1\r\nAuthorization: Bearer \(seen.edit)\r\n")
        return seen
      }
      #expect(seen.said.hasPrefix("Access control is on."))
      #expect(seen.link.hasPrefix("http://127.0.0.1:\(server.port)/?token="))
      #expect(seen.token.count == 32)
      #expect(seen.edit.count == 32 && seen.view.count == 32, "the links: edit \(seen.edit), view \(seen.view)")
      #expect(seen.listWithout.hasPrefix("HTTP/1.1 403"))
      #expect(seen.listWith.hasPrefix("HTTP/1.1 200"))
      #expect(seen.put.hasPrefix("HTTP/1.1 200"))
      #expect(seen.wrongGet.hasPrefix("HTTP/1.1 404"))
      #expect(seen.viewPut.hasPrefix("HTTP/1.1 403"))
      #expect(seen.keyInQuery.hasPrefix("HTTP/1.1 404"))
      #expect(seen.keyInPage.hasPrefix("HTTP/1.1 200"))
      #expect(seen.editDelete.hasPrefix("HTTP/1.1 403"))
      #expect(try await server.stop(limit: 10) != nil)
      let log = server.stderr
      for secret in [seen.token, seen.edit, seen.view, seen.wrong] { #expect(!log.contains(secret)) }
    }
  }

  /// `--log-format json`: one JSON object a line; every request has its
  /// id in `X-Request-Id` and on its line (a client's own id is kept, a
  /// malformed one replaced), with the path but never the query.
  @Test func aWebRootWithoutTheWasmIsAWarningInTheJSONLog() async throws {
    try await Self.withEmptyDirectory { directory in
      let web = directory.appendingPathComponent("web")
      try FileManager.default.createDirectory(at: web, withIntermediateDirectories: true)
      try Data("<!doctype html>".utf8).write(to: web.appendingPathComponent("index.html"))
      let server = try await ServingProcess.start(
        binary: try TouchTrackerProcess.binary(), arguments: ["--log-format", "json", "--web-root", web.path],
        in: directory)
      #expect(try await server.stop(limit: 10) != nil)
      let lines = server.stderr.split(separator: "\n").map(String.init)
      let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
      #expect(objects.count == lines.count, "every line is a JSON object: \(lines)")
      let warnings = objects.filter { $0["level"] as? String == "warning" }.compactMap { $0["message"] as? String }
      #expect(warnings.count == 1 && warnings[0].contains("has no touchtracker.wasm"), "\(lines)")
    }
  }

  @Test func theJSONLogHasALinePerRequestUnderItsID() async throws {
    try await Self.withEmptyDirectory { directory in
      let server = try await ServingProcess.start(
        binary: try TouchTrackerProcess.binary(), arguments: ["--log-format", "json", "--log-level", "info"],
        in: directory)
      let port = server.port
      let answers = try await onAThreadOfItsOwn { () throws -> [String] in
        try [
          "GET /api/drawings?secret=s3cr3t HTTP/1.1\r\n",
          "GET /api/drawings/d HTTP/1.1\r\nX-Request-Id: proxy.id_7\r\n",
          "GET /nothing HTTP/1.1\r\nX-Request-Id: not an id\r\n",
        ].map { head in
          let connection = try RawConnection(port: port)
          connection.send(head + "Host: localhost\r\nConnection: close\r\n\r\n")
          return try connection.readUntilClosed()
        }
      }
      #expect(try await server.stop(limit: 10) != nil)
      let ids = answers.map { $0.firstMatch(of: /\r\nX-Request-Id: ([^\r]+)\r\n/)?.1 }.map { $0.map(String.init) }
      #expect(ids[1] == "proxy.id_7")
      #expect(ids[0] != nil && ids[2] != nil && ids[0] != ids[2] && ids[2] != "not an id", "\(ids)")
      let lines = server.stderr.split(separator: "\n").map(String.init)
      let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
      #expect(objects.count == lines.count && !lines.isEmpty, "every line is a JSON object: \(lines)")
      #expect(objects.allSatisfy { $0["time"] is String && $0["level"] is String && $0["message"] is String })
      let requests = objects.filter { $0["message"] as? String == "request" }
      let seen = requests.map { [$0["request_id"] as? String, $0["path"] as? String, $0["status"] as? String] }
      #expect(seen.count == 3)
      #expect(seen.contains([ids[0], "/api/drawings", "200"]), "\(seen)")
      #expect(seen.contains([ids[1], "/api/drawings/d", "404"]), "\(seen)")
      #expect(seen.contains([ids[2], "/nothing", "404"]), "\(seen)")
      #expect(!server.stderr.contains("s3cr3t"))
    }
  }

  /// An admin's saved link keeps working after a restart; `--new-admin-token`
  /// replaces it, and the old token opens nothing from then on.
  @Test func theAdminLinkIsTheSameAfterARestartUntilANewTokenIsAskedFor() async throws {
    try await Self.withEmptyDirectory { directory in
      func adminLink(_ arguments: [String]) async throws -> (link: String, port: Int, server: ServingProcess) {
        let server = try await ServingProcess.start(
          binary: try TouchTrackerProcess.binary(), arguments: ["--access-control"] + arguments, in: directory)
        let link = try await onAThreadOfItsOwn { () throws -> String in
          _ = try server.readLine(timeout: 10)
          return try server.readLine(timeout: 10)
        }
        return (link, server.port, server)
      }
      func token(_ link: String) -> String { String(link.split(separator: "=").last ?? "") }

      let first = try await adminLink([])
      #expect(try await first.server.stop(limit: 10) != nil)
      let second = try await adminLink([])
      #expect(token(second.link) == token(first.link) && token(first.link).count == 32, "\(first.link) \(second.link)")
      #expect(try await second.server.stop(limit: 10) != nil)

      let third = try await adminLink(["--new-admin-token"])
      let (old, new) = (token(first.link), token(third.link))
      #expect(new != old && new.count == 32)
      let port = third.port
      let answers = try await onAThreadOfItsOwn { () throws -> [String] in
        try [old, new].map { key in
          let connection = try RawConnection(port: port)
          connection.send(
            "GET /api/drawings HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(key)\r\nConnection: close\r\n\r\n"
          )
          return try connection.readUntilClosed()
        }
      }
      #expect(answers[0].hasPrefix("HTTP/1.1 403"), "the old token: \(answers[0].prefix(40))")
      #expect(answers[1].hasPrefix("HTTP/1.1 200"), "the new one: \(answers[1].prefix(40))")
      #expect(try await third.server.stop(limit: 10) != nil)
    }
  }

  /// Starts a binary this process just wrote. Another test's server,
  /// forked while the copy was open for writing, holds that descriptor
  /// until it execs, and until then running the copy fails with ETXTBSY
  /// ("Text file busy"): tried again for up to 5 s, as Go's os/exec does.
  static func startCopy(_ binary: URL, in directory: URL) async throws -> ServingProcess {
    let deadline = Date().addingTimeInterval(5)
    while true {
      do {
        return try await ServingProcess.start(binary: binary, arguments: [], in: directory)
      } catch let error as NSError
        where (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(ETXTBSY) && Date() < deadline
      {
        try await Task.sleep(for: .milliseconds(20))
      }
    }
  }

  @Test func aCopyOfTheBinaryServesThePageFromAnEmptyDirectory() async throws {
    try await Self.withEmptyDirectory { directory in
      let binary = directory.appendingPathComponent("touchtracker")
      let original = try TouchTrackerProcess.binary()
      // A 100+ MB copy and blocking sockets: off the pool (see above).
      try await onAThreadOfItsOwn { try FileManager.default.copyItem(at: original, to: binary) }
      let server = try await Self.startCopy(binary, in: directory)
      let port = server.port
      let (response, health) = try await onAThreadOfItsOwn { () throws -> (String, String) in
        let page = try RawConnection(port: port)
        page.send("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        let response = try page.readUntilClosed()
        let health = try RawConnection(port: port)
        health.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        return (response, try health.readUntilClosed())
      }
      #expect(response.hasPrefix("HTTP/1.1 200 OK"))
      #expect(response.contains("<title>TouchTracker</title>"))
      #expect(health.contains(#""status":"ok""#))
      #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("touchtracker.sqlite").path))
      #expect(try await server.stop(limit: 10) != nil)
    }
  }

  @Test func sigtermEndsTheServerWhileAClientHoldsAHalfSentBody() async throws {
    try await Self.withEmptyDirectory { directory in
      let server = try await ServingProcess.start(
        binary: try TouchTrackerProcess.binary(), arguments: [], in: directory)
      let client = try RawConnection(port: server.port)
      client.send("PUT /api/drawings/d HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n{\"format\":")
      let idle = try RawConnection(port: server.port)
      idle.send("GET / HTTP/1.1\r\nHost: loc")
      let seconds = try #require(try await server.stop(limit: 10), "still running 10 s after SIGTERM")
      #expect(seconds < 10)
      #expect(server.process.terminationReason == .exit)
      // 0: the graceful shutdown ended it; the backstop that ends a stuck one exits 1.
      #expect(server.process.terminationStatus == 0, "the half-sent head held the shutdown until the backstop")
    }
  }
}
