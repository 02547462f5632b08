/// A strict, incremental HTTP/1.1 request parser (RFC 9112).
///
/// Feed it bytes as they arrive with ``append(_:)`` and pull events with ``next()``:
/// `.head` once the request line and headers are complete, then `.end` with the whole
/// body once it has arrived. Bytes after a complete request stay buffered for the next
/// one (pipelining) until ``next()`` is called again, or ``takeBufferedBytes()`` hands
/// them to a protocol taking the connection over (WebSocket).
///
/// It has no I/O, no clock and no globals, so it can be tested byte by byte and fuzzed.
///
/// Anything ambiguous is an error rather than a guess, so a proxy in front cannot
/// disagree with us about where a request ends (request smuggling): `Content-Length`
/// together with `Transfer-Encoding`, differing `Content-Length` values, a
/// `Transfer-Encoding` whose last coding is not `chunked`, `Transfer-Encoding` in
/// HTTP/1.0, bare LF or bare CR as a line end, obsolete line folding, whitespace
/// before a header colon, control characters in names, values or the target, a missing
/// or repeated `Host` in HTTP/1.1. After an error the parser stays failed; the
/// connection must be answered with the error's status and closed.
///
/// Not thread-safe (a value type: one owner at a time).
public struct HTTPRequestParser {
    /// Size limits and the methods accepted.
    public struct Limits: Sendable {
        /// Longest request line in bytes, without CRLF (414 beyond).
        public var maxRequestLineLength: Int
        /// Largest header section (and trailer section) in bytes, counting CRLFs (431
        /// beyond).
        public var maxHeaderBytes: Int
        /// Most header fields (trailer fields count too) (431 beyond).
        public var maxHeaderCount: Int
        /// Largest body in bytes, after removing chunked framing (413 beyond).
        public var maxBodySize: Int
        /// Methods the server implements; any other syntactically valid method is 501.
        public var methods: Set<String>

        /// The defaults: 8 KiB request line, 16 KiB / 100 header fields, 1 MiB body,
        /// GET HEAD POST PUT DELETE PATCH OPTIONS.
        public init(maxRequestLineLength: Int = 8 * 1024, maxHeaderBytes: Int = 16 * 1024,
                    maxHeaderCount: Int = 100, maxBodySize: Int = 1024 * 1024,
                    methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
            self.maxRequestLineLength = maxRequestLineLength
            self.maxHeaderBytes = maxHeaderBytes
            self.maxHeaderCount = maxHeaderCount
            self.maxBodySize = maxBodySize
            self.methods = methods
        }
    }

    /// What ``next()`` produces.
    public enum Event: Sendable, Equatable {
        /// The request line and headers are complete.
        case head(HTTPRequestHead)
        /// The request is complete: its body (chunked framing removed) and trailer fields.
        case end(body: [UInt8], trailers: HTTPHeaders)
    }

    private enum State {
        case requestLine
        case headers
        case body(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
    }

    /// The limits in force.
    public let limits: Limits

    private var buffer: [UInt8] = []
    /// Start of the unconsumed bytes.
    private var readIndex = 0
    /// Where the search for the next LF resumes (bytes before it hold none).
    private var scanIndex = 0
    private var state = State.requestLine
    private var failure: HTTPParserError?

    // The message being parsed.
    private var emptyLinesBeforeRequest = 0
    private var head: HTTPRequestHead?
    private var headers = HTTPHeaders()
    private var headerBytes = 0
    private var body: [UInt8] = []
    private var trailers = HTTPHeaders()

    /// A parser at the start of a connection.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    // MARK: - Input

    /// Buffers received bytes (copied). Parse them with ``next()``.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Buffers received bytes (copied). Parse them with ``next()``.
    public mutating func append<Bytes: Sequence>(contentsOf bytes: Bytes) where Bytes.Element == UInt8 {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Bytes received and not yet consumed by a complete event.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// `true` when some of a request has arrived but not all of it (a partial request
    /// line or head, or a body still coming). Used to tell an idle keep-alive connection
    /// from one in the middle of a request.
    public var hasPartialRequest: Bool {
        if case .requestLine = state { return bufferedByteCount > 0 }
        return true
    }

    /// `true` when the head has been parsed but the body has not all arrived.
    public var isReadingBody: Bool {
        switch state {
        case .requestLine, .headers: return false
        default: return true
        }
    }

    /// Removes and returns every buffered, unconsumed byte (for a protocol that takes the
    /// connection over after an upgrade).
    public mutating func takeBufferedBytes() -> [UInt8] {
        let rest = Array(buffer[readIndex...])
        buffer.removeAll()
        readIndex = 0
        scanIndex = 0
        return rest
    }

    /// Drops consumed bytes once they dominate the buffer, so it stays bounded.
    private mutating func compact() {
        guard readIndex > 0 else { return }
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            readIndex = 0
            scanIndex = 0
        } else if readIndex >= 4096 || readIndex * 2 >= buffer.count {
            buffer.removeSubrange(0..<readIndex)
            scanIndex -= readIndex
            readIndex = 0
        }
    }

    // MARK: - Parsing

    /// The next event, or nil when more bytes are needed.
    ///
    /// - Throws: ``HTTPParserError`` for a request that must be refused; every later call
    ///   throws the same error.
    public mutating func next() throws(HTTPParserError) -> Event? {
        if let failure { throw failure }
        do throws(HTTPParserError) {
            return try step()
        } catch {
            failure = error
            throw error
        }
    }

    private mutating func step() throws(HTTPParserError) -> Event? {
        while true {
            switch state {
            case .requestLine:
                // First, so the answer does not depend on how the bytes were split.
                try checkMethodPrefix()
                guard let line = try nextLine(limit: limits.maxRequestLineLength, tooLong: {
                    HTTPParserError(.requestLineTooLong, "request line longer than \($0) bytes")
                }) else { return nil }
                if line.isEmpty {
                    // RFC 9112 §2.2: ignore empty lines before a request (a few).
                    emptyLinesBeforeRequest += 1
                    if emptyLinesBeforeRequest > 4 {
                        throw HTTPParserError(.badRequest, "too many empty lines before the request line")
                    }
                    continue
                }
                head = try parseRequestLine(line)
                state = .headers

            case .headers, .trailers:
                let isTrailer: Bool
                if case .trailers = state { isTrailer = true } else { isTrailer = false }
                let maxHeaderBytes = limits.maxHeaderBytes
                let budget = maxHeaderBytes - headerBytes - 2
                guard let line = try nextLine(limit: max(0, budget), tooLong: { _ in
                    HTTPParserError(.headerFieldsTooLarge,
                                    "\(isTrailer ? "trailer" : "header") section larger than \(maxHeaderBytes) bytes")
                }) else { return nil }
                headerBytes += line.count + 2
                if line.isEmpty {
                    if isTrailer { return finishMessage() }
                    return .head(try finishHead())
                }
                let (name, value) = try parseField(line, isTrailer: isTrailer)
                if headers.count + trailers.count >= limits.maxHeaderCount {
                    throw HTTPParserError(.headerFieldsTooLarge, "more than \(limits.maxHeaderCount) header fields")
                }
                if isTrailer {
                    trailers.add(name: name, value: value)
                } else {
                    headers.add(name: name, value: value)
                }

            case .body(let remaining):
                if remaining == 0 { return finishMessage() }
                let taken = takeBody(upTo: remaining)
                guard taken > 0 else { return nil }
                state = .body(remaining: remaining - taken)

            case .chunkSize:
                guard let line = try nextLine(limit: 4096, tooLong: { _ in
                    HTTPParserError(.badRequest, "chunk size line longer than 4096 bytes")
                }) else { return nil }
                let size = try parseChunkSize(line)
                if size == 0 {
                    state = .trailers
                } else {
                    state = .chunkData(remaining: size)
                }

            case .chunkData(let remaining):
                let taken = takeBody(upTo: remaining)
                guard taken > 0 else { return nil }
                state = remaining == taken ? .chunkDataEnd : .chunkData(remaining: remaining - taken)

            case .chunkDataEnd:
                let available = bufferedByteCount
                if available >= 1, buffer[readIndex] != 13 {
                    throw HTTPParserError(.badRequest, "chunk data not followed by CRLF")
                }
                guard available >= 2 else { return nil }
                guard buffer[readIndex + 1] == 10 else {
                    throw HTTPParserError(.badRequest, "chunk data not followed by CRLF")
                }
                readIndex += 2
                scanIndex = readIndex
                state = .chunkSize
            }
        }
    }

    /// The next complete line (without CRLF) as a range of `buffer`, consumed; nil when
    /// no line end has arrived yet.
    private mutating func nextLine(limit: Int, tooLong: (Int) -> HTTPParserError) throws(HTTPParserError) -> Range<Int>? {
        let end = buffer.count
        var index = max(scanIndex, readIndex)
        while index < end, buffer[index] != 10 { index += 1 }
        guard index < end else {
            scanIndex = end
            // One byte of slack for a CR whose LF has not arrived.
            if end - readIndex > limit + 1 { throw tooLong(limit) }
            return nil
        }
        // Same order of checks as while waiting for the LF, so the answer does not depend
        // on how the bytes were split: length first, then the line end.
        if index - readIndex > limit + 1 { throw tooLong(limit) }
        guard index > readIndex, buffer[index - 1] == 13 else {
            throw HTTPParserError(.badRequest, "bare LF as a line end (CRLF required)")
        }
        let line = readIndex..<(index - 1)
        readIndex = index + 1
        scanIndex = readIndex
        return line
    }

    /// Moves up to `count` body bytes from the buffer into `body`; returns how many.
    private mutating func takeBody(upTo count: Int) -> Int {
        let taken = min(count, bufferedByteCount)
        guard taken > 0 else { return 0 }
        body.append(contentsOf: buffer[readIndex..<(readIndex + taken)])
        readIndex += taken
        scanIndex = readIndex
        return taken
    }

    /// Fails early when what has arrived of a request line cannot start with a method
    /// (e.g. a TLS handshake), instead of waiting for 8 KiB or the timeout.
    private func checkMethodPrefix() throws(HTTPParserError) {
        var index = readIndex
        let end = min(buffer.count, readIndex + 32)
        while index < end {
            let byte = buffer[index]
            if byte == 32 || byte == 13 || byte == 10 { return }
            guard Self.isTokenByte(byte) else {
                throw HTTPParserError(.badRequest, "request does not start with a method token")
            }
            index += 1
        }
    }

    // MARK: - Request line

    private func parseRequestLine(_ line: Range<Int>) throws(HTTPParserError) -> HTTPRequestHead {
        guard let firstSpace = buffer[line].firstIndex(of: 32),
              let lastSpace = buffer[line].lastIndex(of: 32), firstSpace < lastSpace else {
            throw HTTPParserError(.badRequest, "request line is not 'method target version'")
        }
        let methodBytes = buffer[line.lowerBound..<firstSpace]
        let targetBytes = buffer[(firstSpace + 1)..<lastSpace]
        let versionBytes = buffer[(lastSpace + 1)..<line.upperBound]
        guard !methodBytes.isEmpty, methodBytes.allSatisfy(Self.isTokenByte) else {
            throw HTTPParserError(.badRequest, "invalid method")
        }
        guard !targetBytes.isEmpty, targetBytes.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            throw HTTPParserError(.badRequest, "invalid request target (spaces, control characters or non-ASCII)")
        }
        let version = try parseVersion(versionBytes)
        let method = String(decoding: methodBytes, as: UTF8.self)
        guard limits.methods.contains(method) else {
            throw HTTPParserError(.notImplemented, "method \(method) is not implemented")
        }
        let target = String(decoding: targetBytes, as: UTF8.self)
        let (path, query) = try Self.splitTarget(target, method: method)
        return HTTPRequestHead(method: method, target: target, path: path, query: query, version: version,
                               headers: HTTPHeaders(), keepAlive: false, expectsContinue: false, framing: .none)
    }

    private func parseVersion(_ bytes: ArraySlice<UInt8>) throws(HTTPParserError) -> HTTPVersion {
        let digits = Array(bytes)
        guard digits.count == 8, digits[0..<5].elementsEqual("HTTP/".utf8), digits[6] == 46,
              (48...57).contains(digits[5]), (48...57).contains(digits[7]) else {
            throw HTTPParserError(.badRequest, "invalid HTTP version")
        }
        let version = HTTPVersion(major: Int(digits[5] - 48), minor: Int(digits[7] - 48))
        guard version == .http1_1 || version == .http1_0 else {
            throw HTTPParserError(.versionNotSupported, "\(version) is not supported (HTTP/1.0 and HTTP/1.1 only)")
        }
        return version
    }

    /// Splits a request-target into its percent-encoded path and query, checking the form
    /// (origin, absolute, or `*` for OPTIONS) and the percent-encoding.
    static func splitTarget(_ target: String, method: String) throws(HTTPParserError) -> (path: String, query: String?) {
        if target == "*" {
            guard method == "OPTIONS" else {
                throw HTTPParserError(.badRequest, "asterisk-form target is only allowed for OPTIONS")
            }
            return ("*", nil)
        }
        var rest = Substring(target)
        if !rest.hasPrefix("/") {
            // absolute-form: http(s)://authority[/path][?query]
            let lower = rest.prefix(8).lowercased()
            let schemeLength = lower.hasPrefix("http://") ? 7 : lower.hasPrefix("https://") ? 8 : 0
            guard schemeLength > 0 else {
                throw HTTPParserError(.badRequest, "request target must start with '/' or 'http(s)://'")
            }
            rest = rest.dropFirst(schemeLength)
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            guard authorityEnd > rest.startIndex else {
                throw HTTPParserError(.badRequest, "absolute request target without a host")
            }
            rest = rest[authorityEnd...]
            if !rest.hasPrefix("/") { rest = "/" + rest }
        }
        guard !rest.contains("#") else {
            throw HTTPParserError(.badRequest, "fragment ('#') in request target")
        }
        let path: Substring, query: Substring?
        if let mark = rest.firstIndex(of: "?") {
            path = rest[..<mark]
            query = rest[rest.index(after: mark)...]
        } else {
            path = rest
            query = nil
        }
        guard isValidPercentEncoding(path.utf8), query.map({ isValidPercentEncoding($0.utf8) }) ?? true else {
            throw HTTPParserError(.badRequest, "malformed percent-encoding in request target")
        }
        return (String(path), query.map(String.init))
    }

    /// Every `%` is followed by two hex digits.
    static func isValidPercentEncoding<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            if byte == 37 {
                guard let high = iterator.next(), hexValue(high) != nil,
                      let low = iterator.next(), hexValue(low) != nil else { return false }
            }
        }
        return true
    }

    // MARK: - Header fields

    private func parseField(_ line: Range<Int>, isTrailer: Bool) throws(HTTPParserError) -> (String, String) {
        let first = buffer[line.lowerBound]
        if first == 32 || first == 9 {
            throw HTTPParserError(.badRequest, "obsolete line folding (header line starting with whitespace)")
        }
        guard let colon = buffer[line].firstIndex(of: 58) else {
            throw HTTPParserError(.badRequest, "header line without ':'")
        }
        let nameBytes = buffer[line.lowerBound..<colon]
        guard !nameBytes.isEmpty else {
            throw HTTPParserError(.badRequest, "empty header name")
        }
        guard nameBytes.allSatisfy(Self.isTokenByte) else {
            let last = nameBytes.last!
            throw HTTPParserError(.badRequest, last == 32 || last == 9
                                  ? "whitespace between header name and ':'" : "invalid character in header name")
        }
        var start = colon + 1, end = line.upperBound
        while start < end, buffer[start] == 32 || buffer[start] == 9 { start += 1 }
        while end > start, buffer[end - 1] == 32 || buffer[end - 1] == 9 { end -= 1 }
        let valueBytes = buffer[start..<end]
        // field-vchar / SP / HTAB; obs-text (0x80-0xFF) is tolerated, CTLs (CR, LF, NUL...) are not.
        guard valueBytes.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else {
            throw HTTPParserError(.badRequest, "control character in value of header \(String(decoding: nameBytes, as: UTF8.self))")
        }
        return (String(decoding: nameBytes, as: UTF8.self), String(decoding: valueBytes, as: UTF8.self))
    }

    /// Decides framing, persistence and expectations once the header section is complete.
    private mutating func finishHead() throws(HTTPParserError) -> HTTPRequestHead {
        guard var head = self.head else { preconditionFailure("head finished without a request line") }
        head.headers = headers

        if head.version == .http1_1 {
            let hosts = headers.values(for: "Host").count
            guard hosts == 1 else {
                throw HTTPParserError(.badRequest, hosts == 0 ? "HTTP/1.1 request without Host" : "more than one Host header")
            }
        }

        let hasTransferEncoding = headers.contains("Transfer-Encoding")
        let lengths = headers.values(for: "Content-Length")
        var framing = HTTPRequestHead.BodyFraming.none
        if hasTransferEncoding {
            guard head.version == .http1_1 else {
                throw HTTPParserError(.badRequest, "Transfer-Encoding in an HTTP/1.0 request")
            }
            guard lengths.isEmpty else {
                throw HTTPParserError(.badRequest, "both Content-Length and Transfer-Encoding")
            }
            let codings = headers.tokens(for: "Transfer-Encoding")
            guard codings.last == "chunked" else {
                throw HTTPParserError(.badRequest, "Transfer-Encoding does not end with chunked")
            }
            guard codings.count == 1 else {
                if codings.dropLast().contains("chunked") {
                    throw HTTPParserError(.badRequest, "chunked applied more than once")
                }
                throw HTTPParserError(.unsupportedTransferCoding, "transfer coding \(codings[0]) is not supported")
            }
            framing = .chunked
        } else if !lengths.isEmpty {
            framing = .length(try Self.contentLength(lengths, limit: limits.maxBodySize))
        }
        if case .length(0) = framing { framing = .none }

        let connection = headers.tokens(for: "Connection")
        if head.version == .http1_1 {
            head.keepAlive = !connection.contains("close")
        } else {
            head.keepAlive = connection.contains("keep-alive") && !connection.contains("close")
        }

        // RFC 9110 §10.1.1: ignore Expect in HTTP/1.0; only 100-continue is defined.
        let expectations = headers.values(for: "Expect")
        if head.version == .http1_1, !expectations.isEmpty {
            guard expectations.count == 1, expectations[0].lowercased() == "100-continue" else {
                throw HTTPParserError(.expectationFailed, "unsupported expectation: \(expectations.joined(separator: ", "))")
            }
            head.expectsContinue = framing != .none
        }

        head.framing = framing
        switch framing {
        case .none: state = .body(remaining: 0)
        case .length(let count):
            body.reserveCapacity(count)
            state = .body(remaining: count)
        case .chunked: state = .chunkSize
        }
        self.head = head
        return head
    }

    /// The one value every `Content-Length` field (and comma-separated element) agrees on.
    static func contentLength(_ values: [String], limit: Int) throws(HTTPParserError) -> Int {
        var agreed: Substring?
        for value in values {
            for element in value.split(separator: ",", omittingEmptySubsequences: false) {
                var digits = Substring(element.trimmingHTTPWhitespace())
                guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
                    throw HTTPParserError(.badRequest, "invalid Content-Length: \(value)")
                }
                digits = digits.drop { $0 == "0" }
                if let agreed, agreed != digits {
                    throw HTTPParserError(.badRequest, "differing Content-Length values")
                }
                agreed = digits
            }
        }
        guard let digits = agreed else { throw HTTPParserError(.badRequest, "empty Content-Length") }
        guard digits.count <= 18, let length = Int(digits.isEmpty ? "0" : digits), length <= limit else {
            throw HTTPParserError(.bodyTooLarge, "body of \(digits) bytes is larger than \(limit)")
        }
        return length
    }

    // MARK: - Chunked bodies

    private func parseChunkSize(_ line: Range<Int>) throws(HTTPParserError) -> Int {
        var index = line.lowerBound
        var size = 0
        var digits = 0
        while index < line.upperBound, let value = Self.hexValue(buffer[index]) {
            digits += 1
            guard digits <= 15 else {
                throw HTTPParserError(.bodyTooLarge, "chunk size has too many digits")
            }
            size = size << 4 | value
            index += 1
        }
        guard digits > 0 else { throw HTTPParserError(.badRequest, "invalid chunk size") }
        if index < line.upperBound {
            // chunk-ext: BWS ";" ... — accepted and ignored, but no control characters.
            while index < line.upperBound, buffer[index] == 32 || buffer[index] == 9 { index += 1 }
            guard index < line.upperBound, buffer[index] == 59,
                  buffer[index..<line.upperBound].allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else {
                throw HTTPParserError(.badRequest, "invalid chunk size line")
            }
        }
        guard size <= limits.maxBodySize - body.count else {
            throw HTTPParserError(.bodyTooLarge, "chunked body larger than \(limits.maxBodySize) bytes")
        }
        return size
    }

    private mutating func finishMessage() -> Event {
        let event = Event.end(body: body, trailers: trailers)
        state = .requestLine
        head = nil
        headers = HTTPHeaders()
        trailers = HTTPHeaders()
        headerBytes = 0
        emptyLinesBeforeRequest = 0
        body = []
        return event
    }

    // MARK: - Character classes

    /// RFC 9110 tchar: ALPHA / DIGIT / "!#$%&'*+-.^_`|~".
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 48...57, 65...90, 97...122: return true
        case 33, 35, 36, 37, 38, 39, 42, 43, 45, 46, 94, 95, 96, 124, 126: return true
        default: return false
        }
    }

    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 48...57: return Int(byte - 48)
        case 65...70: return Int(byte - 55)
        case 97...102: return Int(byte - 87)
        default: return nil
        }
    }
}
