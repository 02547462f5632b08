@testable import HTTPServer
import XCTest

final class WebSocketHandshakeTests: XCTestCase {
    func testSHA1AgainstFIPSAndRFC3174Vectors() {
        XCTAssertEqual(wsHex(SHA1.hash([])), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        XCTAssertEqual(wsHex(SHA1.hash(Array("abc".utf8))), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(wsHex(SHA1.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))),
                       "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        XCTAssertEqual(wsHex(SHA1.hash([UInt8](repeating: 0x61, count: 1_000_000))),
                       "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    func testBase64AgainstRFC4648Vectors() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (clear, encoded) in vectors {
            XCTAssertEqual(Base64.encode(Array(clear.utf8)), encoded)
            XCTAssertEqual(Base64.decode(encoded), Array(clear.utf8))
        }
        for bad in ["Zg=", "Z===", "Zm=v", "Zm9v!A==", "=Zm9"] { XCTAssertNil(Base64.decode(bad), bad) }
    }

    func testRFC6455AcceptExample() {
        XCTAssertEqual(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    private func headers(_ fields: [String: [String]]) -> (String) -> [String] {
        { name in fields.first { $0.key.lowercased() == name.lowercased() }?.value ?? [] }
    }

    private let valid: [String: [String]] = [
        "Host": ["server.example.com"], "Upgrade": ["websocket"], "Connection": ["keep-alive, Upgrade"],
        "Sec-WebSocket-Key": ["dGhlIHNhbXBsZSBub25jZQ=="], "Sec-WebSocket-Version": ["13"],
    ]

    private func check(_ fields: [String: [String]], method: String = "GET", version: String = "HTTP/1.1",
                       policy: WebSocketOriginPolicy = .sameHost) -> Result<String, WebSocketHandshake.Failure> {
        Result { () throws(WebSocketHandshake.Failure) in
            try WebSocketHandshake.accept(method: method, version: version, headers: headers(fields), originPolicy: policy)
        }
    }

    func testValidRequestWithoutOriginIsAccepted() {
        XCTAssertEqual(try check(valid).get(), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        var mixedCase = valid
        mixedCase["Upgrade"] = ["WebSocket"]
        mixedCase["Connection"] = ["UPGRADE"]
        XCTAssertNoThrow(try check(mixedCase).get())
    }

    func testRefusalsAndTheirStatusCodes() {
        func failure(_ change: (inout [String: [String]]) -> Void, method: String = "GET",
                     version: String = "HTTP/1.1") -> WebSocketHandshake.Failure? {
            var fields = valid
            change(&fields)
            if case .failure(let failure) = check(fields, method: method, version: version) { return failure }
            return nil
        }
        XCTAssertEqual(failure({ _ in }, method: "POST"), .methodNotGET("POST"))
        XCTAssertEqual(WebSocketHandshake.Failure.methodNotGET("POST").status, 405)
        XCTAssertEqual(failure({ _ in }, version: "HTTP/1.0")?.status, 400)
        XCTAssertEqual(failure({ $0["Upgrade"] = nil }), .missingUpgradeHeader)
        XCTAssertEqual(WebSocketHandshake.Failure.missingUpgradeHeader.status, 426)
        XCTAssertEqual(failure({ $0["Connection"] = ["keep-alive"] }), .missingConnectionUpgrade)
        let version = failure({ $0["Sec-WebSocket-Version"] = ["8"] })
        XCTAssertEqual(version, .unsupportedVersion("8"))
        XCTAssertEqual(version?.status, 426)
        XCTAssertTrue(version?.headers.contains { $0.name == "Sec-WebSocket-Version" && $0.value == "13" } ?? false)
        XCTAssertEqual(failure({ $0["Sec-WebSocket-Version"] = nil }), .unsupportedVersion(nil))
        XCTAssertEqual(failure({ $0["Sec-WebSocket-Key"] = nil }), .invalidKey(nil))
        XCTAssertEqual(failure({ $0["Sec-WebSocket-Key"] = ["short"] }), .invalidKey("short"))
        XCTAssertEqual(failure({ $0["Sec-WebSocket-Key"] = ["dGhlIHNhbXBsZSBub25jZQ==", "dGhlIHNhbXBsZSBub25jZQ=="] }),
                       .invalidKey(nil))
        XCTAssertEqual(failure({ $0["Sec-WebSocket-Key"] = ["dGhlIHNhbXBsZSBub25jZQ"] })?.status, 400)  // 22 chars
        let origin = failure({ $0["Origin"] = ["https://evil.example"] })
        XCTAssertEqual(origin, .forbiddenOrigin("https://evil.example"))
        XCTAssertEqual(origin?.status, 403)
    }

    func testOriginPolicies() {
        let same = WebSocketOriginPolicy.sameHost
        XCTAssertTrue(same.allows(origin: nil, host: "a.example"))
        XCTAssertTrue(same.allows(origin: "http://a.example", host: "a.example"))
        XCTAssertTrue(same.allows(origin: "https://A.Example:8443", host: "a.example:8443"))
        XCTAssertFalse(same.allows(origin: "http://a.example:9999", host: "a.example:8443"))
        XCTAssertFalse(same.allows(origin: "http://evil.example", host: "a.example"))
        XCTAssertFalse(same.allows(origin: "null", host: "a.example"))
        XCTAssertTrue(same.allows(origin: "http://[::1]:8080", host: "[::1]:8080"))
        let named = WebSocketOriginPolicy.sameHost(alsoAllowing: ["app.example"])
        XCTAssertTrue(named.allows(origin: "https://app.example:3000", host: "api.example"))
        let list = WebSocketOriginPolicy.allowList(["https://app.example", "tools.example"])
        XCTAssertTrue(list.allows(origin: "https://app.example", host: "x"))
        XCTAssertFalse(list.allows(origin: "http://app.example", host: "x"))
        XCTAssertTrue(list.allows(origin: "http://tools.example:81", host: "x"))
        XCTAssertFalse(list.allows(origin: "https://app.example.evil", host: "x"))
        XCTAssertTrue(WebSocketOriginPolicy.any.allows(origin: "null", host: nil))
    }
}
