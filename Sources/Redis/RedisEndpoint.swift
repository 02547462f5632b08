/// Where a Redis server listens: `redis://HOST:PORT` or `redis+unix:///path/to/redis.sock`.
public enum RedisEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// TCP to a numeric IPv4/IPv6 host (or `localhost`, taken as 127.0.0.1) and a port.
    case tcp(host: String, port: Int)
    /// A Unix-domain socket path.
    case unix(path: String)

    /// Why a URL was not understood.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The URL as given.
        public let url: String
        /// What is wrong with it.
        public let reason: String
        /// `"bad Redis URL <url>: <reason>"`.
        public var description: String { "bad Redis URL \(url): \(reason)" }
    }

    /// Parses `redis://HOST[:PORT][/]` (port 6379 by default; `[::1]` for IPv6) or
    /// `redis+unix:///absolute/path`. User, password and database are not supported yet.
    public init(url: String) throws(ParseError) {
        if url.hasPrefix("redis+unix://") {
            let path = String(url.dropFirst("redis+unix://".count))
            guard path.hasPrefix("/"), path.count > 1 else {
                throw ParseError(url: url, reason: "expected redis+unix:///absolute/path")
            }
            self = .unix(path: path)
            return
        }
        guard url.hasPrefix("redis://") else {
            throw ParseError(url: url, reason: "expected redis://HOST:PORT or redis+unix:///path")
        }
        var rest = Substring(url.dropFirst("redis://".count))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("@"), !rest.contains("/") else {
            throw ParseError(url: url, reason: "user, password and database are not supported")
        }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw ParseError(url: url, reason: "unclosed [") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw ParseError(url: url, reason: "expected :PORT after ]") }
                portText = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty else { throw ParseError(url: url, reason: "no host") }
        var port = 6379
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw ParseError(url: url, reason: "bad port \(portText)")
            }
            port = number
        }
        self = .tcp(host: host == "localhost" ? "127.0.0.1" : String(host), port: port)
    }

    /// The URL form.
    public var description: String {
        switch self {
        case .tcp(let host, let port): return host.contains(":") ? "redis://[\(host)]:\(port)" : "redis://\(host):\(port)"
        case .unix(let path): return "redis+unix://\(path)"
        }
    }
}
