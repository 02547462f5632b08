/// Maps a method and a path to a handler.
///
/// Patterns are `/`-separated segments: a literal (`api`), a parameter (`:id`, bound to
/// ``HTTPRequest/parameters``), or a final `*` that matches the rest of the path (bound to
/// `"*"`, possibly empty). Segments of the request path are percent-decoded before they
/// are compared or bound, so `/files/a%2Fb` matches `/files/:name` with name `a/b`.
/// Routes are tried in the order they were added; the first match wins.
///
/// - A path that matches a route for another method answers 405 with `Allow`.
/// - `HEAD` falls back to the `GET` route (the server sends the headers only).
/// - Nothing matches: the ``fallback`` handler (e.g. ``StaticFiles``) or 404.
///
/// Configure it before the server starts; afterwards it is read on the loop thread only.
public final class Router {
    /// A route handler: runs on the loop thread; answers through the responder, at once
    /// or later.
    public typealias Handler = (HTTPRequest, HTTPResponder) -> Void
    /// An upgrade handler: runs on the loop thread; accepts or rejects the upgrade.
    public typealias UpgradeHandler = (HTTPRequest, HTTPUpgrade) -> Void

    private struct Route {
        let pattern: String
        let method: String?
        let segments: [Substring]
        let handler: Handler?
        let upgrade: UpgradeHandler?
    }

    private var routes: [Route] = []

    /// Handles requests that no route matched (404 when nil).
    public var fallback: Handler?

    /// Builds the error answers routing itself gives (404 without a fallback, 405, 400
    /// for a bad path) from the request, the status and a detail; nil: plain text
    /// (``HTTPResponse/error(_:_:headers:)``). The `Allow` header of a 405 is kept.
    public var errorPage: ((_ request: HTTPRequest, _ status: Int, _ detail: String?) -> HTTPResponse)?

    /// The error answer for `request`: ``errorPage``'s, or plain text.
    func errorResponse(_ request: HTTPRequest, _ status: Int, _ detail: String?, headers: HTTPHeaders = [:]) -> HTTPResponse {
        guard let errorPage else { return .error(status, detail, headers: headers) }
        var response = errorPage(request, status, detail)
        for (name, value) in headers { response.headers.replaceOrAdd(name: name, value: value) }
        return response
    }

    /// An empty router.
    public init() {}

    /// Adds a route for `method` (exact, e.g. `"GET"`) and `pattern`.
    public func add(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        routes.append(Route(pattern: pattern, method: method, segments: Self.segments(pattern), handler: handler, upgrade: nil))
    }

    /// Adds a `GET` route (also answers `HEAD`).
    public func get(_ pattern: String, _ handler: @escaping Handler) { add("GET", pattern, handler) }
    /// Adds a `POST` route.
    public func post(_ pattern: String, _ handler: @escaping Handler) { add("POST", pattern, handler) }
    /// Adds a `PUT` route.
    public func put(_ pattern: String, _ handler: @escaping Handler) { add("PUT", pattern, handler) }
    /// Adds a `PATCH` route.
    public func patch(_ pattern: String, _ handler: @escaping Handler) { add("PATCH", pattern, handler) }
    /// Adds a `DELETE` route.
    public func delete(_ pattern: String, _ handler: @escaping Handler) { add("DELETE", pattern, handler) }
    /// Adds an `OPTIONS` route.
    public func options(_ pattern: String, _ handler: @escaping Handler) { add("OPTIONS", pattern, handler) }

    /// Adds an upgrade route (e.g. WebSocket on `/ws/:scene`).
    ///
    /// Every request whose path matches goes to `handler`, whatever its method and
    /// whether or not it asks to upgrade: the handler checks the request (`GET`,
    /// `Upgrade`, `Connection`, version...) and calls ``HTTPUpgrade/accept(response:take:)``
    /// or ``HTTPUpgrade/reject(_:)`` (400, 403, 405, 426...).
    public func upgrade(_ pattern: String, _ handler: @escaping UpgradeHandler) {
        routes.append(Route(pattern: pattern, method: nil, segments: Self.segments(pattern), handler: nil, upgrade: handler))
    }

    /// What routing decided for a request.
    enum Match {
        case handler(Handler, [String: String], pattern: String)
        case upgrade(UpgradeHandler, [String: String], pattern: String)
        case methodNotAllowed(allowed: [String])
        case badPath
        case notFound
    }

    /// Finds the route for `method` and `path` (percent-encoded).
    func match(method: String, path: String) -> Match {
        guard path.hasPrefix("/") else { return .notFound }
        var pathSegments: [String] = []
        for raw in path.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            guard let decoded = PercentEncoding.decode(raw) else { return .badPath }
            pathSegments.append(decoded)
        }
        var allowed: [String] = []
        var headFallback: (Handler, [String: String], String)?
        for route in routes {
            guard let parameters = Self.bind(route.segments, to: pathSegments) else { continue }
            if let upgrade = route.upgrade { return .upgrade(upgrade, parameters, pattern: route.pattern) }
            guard let routeMethod = route.method, let handler = route.handler else { continue }
            if routeMethod == method { return .handler(handler, parameters, pattern: route.pattern) }
            if method == "HEAD", routeMethod == "GET", headFallback == nil { headFallback = (handler, parameters, route.pattern) }
            if !allowed.contains(routeMethod) { allowed.append(routeMethod) }
        }
        if let (handler, parameters, pattern) = headFallback { return .handler(handler, parameters, pattern: pattern) }
        if !allowed.isEmpty {
            if allowed.contains("GET"), !allowed.contains("HEAD") { allowed.append("HEAD") }
            return .methodNotAllowed(allowed: allowed)
        }
        return .notFound
    }

    private static func segments(_ pattern: String) -> [Substring] {
        precondition(pattern.hasPrefix("/"), "route pattern must start with '/': \(pattern)")
        return Array(pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst())
    }

    private static func bind(_ pattern: [Substring], to path: [String]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (index, segment) in pattern.enumerated() {
            if segment == "*", index == pattern.count - 1 {
                parameters["*"] = path[min(index, path.count)...].joined(separator: "/")
                return parameters
            }
            guard index < path.count else { return nil }
            if segment.hasPrefix(":") {
                guard !path[index].isEmpty else { return nil }
                parameters[String(segment.dropFirst())] = path[index]
            } else if segment != path[index] {
                return nil
            }
        }
        return pattern.count == path.count ? parameters : nil
    }
}
