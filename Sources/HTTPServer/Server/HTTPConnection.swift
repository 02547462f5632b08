import EventLoop

/// One HTTP/1.1 connection: reads and parses requests, dispatches them one at a time
/// (so pipelined responses go out in order), writes responses, and enforces the
/// timeouts and buffer limits of ``HTTPServer/Configuration``.
///
/// Loop-confined (all of it runs in `TCPConnection` and `LoopTimer` callbacks or in
/// ``HTTPResponder`` calls, which check the thread).
final class HTTPConnection {
    enum State {
        /// Reading and answering requests.
        case open
        /// Last response queued, FIN sent; reading and discarding until the client closes
        /// or the linger timeout.
        case lingering
        /// Handed to an upgrade handler.
        case upgraded
        case closed
    }

    private enum TimerMode: Equatable {
        /// Reading a request head / body; idle between requests.
        case none, header, body, idle
        /// Bytes are queued for a client: they must drain (some progress) within
        /// `sendTimeout`.
        case send
        /// FIN sent after the last byte: waiting for the client to close.
        case linger
    }

    let tcp: TCPConnection
    let server: HTTPServer
    private let configuration: HTTPServer.Configuration
    private var parser: HTTPRequestParser
    private let timer: LoopTimer
    private var timerMode = TimerMode.none
    private(set) var state = State.open
    let remoteAddress: SocketAddress?

    private var pendingHead: HTTPRequestHead?
    /// The request being answered.
    private var current: HTTPResponder?
    private var isProcessing = false
    private var peerClosed = false
    /// Paused because the outgoing queue is above the limit.
    private var waitingForDrain = false
    private var readingPaused = false
    private var receivedAnything = false
    private var discardedWhileLingering = 0
    /// `tcp.shutdown` has completed: every queued byte went out, then FIN.
    private var finSent = false
    /// `writeQueueSize` when the send watchdog was armed.
    private var queuedAtSendCheck = 0

    /// Accept order: the lower, the longer it has been open.
    let serial: UInt64

    init(tcp: TCPConnection, server: HTTPServer, serial: UInt64) {
        self.serial = serial
        self.tcp = tcp
        self.server = server
        self.configuration = server.configuration
        self.parser = HTTPRequestParser(limits: server.configuration.limits)
        self.timer = LoopTimer(loop: tcp.loop)
        self.remoteAddress = tcp.peerAddress
    }

    /// Starts reading; the first request head must arrive within the header timeout.
    func start() {
        try? tcp.setNoDelay(true)
        do {
            try tcp.startReading { [self] event in didRead(event) }
        } catch {
            close(.clientClosed)
            return
        }
        arm(.header)
    }

    /// When it was accepted.
    let acceptedAt = ContinuousClock.now

    /// How readily a full server drops this connection to admit another (lowest first),
    /// or nil if it must not: only a connection the server is waiting on qualifies, never
    /// one being answered. First those that sent part of a request head and stalled (a
    /// slow client, or slowloris), then those idle between requests, last those that have
    /// sent nothing yet; one accepted less than `graceForFirstBytes` ago not at all (its
    /// request is likely still on its way).
    func evictionRank(now: ContinuousClock.Instant) -> Int? {
        guard state == .open, current == nil, !waitingForDrain else { return nil }
        switch timerMode {
        case .header:
            if receivedAnything { return 0 }
            return acceptedAt.duration(to: now) >= Self.graceForFirstBytes ? 2 : nil
        case .idle: return 1
        default: return nil
        }
    }

    private static let graceForFirstBytes = Duration.milliseconds(100)

    /// Answers `503` and closes: the server is at its connection limit.
    func refuse() {
        state = .lingering
        var response = HTTPResponse.error(503, "too many connections")
        response.headers.add(name: "Retry-After", value: "1")
        writeWhole(response, isHead: false, keepAlive: false)
        recordRefusal(status: 503, bytes: response.body.count)
        try? tcp.startReading { [self] event in didRead(event) }
        startLingering()
    }

    // MARK: - Reading

    private func didRead(_ event: TCPConnection.ReadEvent) {
        switch event {
        case .bytes(let bytes):
            switch state {
            case .open:
                receivedAnything = true
                if current == nil, !parser.hasPartialRequest, timerMode == .idle {
                    arm(.header)
                }
                parser.append(bytes)
                if current != nil || waitingForDrain {
                    if parser.bufferedByteCount > configuration.maxBufferedInputBytes { pauseReading() }
                } else {
                    processInput()
                }
            case .lingering:
                discardedWhileLingering += bytes.count
                if discardedWhileLingering > configuration.limits.maxBodySize + 64 * 1024 { close(.clientClosed) }
            case .upgraded, .closed:
                break
            }
        case .eof:
            peerClosed = true
            switch state {
            case .open:
                if let current {
                    // A half-closed client may still want its answer; an event stream has
                    // no end to wait for, so EOF there means the client left.
                    if current.isEventStream, case .streaming = current.state { close(.clientClosed) }
                } else {
                    processInput()
                }
            case .lingering:
                // Not before the queued response is out (the FIN callback closes then).
                if finSent { close(.clientClosed) }
            case .upgraded, .closed:
                break
            }
        case .error:
            if state != .upgraded { close(.clientClosed) }
        }
    }

    private func pauseReading() {
        guard !readingPaused else { return }
        readingPaused = true
        tcp.stopReading()
    }

    private func resumeReadingIfPossible() {
        guard readingPaused, state == .open, !waitingForDrain, !peerClosed,
              parser.bufferedByteCount <= configuration.maxBufferedInputBytes else { return }
        readingPaused = false
        do {
            try tcp.startReading { [self] event in didRead(event) }
        } catch {
            close(.clientClosed)
        }
    }

    /// Parses and dispatches buffered requests until one is pending or input runs out.
    private func processInput() {
        guard !isProcessing else { return }
        isProcessing = true
        defer { isProcessing = false }
        while state == .open, current == nil, !waitingForDrain {
            let event: HTTPRequestParser.Event?
            do {
                event = try parser.next()
            } catch {
                fail(error)
                return
            }
            guard let event else { break }
            switch event {
            case .head(let head):
                pendingHead = head
                if parser.isReadingBody, head.framing != .none {
                    arm(.body)
                    if head.expectsContinue {
                        write(WriteBuffer("HTTP/1.1 100 Continue\r\n\r\n"))
                    }
                } else {
                    arm(.none)
                }
            case .end(let body, let trailers):
                guard let head = pendingHead else { preconditionFailure("request end without head") }
                pendingHead = nil
                arm(.none)
                dispatch(HTTPRequest(head: head, body: body, trailers: trailers, remoteAddress: remoteAddress))
            }
        }
        guard state == .open, current == nil, !waitingForDrain else { return }
        if peerClosed {
            // Whatever is left is an incomplete request that can no longer complete; queued
            // responses still go out before the connection closes.
            startLingering()
            return
        }
        if parser.hasPartialRequest {
            if timerMode != .body { arm(parser.isReadingBody ? .body : .header) }
        } else if server.isShuttingDown {
            startLingering()
            return
        } else {
            arm(.idle)
        }
        resumeReadingIfPossible()
    }

    private func dispatch(_ request: HTTPRequest) {
        var request = request
        let responder = HTTPResponder(connection: self, method: request.method, version: request.version,
                                      keepAlive: request.keepAlive && !server.isShuttingDown)
        responder.path = request.path
        current = responder
        switch server.router.match(method: request.method, path: request.path) {
        case .handler(let handler, let parameters, let pattern):
            request.parameters = parameters
            responder.route = pattern
            handler(request, responder)
        case .upgrade(let handler, let parameters, let pattern):
            request.parameters = parameters
            responder.route = pattern
            handler(request, HTTPUpgrade(request: request, responder: responder))
        case .methodNotAllowed(let allowed):
            responder.respond(server.router.errorResponse(request, 405, "\(request.method) is not allowed here",
                                                          headers: ["Allow": allowed.joined(separator: ", ")]))
        case .badPath:
            responder.respond(server.router.errorResponse(request, 400, "path is not valid percent-encoded UTF-8"))
        case .notFound:
            if let fallback = server.router.fallback {
                fallback(request, responder)
            } else {
                responder.respond(server.router.errorResponse(request, 404, nil))
            }
        }
    }

    /// Answers a parse error and closes.
    private func fail(_ error: HTTPParserError) {
        var response = HTTPResponse.error(error.status, error.message)
        if error.kind == .versionNotSupported {
            response.headers.add(name: "Upgrade", value: "HTTP/1.1")
        }
        writeWhole(response, isHead: false, keepAlive: false)
        recordRefusal(status: response.status, bytes: response.body.count)
        startLingering()
    }

    /// An access record for an answer sent without a request (a bad head, a refusal).
    private func recordRefusal(status: Int, bytes: Int) {
        server.onAccess?(HTTPAccessRecord(method: "-", path: "-", route: nil, status: status, bytes: bytes,
                                          duration: .zero, remoteAddress: remoteAddress))
    }

    // MARK: - Responding (called by HTTPResponder)

    func send(_ response: HTTPResponse, for responder: HTTPResponder) -> Bool {
        guard responder === current, state == .open else { return false }
        // A client that half-closed after pipelining still gets every answer; the
        // connection closes once input runs out (processInput).
        let keepAlive = responder.keepAlive && !server.isShuttingDown
            && !response.headers.containsToken("close", in: "Connection")
        responder.state = .done
        writeWhole(response, isHead: responder.method == "HEAD", keepAlive: keepAlive)
        responder.status = response.status
        responder.bytesSent = responder.method == "HEAD" || response.forbidsBody ? 0 : response.body.count
        responder.record(server, remoteAddress: remoteAddress)
        finishResponse(keepAlive: keepAlive)
        return true
    }

    /// Writes a whole response; the body is left out for HEAD and bodiless statuses.
    private func writeWhole(_ response: HTTPResponse, isHead: Bool, keepAlive: Bool) {
        let framing: ResponseHead.Framing
        if response.forbidsBody {
            framing = .none
        } else if isHead, response.body.isEmpty,
                  let declared = response.headers["Content-Length"].flatMap(Int.init), declared >= 0 {
            // A HEAD handler may declare the length it did not compute a body for.
            framing = .length(declared)
        } else {
            framing = .length(response.body.count)
        }
        var headers = response.headers
        if !response.body.isEmpty, !headers.contains("Content-Type") {
            headers.add(name: "Content-Type", value: MIMETypes.fallback)
        }
        let head = serializeHead(status: response.status, reason: response.reason, headers: headers,
                                 framing: framing, keepAlive: keepAlive, version: current?.version ?? .http1_1)
        if isHead || response.forbidsBody || response.body.isEmpty {
            write(head)
        } else if response.body.count <= 16 * 1024 {
            head.append(contentsOf: response.body)
            write(head)
        } else {
            write([head, WriteBuffer(response.body)])
        }
    }

    func startStream(status: Int, headers: HTTPHeaders, for responder: HTTPResponder) -> Bool {
        guard responder === current, state == .open else { return false }
        if responder.isEventStream, peerClosed {
            // The client left while the handler was getting ready (the EOF came while the
            // answer was pending): nobody will read the stream, and no later EOF will tell.
            close(.clientClosed)
            return false
        }
        var framing: ResponseHead.Framing
        var remaining = 0
        if let declared = headers["Content-Length"].flatMap(Int.init), declared >= 0 {
            framing = .length(declared)
            remaining = declared
        } else if responder.version == .http1_1 {
            framing = .chunked
        } else {
            framing = .untilClose
            responder.keepAlive = false
        }
        if (100..<200).contains(status) || status == 204 || status == 304 { framing = .none }
        let keepAlive = responder.keepAlive && !server.isShuttingDown
            && !headers.containsToken("close", in: "Connection")
        responder.keepAlive = keepAlive
        write(serializeHead(status: status, reason: HTTPStatus.reason(for: status), headers: headers,
                            framing: framing, keepAlive: keepAlive, version: responder.version))
        responder.state = .streaming(framing, remaining: remaining)
        responder.status = status
        return true
    }

    func writeStream(_ bytes: [UInt8], for responder: HTTPResponder, completion: ((Bool) -> Void)?) -> Bool {
        guard responder === current, state == .open,
              case .streaming(let framing, let remaining) = responder.state else { return false }
        guard !bytes.isEmpty else { return true }
        if case .length = framing, bytes.count > remaining { return false }
        if tcp.writeQueueSize + bytes.count > configuration.maxOutgoingBufferBytes {
            close(.backpressure)
            return false
        }
        if responder.method == "HEAD" {
            completion?(true)
            return true
        }
        responder.bytesSent += bytes.count
        let buffer: WriteBuffer
        switch framing {
        case .chunked:
            buffer = WriteBuffer(capacity: bytes.count + 16)
            buffer.append(String(bytes.count, radix: 16) + "\r\n")
            buffer.append(contentsOf: bytes)
            buffer.append("\r\n")
        case .length:
            responder.state = .streaming(framing, remaining: remaining - bytes.count)
            buffer = WriteBuffer(bytes)
        case .untilClose:
            buffer = WriteBuffer(bytes)
        case .none:
            return false
        }
        write(buffer, completion: completion)
        return true
    }

    func endStream(for responder: HTTPResponder) {
        guard responder === current, state == .open,
              case .streaming(let framing, let remaining) = responder.state else { return }
        responder.state = .done
        var keepAlive = responder.keepAlive && !server.isShuttingDown
        switch framing {
        case .chunked:
            if responder.method != "HEAD" { write(WriteBuffer("0\r\n\r\n")) }
        case .length:
            if remaining > 0 && responder.method != "HEAD" { keepAlive = false }
        case .untilClose:
            keepAlive = false
        case .none:
            break
        }
        responder.record(server, remoteAddress: remoteAddress)
        finishResponse(keepAlive: keepAlive)
    }

    func upgrade(_ response: HTTPResponse, for responder: HTTPResponder, take: (TCPConnection, [UInt8]) -> Void) {
        guard responder === current, state == .open else { return }
        responder.state = .done
        write(serializeHead(status: response.status, reason: response.reason, headers: response.headers,
                            framing: .none, keepAlive: true, version: responder.version))
        responder.status = response.status
        responder.record(server, remoteAddress: remoteAddress)
        state = .upgraded
        current = nil
        arm(.none)
        timer.close()
        tcp.stopReading()
        let rest = parser.takeBufferedBytes()
        server.forget(self)
        take(tcp, rest)
    }

    private func finishResponse(keepAlive: Bool) {
        current = nil
        guard keepAlive else {
            startLingering()
            return
        }
        if tcp.writeQueueSize > configuration.maxOutgoingBufferBytes {
            waitingForDrain = true
            pauseReading()
            arm(.none)
            arm(.send)
            return
        }
        processInput()
    }

    // MARK: - Writing

    private func serializeHead(status: Int, reason: String, headers: HTTPHeaders, framing: ResponseHead.Framing,
                               keepAlive: Bool, version: HTTPVersion) -> WriteBuffer {
        let connection: String?
        if !keepAlive {
            connection = "close"
        } else {
            connection = version == .http1_0 ? "keep-alive" : nil
        }
        return ResponseHead.serialize(status: status, reason: reason, headers: headers, framing: framing,
                                      connection: connection, date: server.dateCache.current(),
                                      serverName: configuration.serverName)
    }

    private func write(_ buffer: WriteBuffer, completion: ((Bool) -> Void)? = nil) {
        write([buffer], completion: completion)
    }

    private func write(_ buffers: [WriteBuffer], completion: ((Bool) -> Void)? = nil) {
        defer {
            // Watch the client take what was queued (unless a read timer is running).
            if timerMode == .none, tcp.writeQueueSize > 0 { arm(.send) }
        }
        do {
            try tcp.write(buffers) { [self] error in
                completion?(error == nil)
                if error != nil {
                    if state == .open || state == .lingering { close(.clientClosed) }
                } else if waitingForDrain, tcp.writeQueueSize <= configuration.maxOutgoingBufferBytes / 2 {
                    waitingForDrain = false
                    processInput()
                }
            }
        } catch {
            completion?(false)
            if state == .open || state == .lingering { close(.clientClosed) }
        }
    }

    // MARK: - Closing

    /// Sends FIN after the queued writes and waits (bounded) for the client to close.
    private func startLingering() {
        guard state == .open || state == .lingering else { return }
        state = .lingering
        if let current, !current.isClosed { current.connectionClosed(.clientClosed) }
        current = nil
        // First the queued bytes must drain (send watchdog), then the client may take up
        // to lingerTimeout to close after our FIN.
        arm(.none)
        arm(.send)
        do {
            try tcp.shutdown { [self] _ in
                finSent = true
                if peerClosed {
                    close(.clientClosed)
                } else if state == .lingering {
                    arm(.none)
                    arm(.linger)
                }
            }
        } catch {
            close(.clientClosed)
            return
        }
        if readingPaused {
            readingPaused = false
            do { try tcp.startReading { [self] event in didRead(event) } } catch { close(.clientClosed) }
        }
    }

    /// Closes now; a response still pending learns why through its `onClose`.
    func close(_ reason: HTTPResponder.CloseReason) {
        guard state != .closed, state != .upgraded else { return }
        state = .closed
        timerMode = .none
        timer.close()
        tcp.close()
        let current = self.current
        self.current = nil
        current?.connectionClosed(reason)
        server.forget(self)
    }

    /// Shutdown: an idle connection closes now (after any queued bytes, with FIN), a busy
    /// one after its response.
    func beginShutdown() {
        guard state == .open else { return }
        if current == nil && !parser.hasPartialRequest {
            startLingering()
        } else {
            current?.keepAlive = false
        }
    }

    // MARK: - Timers

    private func arm(_ mode: TimerMode) {
        guard mode != timerMode, !timer.isClosed else { return }
        timerMode = mode
        let delay: Duration
        switch mode {
        case .none:
            timer.stop()
            return
        case .header: delay = configuration.headerReadTimeout
        case .body: delay = configuration.bodyReadTimeout
        case .idle: delay = configuration.idleTimeout
        case .linger: delay = configuration.lingerTimeout
        case .send:
            delay = configuration.sendTimeout
            queuedAtSendCheck = tcp.writeQueueSize
        }
        timer.start(after: delay) { [self] in timedOut() }
    }

    private func timedOut() {
        let mode = timerMode
        timerMode = .none
        switch mode {
        case .none:
            break
        case .header, .body:
            guard state == .open, current == nil else { return }
            if receivedAnything {
                writeWhole(.error(408, mode == .header ? "request head not received in time" : "request body not received in time"),
                           isHead: false, keepAlive: false)
                startLingering()
            } else {
                close(.clientClosed)
            }
        case .idle:
            close(.clientClosed)
        case .linger:
            close(.clientClosed)
        case .send:
            guard state == .open || state == .lingering else { return }
            let queued = tcp.writeQueueSize
            if queued > 0, queued >= queuedAtSendCheck {
                // Not a byte taken in a whole sendTimeout: the client stopped reading.
                close(.clientClosed)
            } else if queued > 0 || (state == .lingering && !finSent) {
                arm(.send)
            }
        }
    }
}
