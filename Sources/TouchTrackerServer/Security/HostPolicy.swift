/// Which `Host` (and `Origin`) a request may name: the bound address, the
/// loopback names, and the configured public name, each with or without the
/// port.
///
/// Why: a page on `rebind.attacker.example` can point its own name at
/// 127.0.0.1 (DNS rebinding); the browser then sends that name as `Host`,
/// and same-origin rules no longer protect the loopback server. Refusing
/// unknown names closes that door even before there is any access control.
///
/// The port is not compared: what a rebinding page controls is the name, and
/// a server started with `--port 0`, or behind a proxy, is reached on ports
/// it cannot know.
struct HostPolicy: Sendable {
  private let names: Set<String>

  /// - Parameters:
  ///   - host: The address the server binds (`127.0.0.1`, `::1`, `0.0.0.0`).
  ///   - publicHost: The configured public name, if any, with or without a port.
  init(host: String, publicHost: String?) {
    var names: Set<String> = ["127.0.0.1", "localhost", "[::1]"]
    names.insert(host.contains(":") ? "[\(host.lowercased())]" : host.lowercased())
    if let publicHost { names.insert(Self.withoutPort(publicHost.lowercased())) }
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

  /// Whether `value` (an `Origin` header: `http://localhost:8080`) is this server.
  func allows(origin value: String) -> Bool {
    for scheme in ["http://", "https://"] where value.lowercased().hasPrefix(scheme) {
      let rest = value.dropFirst(scheme.count)
      return !rest.contains("/") && allows(host: String(rest))
    }
    return false
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
