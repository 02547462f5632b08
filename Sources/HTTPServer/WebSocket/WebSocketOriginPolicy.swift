/// Which browser origins may open a WebSocket (defence against cross-site WebSocket
/// hijacking: a page on another site opening a socket with the user's cookies).
///
/// Requests without an `Origin` header are allowed under every policy: browsers always
/// send one, so its absence means a non-browser client (curl, websocat, a script), which
/// could forge any origin anyway. `Origin: null` (sandboxed frames, `file:` pages) is
/// refused unless the policy is ``any``.
public struct WebSocketOriginPolicy: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case sameHost(extraHosts: [String])
        case allowList([String])
        case any
    }

    let kind: Kind

    /// The default: the origin's `host[:port]` must equal the request's `Host` header
    /// (the server's own name, as the browser addressed it), or the origin's host must be
    /// one of `hosts` (any port; compared case-insensitively).
    public static func sameHost(alsoAllowing hosts: [String] = []) -> WebSocketOriginPolicy {
        WebSocketOriginPolicy(kind: .sameHost(extraHosts: hosts.map { $0.lowercased() }))
    }

    /// Same host only (see ``sameHost(alsoAllowing:)``).
    public static let sameHost = sameHost()

    /// Only these origins: each entry is either a full origin (`https://app.example.com`,
    /// `http://localhost:8080`; scheme, host and port must match) or a bare host name
    /// (`app.example.com`; any scheme and port).
    public static func allowList(_ origins: [String]) -> WebSocketOriginPolicy {
        WebSocketOriginPolicy(kind: .allowList(origins.map { $0.lowercased() }))
    }

    /// Every origin (for public APIs with no ambient credentials, and tests).
    public static let any = WebSocketOriginPolicy(kind: .any)

    /// `true` when a request with this `Origin` (nil when absent) and `Host` header may
    /// connect.
    public func allows(origin: String?, host: String?) -> Bool {
        guard let origin else { return true }
        if case .any = kind { return true }
        let normalized = origin.lowercased()
        guard let authority = Self.authority(ofOrigin: normalized) else { return false }
        let originHost = Self.hostName(ofAuthority: authority)
        switch kind {
        case .any:
            return true
        case .sameHost(let extraHosts):
            if let host, host.lowercased() == authority { return true }
            return extraHosts.contains(originHost)
        case .allowList(let entries):
            return entries.contains { $0.contains("://") ? $0 == normalized : $0 == originHost }
        }
    }

    /// `host[:port]` of `scheme://host[:port]`, or nil when `origin` is not of that form.
    static func authority(ofOrigin origin: String) -> Substring? {
        guard let separator = origin.range(of: "://") else { return nil }
        let rest = origin[separator.upperBound...]
        let authority = rest.prefix { $0 != "/" }
        return authority.isEmpty ? nil : authority
    }

    /// The host part of `host[:port]` or `[v6]:port`.
    static func hostName(ofAuthority authority: Substring) -> String {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[...close])
        }
        return String(authority.prefix { $0 != ":" })
    }
}
