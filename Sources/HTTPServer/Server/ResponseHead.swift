import EventLoop

/// Serialises a response's status line and header section into a `WriteBuffer`.
///
/// The server owns the framing fields: `Content-Length`, `Transfer-Encoding` and
/// `Connection` given by a handler are replaced by the ones that match what is actually
/// sent (except on 101, whose `Connection: Upgrade` belongs to the handler). Fields whose
/// name or value contains CR, LF or NUL are dropped, so a handler echoing user input
/// cannot split the response.
enum ResponseHead {
    /// How the body that follows is delimited.
    enum Framing {
        /// No framing fields at all (1xx, 204, 304).
        case none
        /// `Content-Length: n`.
        case length(Int)
        /// `Transfer-Encoding: chunked`.
        case chunked
        /// Body until the connection closes (HTTP/1.0 streaming).
        case untilClose
    }

    static func serialize(status: Int, reason: String, headers: HTTPHeaders, framing: Framing,
                          connection: String?, date: String, serverName: String?) -> WriteBuffer {
        let buffer = WriteBuffer(capacity: 256)
        buffer.append("HTTP/1.1 \(status) \(sanitized(reason) ?? "")\r\n")
        let keepsConnectionField = status == 101
        var hasDate = false
        for (name, value) in headers {
            guard isSafe(name), isSafe(value), !name.isEmpty else { continue }
            if HTTPHeaders.namesMatch(name, "Content-Length") || HTTPHeaders.namesMatch(name, "Transfer-Encoding") {
                continue
            }
            if HTTPHeaders.namesMatch(name, "Connection"), !keepsConnectionField { continue }
            if HTTPHeaders.namesMatch(name, "Date") { hasDate = true }
            buffer.append(name)
            buffer.append(": ")
            buffer.append(value)
            buffer.append("\r\n")
        }
        if !hasDate { buffer.append("Date: \(date)\r\n") }
        if let serverName, !headers.contains("Server") { buffer.append("Server: \(serverName)\r\n") }
        switch framing {
        case .none, .untilClose: break
        case .length(let count): buffer.append("Content-Length: \(count)\r\n")
        case .chunked: buffer.append("Transfer-Encoding: chunked\r\n")
        }
        if let connection, !keepsConnectionField { buffer.append("Connection: \(connection)\r\n") }
        buffer.append("\r\n")
        return buffer
    }

    private static func isSafe(_ text: String) -> Bool {
        !text.utf8.contains { $0 == 13 || $0 == 10 || $0 == 0 }
    }

    private static func sanitized(_ reason: String) -> String? {
        isSafe(reason) ? reason : nil
    }
}
