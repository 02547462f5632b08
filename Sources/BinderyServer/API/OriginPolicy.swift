import BinderyCluster
import BinderyProtocol
import BinderyRuntime

/// Which browser origins may open WebSockets and call the API's state-changing routes.
///
/// - No `Origin` header (curl, websocat, scripts): allowed.
/// - An `Origin` whose `host[:port]` equals the request's `Host`: allowed.
/// - An `Origin` in the allow-list: allowed. Entries are full origins
///   (`http://localhost:8080`) or bare host names (`example.com`, any scheme and port).
///   The default list is the bound host and its `localhost`, `127.0.0.1` and `[::1]`
///   forms, on the same port, over http.
/// - Anything else (including `Origin: null`): refused with 403.
public struct OriginPolicy: Sendable, Equatable {
    /// The allowed origins and host names, lowercased.
    public private(set) var allowed: [String]

    /// A policy allowing `allowed` (plus same-host requests).
    public init(allowed: [String]) {
        self.allowed = allowed.map { $0.lowercased() }
    }

    /// The default for a server bound to `host:port`, plus `extra` entries.
    public static func defaults(host: String, port: Int, extra: [String] = []) -> OriginPolicy {
        var hosts = ["localhost", "127.0.0.1", "[::1]"]
        let bound = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        if !hosts.contains(bound), bound != "0.0.0.0", bound != "[::]" { hosts.insert(bound, at: 0) }
        return OriginPolicy(allowed: hosts.map { "http://\($0):\(port)" } + extra)
    }

    /// Whether a request with this `Origin` and `Host` is allowed.
    public func allows(origin: String?, host: String?) -> Bool {
        guard let origin else { return true }
        let normalized = origin.lowercased()
        guard let separator = normalized.range(of: "://") else { return false }
        let authority = normalized[separator.upperBound...].prefix { $0 != "/" }
        guard !authority.isEmpty else { return false }
        if let host, host.lowercased() == authority { return true }
        let hostName: Substring
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            hostName = authority[...close]
        } else {
            hostName = authority.prefix { $0 != ":" }
        }
        return allowed.contains { entry in
            entry.contains("://") ? entry == normalized : entry == hostName
        }
    }
}
