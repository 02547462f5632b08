import EventLoop

extension Router {
    /// Adds a WebSocket endpoint on `pattern` (path parameters as for other routes).
    ///
    /// Each request is checked by ``WebSocketHandshake`` with the configuration's origin
    /// policy: refusals are answered as plain HTTP (403 for a foreign `Origin`, 426 for a
    /// plain GET or another protocol version, 400/405 for the rest). An accepted client
    /// gets `101 Switching Protocols`; then `onConnect` runs on the loop thread with the
    /// request and the new ``WebSocketConnection``, which starts reading when `onConnect`
    /// returns: set its callbacks there.
    ///
    /// - Parameters:
    ///   - group: the group the connections join (several routes may share one); a new
    ///     one when nil.
    /// - Returns: the group, e.g. to close every connection with 1001 on server shutdown
    ///   (``WebSocketGroup/closeOnShutdown(of:)``).
    @discardableResult
    public func webSocket(_ pattern: String, configuration: WebSocketConfiguration = WebSocketConfiguration(),
                          group: WebSocketGroup? = nil,
                          onConnect: @escaping (HTTPRequest, WebSocketConnection) -> Void) -> WebSocketGroup {
        let group = group ?? WebSocketGroup()
        upgrade(pattern) { request, upgrade in
            let accept: String
            do throws(WebSocketHandshake.Failure) {
                accept = try WebSocketHandshake.accept(method: request.method, version: request.version.description,
                                                       headers: { request.headers.values(for: $0) },
                                                       originPolicy: configuration.originPolicy)
            } catch {
                var headers = HTTPHeaders()
                for field in error.headers { headers.add(name: field.name, value: field.value) }
                upgrade.reject(.error(error.status, error.description, headers: headers))
                return
            }
            var headers = HTTPHeaders()
            for field in WebSocketHandshake.responseHeaders(accept: accept) {
                headers.add(name: field.name, value: field.value)
            }
            guard !group.isClosing else {
                upgrade.reject(.error(503, "shutting down"))
                return
            }
            upgrade.accept(response: HTTPResponse(status: 101, headers: headers)) { tcp, rest in
                let connection = WebSocketConnection(connection: tcp, configuration: configuration)
                group.add(connection)
                onConnect(request, connection)
                connection.start(initialBytes: rest)
            }
        }
        return group
    }
}
