/// An HTTP response: status, headers and a body held in memory.
///
/// The server adds `Date`, `Content-Length` (from ``body``, also for `HEAD`, where the body
/// itself is not sent), `Connection` as needed, and `Content-Type:
/// application/octet-stream` for a body without a type; a `Transfer-Encoding` set here is
/// removed (use ``HTTPResponder/startStream(status:headers:)`` to stream).
public struct HTTPResponse: Sendable {
    /// The status code, e.g. 200.
    public var status: Int
    /// The reason phrase sent after the code; defaults to the standard one.
    public var reason: String
    /// The header fields to send.
    public var headers: HTTPHeaders
    /// The body.
    public var body: [UInt8]

    /// A response with the standard reason phrase for `status`.
    public init(status: Int = 200, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.reason = HTTPStatus.reason(for: status)
        self.headers = headers
        self.body = body
    }

    /// `text/plain; charset=utf-8`.
    public static func text(_ text: String, status: Int = 200, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "text/plain; charset=utf-8")
        return HTTPResponse(status: status, headers: headers, body: Array(text.utf8))
    }

    /// `text/html; charset=utf-8`.
    public static func html(_ html: String, status: Int = 200, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "text/html; charset=utf-8")
        return HTTPResponse(status: status, headers: headers, body: Array(html.utf8))
    }

    /// `application/json` with already-encoded JSON text.
    public static func json(_ json: String, status: Int = 200, headers: HTTPHeaders = [:]) -> HTTPResponse {
        self.json(Array(json.utf8), status: status, headers: headers)
    }

    /// `application/json` with already-encoded JSON bytes (e.g. from `JSONEncoder`).
    public static func json(_ json: [UInt8], status: Int = 200, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "application/json")
        return HTTPResponse(status: status, headers: headers, body: json)
    }

    /// A plain-text error page: `"<status> <reason>"` and, if given, a detail line.
    public static func error(_ status: Int, _ detail: String? = nil, headers: HTTPHeaders = [:]) -> HTTPResponse {
        let line = "\(status) \(HTTPStatus.reason(for: status))"
        return .text(detail.map { "\(line): \($0)\n" } ?? "\(line)\n", status: status, headers: headers)
    }

    /// `true` for statuses that never have a body (1xx, 204, 304).
    var forbidsBody: Bool { (100..<200).contains(status) || status == 204 || status == 304 }
}

/// Standard reason phrases (RFC 9110 §15).
public enum HTTPStatus {
    /// The reason phrase for `status`, or `"Unknown"`.
    public static func reason(for status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 101: return "Switching Protocols"
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 206: return "Partial Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 304: return "Not Modified"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 406: return "Not Acceptable"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 411: return "Length Required"
        case 412: return "Precondition Failed"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 417: return "Expectation Failed"
        case 422: return "Unprocessable Content"
        case 426: return "Upgrade Required"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 505: return "HTTP Version Not Supported"
        default: return "Unknown"
        }
    }
}
