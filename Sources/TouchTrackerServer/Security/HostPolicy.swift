/// Which `Host` (and `Origin`) a request may name: the bound address, the
/// loopback names, and the configured public name, each with or without the
/// port.
///
/// Why: a page on `rebind.attacker.example` can point its own name at
/// 127.0.0.1 (DNS rebinding); the browser then sends that name as `Host`,
/// and same-origin rules no longer protect the loopback server. Refusing
/// unknown names closes that door even before there is any access control.
///
/// For `Host` the port is not compared: what a rebinding page controls is
/// the name, and a server started with `--port 0`, or behind a proxy, is
/// reached on ports it cannot know. An `Origin` is compared as browsers
/// compare origins, port included: the server's own origins are the one
/// its page was loaded from (the request's own `Host`) and the configured
/// public name (`--public-host`, with its port if it names one). A page on
/// `http://localhost:OTHER` is another origin.
struct HostPolicy: Sendable {
  private let names: Set<String>
  /// `--public-host` as given, lowercased (with its port, if any).
  private let publicHost: String?

  /// - Parameters:
  ///   - host: The address the server binds (`127.0.0.1`, `::1`, `0.0.0.0`).
  ///   - publicHost: The configured public name, if any, with or without a port.
  init(host: String, publicHost: String?) {
    var names: Set<String> = ["127.0.0.1", "localhost", "[::1]"]
    names.insert(host.contains(":") ? "[\(host.lowercased())]" : host.lowercased())
    if let publicHost { names.insert(Self.withoutPort(publicHost.lowercased())) }
    self.publicHost = publicHost?.lowercased()
    names.remove("0.0.0.0")
    names.remove("[::]")
    self.names = names
  }

  /// Whether `value` (a `Host` header: `localhost:8080`, `[::1]:8080`) names this server.
  func allows(host value: String) -> Bool {
    let value = value.lowercased()
    let name = Self.withoutPort(value)
    guard names.contains(name) else { return false }
    let port = value.dropFirst(name.count)
    return port.isEmpty || (port.count > 1 && port.dropFirst().allSatisfy(\.isNumber))
  }

  /// Whether `value` (an `Origin` header: `http://localhost:8080`) is this
  /// server, for a request whose own `Host` is `requestHost` (nil: none was
  /// sent, and only the name is compared).
  func allows(origin value: String, requestHost: String?) -> Bool {
    let value = value.lowercased()
    for (scheme, port) in [("http://", ":80"), ("https://", ":443")] where value.hasPrefix(scheme) {
      let authority = Self.dropping(port, from: String(value.dropFirst(scheme.count)))
      guard !authority.contains("/"), allows(host: authority) else { return false }
      if let requestHost, authority == Self.dropping(port, from: requestHost.lowercased()) { return true }
      if let publicHost {
        let named = publicHost == Self.withoutPort(publicHost) ? Self.withoutPort(authority) : authority
        if named == Self.dropping(port, from: publicHost) { return true }
      }
      return requestHost == nil
    }
    return false
  }

  /// `authority` without `port` (the scheme's default) at its end.
  private static func dropping(_ port: String, from authority: String) -> String {
    authority.hasSuffix(port) ? String(authority.dropLast(port.count)) : authority
  }

  /// `value` without a trailing `:port` (`[::1]:80` -> `[::1]`, `a:80` -> `a`).
  static func withoutPort(_ value: String) -> String {
    if value.hasPrefix("[") {
      guard let close = value.firstIndex(of: "]") else { return value }
      return String(value[...close])
    }
    guard let colon = value.lastIndex(of: ":") else { return value }
    return String(value[..<colon])
  }
}
