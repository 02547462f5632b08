@testable import HTTPServer
import XCTest

final class RouterTests: XCTestCase {
    private func route(_ router: Router, _ method: String, _ path: String) -> String {
        switch router.match(method: method, path: path) {
        case .handler(_, let parameters, _):
            return "handler " + parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        case .upgrade(_, let parameters, _):
            return "upgrade " + parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        case .methodNotAllowed(let allowed): return "405 " + allowed.joined(separator: ",")
        case .badPath: return "400"
        case .notFound: return "404"
        }
    }

    func testPatternsParametersAndMethods() {
        let router = Router()
        router.get("/api/scenes") { _, _ in }
        router.post("/api/sessions") { _, _ in }
        router.get("/api/sessions/:id") { _, _ in }
        router.delete("/api/sessions/:id") { _, _ in }
        router.post("/api/sessions/:id/events") { _, _ in }
        router.get("/static/*") { _, _ in }
        router.upgrade("/ws/:scene") { _, _ in }
        XCTAssertEqual(route(router, "GET", "/api/scenes"), "handler ")
        XCTAssertEqual(route(router, "GET", "/api/sessions/abc"), "handler id=abc")
        XCTAssertEqual(route(router, "DELETE", "/api/sessions/abc"), "handler id=abc")
        XCTAssertEqual(route(router, "POST", "/api/sessions/a%2Fb%20c/events"), "handler id=a/b c")
        XCTAssertEqual(route(router, "HEAD", "/api/sessions/abc"), "handler id=abc")
        XCTAssertEqual(route(router, "PUT", "/api/sessions/abc"), "405 GET,DELETE,HEAD")
        XCTAssertEqual(route(router, "GET", "/api/sessions/"), "404")
        XCTAssertEqual(route(router, "GET", "/api/sessions"), "405 POST")
        XCTAssertEqual(route(router, "GET", "/api/nothing"), "404")
        XCTAssertEqual(route(router, "GET", "/static/css/a.css"), "handler *=css/a.css")
        XCTAssertEqual(route(router, "GET", "/static"), "handler *=")
        XCTAssertEqual(route(router, "GET", "/ws/colors"), "upgrade scene=colors")
        XCTAssertEqual(route(router, "POST", "/ws/colors"), "upgrade scene=colors")
        XCTAssertEqual(route(router, "GET", "/ws/%ff"), "400")
    }

    func testFirstMatchWins() {
        let router = Router()
        router.get("/a/literal") { _, _ in }
        router.get("/a/:name") { _, _ in }
        XCTAssertEqual(route(router, "GET", "/a/literal"), "handler ")
        XCTAssertEqual(route(router, "GET", "/a/other"), "handler name=other")
    }
}

final class HTTPHeadersTests: XCTestCase {
    func testCaseInsensitiveLookupOrderAndEditing() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain", "Set-Cookie": "a=1"]
        headers.add(name: "set-cookie", value: "b=2")
        XCTAssertEqual(headers["content-TYPE"], "text/plain")
        XCTAssertEqual(headers.values(for: "SET-COOKIE"), ["a=1", "b=2"])
        headers.replaceOrAdd(name: "Set-Cookie", value: "c=3")
        XCTAssertEqual(headers.values(for: "set-cookie"), ["c=3"])
        XCTAssertEqual(headers.map(\.name), ["Content-Type", "Set-Cookie"])
        headers.remove(name: "content-type")
        XCTAssertNil(headers["Content-Type"])
        headers.add(name: "Connection", value: "keep-alive, Upgrade")
        XCTAssertTrue(headers.containsToken("upgrade", in: "connection"))
        XCTAssertEqual(headers.tokens(for: "Connection"), ["keep-alive", "upgrade"])
        XCTAssertFalse(HTTPHeaders.namesMatch("a-b", "A_B"))
        XCTAssertFalse(HTTPHeaders.namesMatch("[", "{"))
    }

    func testRequestHelpers() {
        var request = HTTPRequest(method: "GET", target: "/a%20b/c?x=1&y=two+words&z=%C3%A9&empty")
        XCTAssertEqual(request.path, "/a%20b/c")
        XCTAssertEqual(request.pathSegments, ["a b", "c"])
        XCTAssertEqual(request.queryValue("y"), "two words")
        XCTAssertEqual(request.queryValue("z"), "é")
        XCTAssertEqual(request.queryValue("empty"), "")
        request.body = Array("hi".utf8)
        XCTAssertEqual(request.bodyText, "hi")
    }
}

final class HTTPDateTests: XCTestCase {
    func testFormatAndParse() {
        XCTAssertEqual(HTTPDate.format(784_111_777), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"), 784_111_777)
        XCTAssertEqual(HTTPDate.format(0), "Thu, 01 Jan 1970 00:00:00 GMT")
        XCTAssertNil(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"))
        XCTAssertNil(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 UTC"))
        XCTAssertNil(HTTPDate.parse("Sun, 32 Nov 1994 08:49:37 GMT"))
        XCTAssertNil(HTTPDate.parse("garbage"))
    }
}

final class StaticFilesPathTests: XCTestCase {
    func testRelativePathRejectsEscapes() {
        XCTAssertEqual(StaticFiles.relativePath("/"), "")
        XCTAssertEqual(StaticFiles.relativePath("/a/b.txt"), "a/b.txt")
        XCTAssertEqual(StaticFiles.relativePath("/a//b.txt"), "a/b.txt")
        XCTAssertEqual(StaticFiles.relativePath("/dir/"), "dir/")
        XCTAssertEqual(StaticFiles.relativePath("/caf%C3%A9.txt"), "café.txt")
        for bad in ["/..", "/../x", "/a/../../x", "/%2e%2e/x", "/%2E%2e", "/.", "/a/./b", "/a%2fb", "/a%2F..%2Fb",
                    "/a%5cb", "/a%00b", "/%ff", "/%zz", "relative"] {
            XCTAssertNil(StaticFiles.relativePath(bad), bad)
        }
    }

    func testIfNoneMatch() {
        XCTAssertTrue(StaticFiles.matches("*", etag: "\"a\""))
        XCTAssertTrue(StaticFiles.matches("\"x\", W/\"a\"", etag: "\"a\""))
        XCTAssertFalse(StaticFiles.matches("\"x\"", etag: "\"a\""))
    }

    func testMIMETypes() {
        XCTAssertEqual(MIMETypes.type(forPath: "/x/app.JS"), "text/javascript; charset=utf-8")
        XCTAssertEqual(MIMETypes.type(forPath: "a.svg"), "image/svg+xml")
        XCTAssertEqual(MIMETypes.type(forPath: "noext"), "application/octet-stream")
        XCTAssertEqual(MIMETypes.type(forPath: "dir.d/noext"), "application/octet-stream")
    }
}
