@testable import HTTPServer
import XCTest

final class HTTPRequestParserTests: XCTestCase {
    /// Parses `text` fed in pieces of `pieceSize` bytes (all at once by default).
    private func parse(_ text: String, pieceSize: Int? = nil, limits: HTTPRequestParser.Limits = .init())
        -> (events: [HTTPRequestParser.Event], error: HTTPParserError?) {
        parse(Array(text.utf8), pieceSize: pieceSize, limits: limits)
    }

    private func parse(_ bytes: [UInt8], pieceSize: Int? = nil, limits: HTTPRequestParser.Limits = .init())
        -> (events: [HTTPRequestParser.Event], error: HTTPParserError?) {
        var parser = HTTPRequestParser(limits: limits)
        var events: [HTTPRequestParser.Event] = []
        let size = pieceSize ?? max(1, bytes.count)
        var offset = 0
        repeat {
            let piece = bytes[offset..<min(bytes.count, offset + size)]
            offset += piece.count
            parser.append(contentsOf: piece)
            do {
                while let event = try parser.next() { events.append(event) }
            } catch {
                return (events, error)
            }
        } while offset < bytes.count
        return (events, nil)
    }

    private func assertRejected(_ text: String, _ kind: HTTPParserError.Kind, status: Int,
                                limits: HTTPRequestParser.Limits = .init(),
                                file: StaticString = #filePath, line: UInt = #line) {
        let (_, error) = parse(text, limits: limits)
        XCTAssertEqual(error?.kind, kind, "\(error.map(String.init(describing:)) ?? "accepted"): \(text.debugDescription)", file: file, line: line)
        XCTAssertEqual(error?.status, status, file: file, line: line)
        // Byte by byte gives the same answer.
        let (_, slowError) = parse(text, pieceSize: 1, limits: limits)
        XCTAssertEqual(slowError?.kind, kind, "byte by byte: \(text.debugDescription)", file: file, line: line)
    }

    private func head(_ events: [HTTPRequestParser.Event], _ index: Int = 0) -> HTTPRequestHead? {
        let heads = events.compactMap { if case .head(let head) = $0 { return head } else { return nil } }
        return index < heads.count ? heads[index] : nil
    }

    private func bodies(_ events: [HTTPRequestParser.Event]) -> [String] {
        events.compactMap { if case .end(let body, _) = $0 { return String(decoding: body, as: UTF8.self) } else { return nil } }
    }

    // MARK: - Accepted requests

    func testSimpleGet() {
        let (events, error) = parse("GET /a/b%20c?x=1&y HTTP/1.1\r\nHost: example.com\r\nAccept:  */* \r\n\r\n")
        XCTAssertNil(error)
        XCTAssertEqual(events.count, 2)
        let request = head(events)!
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.target, "/a/b%20c?x=1&y")
        XCTAssertEqual(request.path, "/a/b%20c")
        XCTAssertEqual(request.query, "x=1&y")
        XCTAssertEqual(request.version, .http1_1)
        XCTAssertEqual(request.headers["accept"], "*/*")
        XCTAssertEqual(request.headers["HOST"], "example.com")
        XCTAssertTrue(request.keepAlive)
        XCTAssertEqual(request.framing, .none)
        XCTAssertEqual(bodies(events), [""])
    }

    func testContentLengthBody() {
        let (events, error) = parse("POST /p HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello")
        XCTAssertNil(error)
        XCTAssertEqual(head(events)?.framing, .length(5))
        XCTAssertEqual(bodies(events), ["hello"])
    }

    func testIdenticalDuplicateContentLengthIsAccepted() {
        let (events, error) = parse("POST /p HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 3, 003\r\n\r\nabc")
        XCTAssertNil(error)
        XCTAssertEqual(bodies(events), ["abc"])
    }

    func testChunkedBodyWithExtensionsAndTrailers() {
        let text = "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;name=value\r\nhello\r\n6\r\n world\r\n0\r\nX-Checksum: abc\r\n\r\n"
        let (events, error) = parse(text)
        XCTAssertNil(error)
        XCTAssertEqual(head(events)?.framing, .chunked)
        XCTAssertEqual(bodies(events), ["hello world"])
        if case .end(_, let trailers) = events.last { XCTAssertEqual(trailers["x-checksum"], "abc") } else { XCTFail() }
    }

    func testEverySplitPointGivesTheSameEvents() {
        let text = "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5\r\nhello\r\nA\r\n0123456789\r\n0\r\nT: v\r\n\r\n"
            + "GET /next?q HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"
            + "PUT /x HTTP/1.0\r\nContent-Length: 4\r\nConnection: keep-alive\r\n\r\nabcd"
        let bytes = Array(text.utf8)
        let (expected, error) = parse(bytes)
        XCTAssertNil(error)
        XCTAssertEqual(expected.count, 6)
        for split in 1..<bytes.count {
            var parser = HTTPRequestParser()
            var events: [HTTPRequestParser.Event] = []
            for piece in [bytes[..<split], bytes[split...]] {
                parser.append(contentsOf: piece)
                while let event = try? parser.next() { events.append(event) }
            }
            XCTAssertEqual(events, expected, "split at \(split)")
        }
        // And one byte at a time.
        XCTAssertEqual(parse(bytes, pieceSize: 1).events, expected)
        XCTAssertEqual(parse(bytes, pieceSize: 7).events, expected)
    }

    func testPipelinedRequestsComeOutInOrder() {
        let one = "GET /1 HTTP/1.1\r\nHost: h\r\n\r\n"
        let two = "POST /2 HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nok"
        let three = "GET /3 HTTP/1.1\r\nHost: h\r\n\r\n"
        let (events, error) = parse(one + two + three)
        XCTAssertNil(error)
        XCTAssertEqual([0, 1, 2].compactMap { head(events, $0)?.path }, ["/1", "/2", "/3"])
        XCTAssertEqual(bodies(events), ["", "ok", ""])
    }

    func testBytesAfterARequestStayBufferedForTheNextOne() throws {
        var parser = HTTPRequestParser()
        parser.append(contentsOf: Array("GET /ws HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\n\r\n\u{81}\u{05}".utf8))
        XCTAssertNotNil(try parser.next())
        XCTAssertNotNil(try parser.next())
        XCTAssertEqual(parser.takeBufferedBytes(), [0xC2, 0x81, 0x05])
        XCTAssertEqual(parser.bufferedByteCount, 0)
    }

    func testKeepAliveRules() {
        XCTAssertEqual(head(parse("GET / HTTP/1.1\r\nHost: h\r\n\r\n").events)?.keepAlive, true)
        XCTAssertEqual(head(parse("GET / HTTP/1.1\r\nHost: h\r\nConnection: Close\r\n\r\n").events)?.keepAlive, false)
        XCTAssertEqual(head(parse("GET / HTTP/1.0\r\n\r\n").events)?.keepAlive, false)
        XCTAssertEqual(head(parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n").events)?.keepAlive, true)
        XCTAssertEqual(head(parse("GET / HTTP/1.0\r\nConnection: keep-alive, close\r\n\r\n").events)?.keepAlive, false)
    }

    func testExpectContinue() {
        let withBody = parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nExpect: 100-Continue\r\n\r\n")
        XCTAssertNil(withBody.error)
        XCTAssertEqual(head(withBody.events)?.expectsContinue, true)
        XCTAssertEqual(head(parse("GET / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n\r\n").events)?.expectsContinue, false)
        // HTTP/1.0 expectations are ignored (RFC 9110 §10.1.1).
        XCTAssertNil(parse("POST / HTTP/1.0\r\nContent-Length: 1\r\nExpect: whatever\r\n\r\nx").error)
    }

    func testAbsoluteFormAndAsteriskForm() {
        let absolute = head(parse("GET http://example.com:8080/a/b?c HTTP/1.1\r\nHost: example.com\r\n\r\n").events)
        XCTAssertEqual(absolute?.path, "/a/b")
        XCTAssertEqual(absolute?.query, "c")
        XCTAssertEqual(head(parse("GET HTTP://example.com HTTP/1.1\r\nHost: example.com\r\n\r\n").events)?.path, "/")
        XCTAssertEqual(head(parse("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n").events)?.path, "*")
    }

    func testLeadingEmptyLinesAreIgnored() {
        XCTAssertNil(parse("\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n").error)
    }

    func testObsTextInValuesIsTolerated() {
        XCTAssertNil(parse(Array("GET / HTTP/1.1\r\nHost: h\r\nX: caf".utf8) + [0xE9] + Array("\r\n\r\n".utf8)).error)
    }

    func testLimitsAtTheBoundaryAreAccepted() {
        let limits = HTTPRequestParser.Limits(maxRequestLineLength: 64, maxHeaderBytes: 200, maxHeaderCount: 3, maxBodySize: 10)
        let line = "GET /" + String(repeating: "a", count: 64 - 14) + " HTTP/1.1"
        XCTAssertEqual(line.utf8.count, 64)
        XCTAssertNil(parse(line + "\r\nHost: h\r\nA: 1\r\nB: 2\r\n\r\n", limits: limits).error)
        XCTAssertNil(parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n0123456789", limits: limits).error)
        XCTAssertNil(parse("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\na\r\n0123456789\r\n0\r\n\r\n", limits: limits).error)
    }

    // MARK: - Rejections: framing and smuggling (400)

    func testContentLengthWithTransferEncodingIsRejected() {
        assertRejected("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", .badRequest, status: 400)
        assertRejected("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n", .badRequest, status: 400)
    }

    func testDifferingContentLengthsAreRejected() {
        assertRejected("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", .badRequest, status: 400)
        assertRejected("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3, 4\r\n\r\nabcd", .badRequest, status: 400)
    }

    func testMalformedContentLengthIsRejected() {
        for value in ["-1", "+3", "3 3", "0x10", "", "1e3", "3,"] {
            assertRejected("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: \(value)\r\n\r\n", .badRequest, status: 400)
        }
    }

    func testTransferEncodingVariantsAreRejected() {
        assertRejected("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, identity\r\n\r\n", .badRequest, status: 400)
        assertRejected("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", .badRequest, status: 400)
        assertRejected("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: xchunked\r\n\r\n", .badRequest, status: 400)
        assertRejected("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: \r\n\r\n", .badRequest, status: 400)
        assertRejected("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", .badRequest, status: 400)
        assertRejected("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", .unsupportedTransferCoding, status: 501)
    }

    func testBareLFAndBareCRAreRejected() {
        assertRejected("GET / HTTP/1.1\nHost: h\r\n\r\n", .badRequest, status: 400)
        assertRejected("GET / HTTP/1.1\r\nHost: h\n\r\n", .badRequest, status: 400)
        assertRejected("GET / HTTP/1.1\r\nHost: h\r\n\n", .badRequest, status: 400)
        assertRejected("GET / HTTP/1.1\r\nHost: h\rX: y\r\n\r\n", .badRequest, status: 400)
        assertRejected("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\nabc\r\n0\r\n\r\n", .badRequest, status: 400)
    }

    func testObsoleteLineFoldingIsRejected() {
        assertRejected("GET / HTTP/1.1\r\nHost: h\r\nX-Long: a\r\n b\r\n\r\n", .badRequest, status: 400)
        assertRejected("GET / HTTP/1.1\r\nHost: h\r\nX-Long: a\r\n\tb\r\n\r\n", .badRequest, status: 400)
        assertRejected("GET / HTTP/1.1\r\n Host: h\r\n\r\n", .badRequest, status: 400)
    }

    func testInvalidHeaderNamesAndValuesAreRejected() {
        assertRejected("GET / HTTP/1.1\r\nHost: h\r\nContent-Length : 0\r\n\r\n", .badRequest, status: 400)
        assertRejected("GET / HTTP/1.1\r\nHost: h\r\nBad Name: x\r\n\r\n", .badRequest, status: 400)
        assertRejected("GET / HTTP/1.1\r\nHost: h\r\n: empty\r\n\r\n", .badRequest, status: 400)
        assertRejected("GET / HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n", .badRequest, status: 400)
        assertRejected("GET / HTTP/1.1\r\nHost: h\r\nX(y): z\r\n\r\n", .badRequest, status: 400)
        assertRejected("GET / HTTP/1.1\r\nHost: h\r\nX: a\u{0}b\r\n\r\n", .badRequest, status: 400)
        assertRejected("GET / HTTP/1.1\r\nHost: h\r\nX: a\u{7F}b\r\n\r\n", .badRequest, status: 400)
        assertRejected("GET / HTTP/1.1\r\nHost: h\r\nX: a\u{1B}b\r\n\r\n", .badRequest, status: 400)
    }

    func testHostRules() {
        assertRejected("GET / HTTP/1.1\r\n\r\n", .badRequest, status: 400)
        assertRejected("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", .badRequest, status: 400)
        XCTAssertNil(parse("GET / HTTP/1.0\r\n\r\n").error)
    }

    func testBadRequestLinesAreRejected() {
        for line in ["GET  / HTTP/1.1", "GET / HTTP/1.1 ", " GET / HTTP/1.1", "GET /", "GET / http/1.1", "GET / HTTP/1.10",
                     "GET / HTTP/11", "GET /a b HTTP/1.1", "GET a HTTP/1.1", "G(T / HTTP/1.1", "GET /\u{1}x HTTP/1.1",
                     "GET /a#frag HTTP/1.1", "GET /%zz HTTP/1.1", "GET /%4 HTTP/1.1", "GET * HTTP/1.1", "GET http:// HTTP/1.1",
                     "GET\t/ HTTP/1.1"] {
            assertRejected(line + "\r\nHost: h\r\n\r\n", .badRequest, status: 400)
        }
        assertRejected("GET /caf\u{E9} HTTP/1.1\r\nHost: h\r\n\r\n", .badRequest, status: 400)
    }

    func testBinaryGarbageIsRejectedWithoutWaitingForALineEnd() {
        var parser = HTTPRequestParser()
        parser.append(contentsOf: [0x16, 0x03, 0x01, 0x02, 0x00])  // a TLS ClientHello's start
        XCTAssertThrowsError(try parser.next()) { XCTAssertEqual(($0 as? HTTPParserError)?.status, 400) }
    }

    /// Found by the fuzzer: the answer must not depend on how the bytes were split.
    func testAnswerDoesNotDependOnSplitting() {
        let limits = HTTPRequestParser.Limits(maxRequestLineLength: 32)
        for text in ["GET /" + String(repeating: "a", count: 40) + "\n",          // long line ending in bare LF
                     "GETst: h\rnnection: ke\nCo Hive / HTTP/1.0\r\n",           // junk with bare LF
                     "\u{16}" + String(repeating: "x", count: 40) + "\r\n"] {    // junk longer than the limit
            let whole = parse(text, limits: limits).error
            XCTAssertNotNil(whole, text.debugDescription)
            for size in 1...5 {
                XCTAssertEqual(parse(text, pieceSize: size, limits: limits).error?.kind, whole?.kind, "\(text.debugDescription) in pieces of \(size)")
            }
        }
    }

    func testErrorsAreSticky() {
        var parser = HTTPRequestParser()
        parser.append(contentsOf: Array("GET / HTTP/1.1\nHost: h\r\n\r\n".utf8))
        XCTAssertThrowsError(try parser.next())
        parser.append(contentsOf: Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        XCTAssertThrowsError(try parser.next())
    }

    func testBadChunkFramingIsRejected() {
        let prefix = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
        assertRejected(prefix + "x\r\n", .badRequest, status: 400)
        assertRejected(prefix + "\r\n", .badRequest, status: 400)
        assertRejected(prefix + "3 x\r\nabc\r\n", .badRequest, status: 400)
        assertRejected(prefix + "3\r\nabcd\r\n", .badRequest, status: 400)
        assertRejected(prefix + "3;ext\u{1}\r\nabc\r\n", .badRequest, status: 400)
        assertRejected(prefix + "0\r\nBad Trailer: x\r\n\r\n", .badRequest, status: 400)
        assertRejected(prefix + "-1\r\n", .badRequest, status: 400)
    }

    // MARK: - Rejections: limits and versions

    func testRequestLineTooLongIs414() {
        assertRejected("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: h\r\n\r\n", .requestLineTooLong, status: 414)
        // Detected before the line end arrives.
        var parser = HTTPRequestParser()
        parser.append(contentsOf: Array(("GET /" + String(repeating: "a", count: 8200)).utf8))
        XCTAssertThrowsError(try parser.next()) { XCTAssertEqual(($0 as? HTTPParserError)?.status, 414) }
    }

    func testHeaderSectionTooLargeIs431() {
        assertRejected("GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "a", count: 17000) + "\r\n\r\n", .headerFieldsTooLarge, status: 431)
        let many = (0..<101).map { "X-\($0): v\r\n" }.joined()
        assertRejected("GET / HTTP/1.1\r\nHost: h\r\n" + many + "\r\n", .headerFieldsTooLarge, status: 431)
        // Many small lines that together exceed the byte limit.
        let limits = HTTPRequestParser.Limits(maxHeaderBytes: 100)
        assertRejected("GET / HTTP/1.1\r\nHost: h\r\n" + (0..<10).map { "X\($0): 0123456789\r\n" }.joined() + "\r\n",
                       .headerFieldsTooLarge, status: 431, limits: limits)
        // Trailers count too.
        let trailers = (0..<101).map { "T\($0): v\r\n" }.joined()
        assertRejected("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n" + trailers + "\r\n",
                       .headerFieldsTooLarge, status: 431)
    }

    func testBodyTooLargeIs413() {
        assertRejected("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1048577\r\n\r\n", .bodyTooLarge, status: 413)
        assertRejected("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999999\r\n\r\n", .bodyTooLarge, status: 413)
        let limits = HTTPRequestParser.Limits(maxBodySize: 8)
        assertRejected("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n5\r\nworld\r\n0\r\n\r\n",
                       .bodyTooLarge, status: 413, limits: limits)
        assertRejected("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\n", .bodyTooLarge, status: 413)
    }

    func testUnknownMethodIs501() {
        assertRejected("BREW /pot HTTP/1.1\r\nHost: h\r\n\r\n", .notImplemented, status: 501)
        assertRejected("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n", .notImplemented, status: 501)
        assertRejected("get / HTTP/1.1\r\nHost: h\r\n\r\n", .notImplemented, status: 501)
    }

    func testUnsupportedVersionsAre505() {
        assertRejected("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", .versionNotSupported, status: 505)
        assertRejected("GET / HTTP/2.0\r\nHost: h\r\n\r\n", .versionNotSupported, status: 505)
        assertRejected("GET / HTTP/0.9\r\nHost: h\r\n\r\n", .versionNotSupported, status: 505)
        assertRejected("GET / HTTP/1.2\r\nHost: h\r\n\r\n", .versionNotSupported, status: 505)
    }

    func testUnknownExpectationIs417() {
        assertRejected("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nExpect: 200-ok\r\n\r\nx", .expectationFailed, status: 417)
    }

    func testTooManyEmptyLinesBeforeARequest() {
        assertRejected(String(repeating: "\r\n", count: 10) + "GET / HTTP/1.1\r\nHost: h\r\n\r\n", .badRequest, status: 400)
    }
}
