import EventLoop

/// A complete HTTP request as handed to a route handler.
public struct HTTPRequest: Sendable {
    /// The method, e.g. `GET`.
    public var method: String
    /// The raw request-target as sent, e.g. `/api/sessions/a%20b?x=1`.
    public var target: String
    /// The path, **still percent-encoded** (`/api/sessions/a%20b`).
    ///
    /// It is never decoded as a whole, so `%2F` cannot become a path separator: the router
    /// splits on `/` first and decodes each segment (see ``parameters`` and
    /// ``pathSegments``). For the absolute form (`GET http://host/p`) this is the path part.
    public var path: String
    /// The query after `?`, still percent-encoded; nil without `?`. See ``queryItems``.
    public var query: String?
    /// The request's HTTP version (1.0 or 1.1).
    public var version: HTTPVersion
    /// The header fields as received.
    public var headers: HTTPHeaders
    /// The whole body (chunked framing removed); empty when there is none.
    public var body: [UInt8]
    /// Trailer fields of a chunked body (usually empty).
    public var trailers: HTTPHeaders
    /// The client's address (the TCP peer; a proxy in front shows up here, not the user).
    public var remoteAddress: SocketAddress?
    /// Path parameters bound by the route pattern (`/api/sessions/:id` → `["id": ...]`),
    /// percent-decoded. A trailing `*` in the pattern binds the rest of the path to `"*"`.
    public var parameters: [String: String]
    /// Whether the connection stays open after the response (see
    /// ``HTTPRequestHead/keepAlive``).
    public var keepAlive: Bool

    /// A request built by hand (tests, or a layer that forwards requests).
    public init(method: String, target: String, version: HTTPVersion = .http1_1, headers: HTTPHeaders = [:],
                body: [UInt8] = [], remoteAddress: SocketAddress? = nil) {
        self.method = method
        self.target = target
        let split = (try? HTTPRequestParser.splitTarget(target, method: method)) ?? (path: target, query: nil)
        self.path = split.path
        self.query = split.query
        self.version = version
        self.headers = headers
        self.body = body
        self.trailers = HTTPHeaders()
        self.remoteAddress = remoteAddress
        self.parameters = [:]
        self.keepAlive = version == .http1_1
    }

    /// A request from a parsed head and body.
    init(head: HTTPRequestHead, body: [UInt8], trailers: HTTPHeaders, remoteAddress: SocketAddress?) {
        method = head.method
        target = head.target
        path = head.path
        query = head.query
        version = head.version
        headers = head.headers
        self.body = body
        self.trailers = trailers
        self.remoteAddress = remoteAddress
        parameters = [:]
        keepAlive = head.keepAlive
    }

    /// The path's segments, each percent-decoded (nil if a segment is not valid UTF-8
    /// once decoded). `/a/b%2Fc/` → `["a", "b/c", ""]`.
    public var pathSegments: [String]? {
        var segments: [String] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            guard let decoded = PercentEncoding.decode(segment) else { return nil }
            segments.append(decoded)
        }
        return segments
    }

    /// The query's `name=value` pairs in order, percent-decoded, `+` read as a space.
    public var queryItems: [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                PercentEncoding.decode(text.replacingOccurrences(of: "+", with: " ")) ?? String(text)
            }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// The first query value named `name`, decoded.
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The body as UTF-8 text (invalid sequences replaced).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// Percent-decoding (RFC 3986) for paths and queries.
enum PercentEncoding {
    /// Decodes `%XX` escapes; nil for a malformed escape or bytes that are not UTF-8.
    static func decode<Text: StringProtocol>(_ text: Text) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == 37 {
                guard let high = iterator.next().flatMap(HTTPRequestParser.hexValue),
                      let low = iterator.next().flatMap(HTTPRequestParser.hexValue) else { return nil }
                bytes.append(UInt8(high << 4 | low))
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

extension Substring {
    fileprivate func replacingOccurrences(of target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
