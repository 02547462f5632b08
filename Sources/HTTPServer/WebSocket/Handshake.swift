/// The server side of the WebSocket opening handshake (RFC 6455 §4.2): checks a client's
/// upgrade request and computes the `Sec-WebSocket-Accept` value.
///
/// It works on plain values (method, version, a header look-up) so it does not depend on
/// the HTTP layer's types; `Router.webSocket` feeds it an `HTTPRequest`.
public enum WebSocketHandshake {
    /// The GUID the RFC appends to the client's key before hashing.
    public static let magicGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The only protocol version there is.
    public static let version = "13"

    /// Why an upgrade request was refused, with the HTTP answer to give.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The method is not GET (405).
        case methodNotGET(String)
        /// The HTTP version is older than 1.1 (400).
        case httpVersionTooOld(String)
        /// No `Upgrade: websocket` header: a plain request to a WebSocket route (426).
        case missingUpgradeHeader
        /// `Connection` does not list `upgrade` (400).
        case missingConnectionUpgrade
        /// `Sec-WebSocket-Version` missing or not 13 (426, with `Sec-WebSocket-Version: 13`).
        case unsupportedVersion(String?)
        /// `Sec-WebSocket-Key` missing, repeated, or not the Base64 of 16 bytes (400).
        case invalidKey(String?)
        /// The `Origin` is not allowed by the route's policy (403).
        case forbiddenOrigin(String)

        /// The HTTP status code to answer with.
        public var status: Int {
            switch self {
            case .methodNotGET: 405
            case .missingUpgradeHeader, .unsupportedVersion: 426
            case .forbiddenOrigin: 403
            case .httpVersionTooOld, .missingConnectionUpgrade, .invalidKey: 400
            }
        }

        /// Headers the answer must carry besides the usual ones.
        public var headers: [(name: String, value: String)] {
            switch self {
            case .methodNotGET: [("Allow", "GET")]
            case .missingUpgradeHeader: [("Upgrade", "websocket"), ("Connection", "Upgrade"),
                                         ("Sec-WebSocket-Version", WebSocketHandshake.version)]
            case .unsupportedVersion: [("Sec-WebSocket-Version", WebSocketHandshake.version)]
            default: []
            }
        }

        /// A one-line explanation, for the response body and logs.
        public var description: String {
            switch self {
            case .methodNotGET(let method): "WebSocket upgrade needs GET, not \(method)"
            case .httpVersionTooOld(let version): "WebSocket upgrade needs HTTP/1.1, not \(version)"
            case .missingUpgradeHeader: "this resource is a WebSocket endpoint: send Upgrade: websocket"
            case .missingConnectionUpgrade: "WebSocket upgrade needs Connection: Upgrade"
            case .unsupportedVersion(let version):
                "unsupported Sec-WebSocket-Version \(version.map { "'\($0)'" } ?? "(missing)"), only 13"
            case .invalidKey(let key):
                key.map { "invalid Sec-WebSocket-Key '\($0)'" } ?? "missing or repeated Sec-WebSocket-Key"
            case .forbiddenOrigin(let origin): "origin '\(origin)' may not open a WebSocket here"
            }
        }
    }

    /// Checks an upgrade request and returns the `Sec-WebSocket-Accept` value to answer
    /// with (status 101, `Upgrade: websocket`, `Connection: Upgrade`).
    ///
    /// - Parameters:
    ///   - method: the request method.
    ///   - version: the HTTP version, e.g. `"HTTP/1.1"`.
    ///   - headers: every value of a header (case-insensitive name), one entry per field line.
    ///   - originPolicy: who may connect (see ``WebSocketOriginPolicy``).
    /// - Throws: ``Failure`` naming the first problem found.
    public static func accept(method: String, version: String, headers: (String) -> [String],
                              originPolicy: WebSocketOriginPolicy = .sameHost) throws(Failure) -> String {
        guard method == "GET" else { throw .methodNotGET(method) }
        guard isHTTP11OrLater(version) else { throw .httpVersionTooOld(version) }
        guard hasToken("websocket", in: headers("Upgrade")) else { throw .missingUpgradeHeader }
        guard hasToken("upgrade", in: headers("Connection")) else { throw .missingConnectionUpgrade }
        let versions = headers("Sec-WebSocket-Version")
        guard versions.count == 1, versions[0].trimmingSpaces == Self.version else {
            throw .unsupportedVersion(versions.isEmpty ? nil : versions.joined(separator: ", "))
        }
        let keys = headers("Sec-WebSocket-Key")
        guard keys.count == 1 else { throw .invalidKey(nil) }
        let key = keys[0].trimmingSpaces
        guard isValidKey(key) else { throw .invalidKey(key) }
        let origins = headers("Origin")
        let host = headers("Host").first?.trimmingSpaces
        if origins.count > 1 { throw .forbiddenOrigin(origins.joined(separator: ", ")) }
        if let origin = origins.first?.trimmingSpaces, !originPolicy.allows(origin: origin, host: host) {
            throw .forbiddenOrigin(origin)
        }
        return acceptValue(forKey: key)
    }

    /// `Sec-WebSocket-Accept` for a key: Base64(SHA-1(key + GUID)).
    public static func acceptValue(forKey key: String) -> String {
        Base64.encode(SHA1.hash(Array((key + magicGUID).utf8)))
    }

    /// `true` when `key` is the Base64 encoding of 16 bytes (RFC 6455 §4.1).
    public static func isValidKey(_ key: String) -> Bool {
        key.utf8.count == 24 && Base64.decode(key)?.count == 16
    }

    /// The headers of the 101 answer, besides the status line.
    public static func responseHeaders(accept: String) -> [(name: String, value: String)] {
        [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", accept)]
    }

    /// `true` when a comma-separated header (over any number of field lines) lists `token`
    /// (lowercase), compared case-insensitively.
    static func hasToken(_ token: String, in values: [String]) -> Bool {
        values.contains { value in
            value.split(separator: ",").contains { $0.trimmingSpaces.lowercased() == token }
        }
    }

    static func isHTTP11OrLater(_ version: String) -> Bool {
        guard version.hasPrefix("HTTP/") else { return false }
        let number = version.dropFirst(5).split(separator: ".")
        guard number.count == 2, let major = Int(number[0]), let minor = Int(number[1]) else { return false }
        return major > 1 || (major == 1 && minor >= 1)
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    fileprivate var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
