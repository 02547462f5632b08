import BinderyProtocol
import Foundation
import RxCore
import RxWidgets

/// Why a session could not be created.
public enum SessionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No scene of that name is registered.
    case unknownScene(String)
    /// The server holds ``SessionStore/Configuration/maxSessions`` sessions.
    case tooManySessions
    /// This client address holds ``SessionStore/Configuration/maxSessionsPerAddress``.
    case tooManySessionsForAddress(String)
    /// The scene's factory threw, or its widgets could not be added.
    case sceneFailed(String)
    /// The scene's parameters are missing or wrong (it threw a ``SceneParameterError``).
    case badParameter(String)
    /// The session store (`--store`) is unreachable: no session can be made or taken over.
    case storeUnavailable

    /// The HTTP status that goes with it (404, 503, 429, 500, 400).
    public var httpStatus: Int {
        switch self {
        case .unknownScene: return 404
        case .tooManySessions: return 503
        case .tooManySessionsForAddress: return 429
        case .sceneFailed: return 500
        case .badParameter: return 400
        case .storeUnavailable: return 503
        }
    }

    /// A short code for JSON bodies (`unknown-scene`, `too-many-sessions`, ...).
    public var code: String {
        switch self {
        case .unknownScene: return "unknown-scene"
        case .tooManySessions: return "too-many-sessions"
        case .tooManySessionsForAddress: return "too-many-sessions-for-address"
        case .sceneFailed: return "scene-failed"
        case .badParameter: return ErrorCode.badParameter.rawValue
        case .storeUnavailable: return ErrorCode.storeUnavailable.rawValue
        }
    }

    /// A readable message.
    public var description: String {
        switch self {
        case .unknownScene(let name): return "no scene named '\(name)'"
        case .tooManySessions: return "the server has too many sessions; try again later"
        case .tooManySessionsForAddress(let address): return "too many sessions for \(address)"
        case .sceneFailed(let message), .badParameter(let message): return message
        case .storeUnavailable: return "the session store is unavailable; try again shortly"
        }
    }
}

/// Every live session, by token; the shared scenes' instances; the session limits and
/// the grace timers.
///
/// Timers run on ``scheduler`` (the loop's `MainScheduler` in the server, a
/// `TestScheduler` in tests: virtual time), and changes that no client event caused are
/// flushed through ``flushScheduler`` (`MainScheduler.asyncInstance`: once, at a later
/// loop turn; in tests, when the virtual clock advances — or call ``Session/flush()``).
///
/// Loop-confined.
public final class SessionStore {
    /// Limits and timings.
    public struct Configuration: Sendable {
        /// How long a session without connections lives (resumable) before it ends.
        /// Default 30 s.
        public var gracePeriod: Duration
        /// The most sessions the server holds; more are refused (503). Default 10,000.
        public var maxSessions: Int
        /// The most sessions one client address holds; more are refused (429). Default 100.
        public var maxSessionsPerAddress: Int
        /// Events per second allowed per session (token bucket, bursts of the same size);
        /// more are answered `rate-limited`. Nil (the default): no limit.
        public var maxEventsPerSecond: Int?
        /// Binding errors are fatal (tests). Default: `BINDERY_STRICT=1` in the environment.
        public var strictBindingErrors: Bool
        /// The largest uploaded file, in bytes (`--max-upload-size`); also the most one
        /// picker holds at once. A picker's `maxFileSize` may lower it. Default 10 MiB.
        public var maxUploadSize: Int = 10 << 20

        /// The defaults, overridden where given.
        public init(gracePeriod: Duration = .seconds(30), maxSessions: Int = 10_000, maxSessionsPerAddress: Int = 100,
                    maxEventsPerSecond: Int? = nil,
                    strictBindingErrors: Bool = ProcessInfo.processInfo.environment["BINDERY_STRICT"] == "1") {
            self.gracePeriod = gracePeriod
            self.maxSessions = maxSessions
            self.maxSessionsPerAddress = maxSessionsPerAddress
            self.maxEventsPerSecond = maxEventsPerSecond
            self.strictBindingErrors = strictBindingErrors
        }
    }

    /// The scenes.
    public let registry: SceneRegistry
    /// The limits.
    public let configuration: Configuration
    /// Timers (grace periods, and the scenes' own through ``SceneContext/scheduler``).
    public let scheduler: SchedulerType
    /// Where coalesced changes are flushed.
    public let flushScheduler: ImmediateSchedulerType
    /// Counters for `/metrics`.
    public let metrics: Metrics
    /// Session lifecycle log lines (created, resumed, expired...); none by default.
    public var logger: ((String) -> Void)?
    /// The durable side, set by a layer above (``SessionStoreBacking``); nil: sessions
    /// live in memory only.
    package var backing: SessionStoreBacking?

    package var byID: [String: Session] = [:]
    var perAddress: [String: Int] = [:]
    private var sharedHosts: [String: SceneHost] = [:]
    let hooks: SessionHooks
    private var generator = SystemRandomNumberGenerator()

    /// A store for `registry`'s scenes.
    ///
    /// - Parameters:
    ///   - scheduler: for timers; `MainScheduler.instance` by default.
    ///   - flushScheduler: defers the flush of coalesced changes; `MainScheduler.asyncInstance`.
    public init(registry: SceneRegistry, configuration: Configuration = Configuration(),
                scheduler: SchedulerType = MainScheduler.instance,
                flushScheduler: ImmediateSchedulerType = MainScheduler.asyncInstance,
                metrics: Metrics = Metrics()) {
        self.registry = registry
        self.configuration = configuration
        self.scheduler = scheduler
        self.flushScheduler = flushScheduler
        self.metrics = metrics
        self.hooks = SessionHooks(metrics: metrics)
        BindingErrorRouter.install()
        if configuration.strictBindingErrors { BindingErrorRouter.strict = true }
    }

    // MARK: - Creating, finding, resuming

    /// Creates a session of the scene `name`, opened with `parameters` (the scene's
    /// ``SceneContext/parameters``, kept as ``Session/sceneParameters``) on the screens
    /// `screenPath` names (``SceneContext/screenPath``).
    ///
    /// - Throws: ``SessionError``: unknown scene, a limit reached, bad parameters, or the
    ///   scene failed to build.
    public func createSession(scene name: String, parameters: [String: String] = [:], screenPath: [String] = [],
                              clientAddress: String? = nil) throws(SessionError) -> Session {
        try createSession(scene: name, parameters: parameters, screenPath: screenPath, clientAddress: clientAddress, token: nil)
    }

    /// Creates a session under `token` (a new one when nil).
    package func createSession(scene name: String, parameters: [String: String], screenPath: [String],
                               clientAddress: String?, token: String?) throws(SessionError) -> Session {
        guard let definition = registry.scene(named: name) else { throw .unknownScene(name) }
        if definition.sharing == .perConnection, backing?.refusesNewSessions == true {
            throw .storeUnavailable
        }
        guard byID.count < configuration.maxSessions else {
            metrics.sessionsRefused += 1
            throw .tooManySessions
        }
        if let clientAddress, perAddress[clientAddress, default: 0] >= configuration.maxSessionsPerAddress {
            metrics.sessionsRefused += 1
            throw .tooManySessionsForAddress(clientAddress)
        }
        let host: SceneHost
        do throws(ProtocolError) {
            host = try self.host(for: definition, parameters: parameters, screenPath: screenPath)
        } catch {
            log("scene '\(name)' failed to build: \(error.message)")
            if error.code == .badParameter { throw .badParameter(error.message) }
            throw .sceneFailed(error.message)
        }
        let session = Session(id: token ?? makeToken(), host: host, clientAddress: clientAddress, createdAt: scheduler.now)
        session.store = self
        session.sceneParameters = definition.sharing == .shared ? [:] : parameters
        if let rate = configuration.maxEventsPerSecond, rate > 0 {
            session.rateLimiter = RateLimiter(rate: Double(rate), burst: Double(rate))
        }
        host.attach(session)
        byID[session.id] = session
        if let clientAddress { perAddress[clientAddress, default: 0] += 1 }
        metrics.sessionsCreated += 1
        log("session \(session.shortID) created (\(name)\(clientAddress.map { ", " + $0 } ?? ""))")
        startGraceTimer(session)
        backing?.created(session, minted: token == nil)
        return session
    }

    /// The live session with token `id`.
    public func session(id: String) -> Session? {
        byID[id]
    }

    /// The session with `token` if it is live, of scene `name` and opened with the same
    /// `parameters` (a resume), else a new session of `name` (on the screens `screenPath`
    /// names). The other session, if any, is left untouched.
    ///
    /// - Returns: the session and whether it was resumed.
    public func resumeOrCreate(scene name: String, token: String?, parameters: [String: String] = [:],
                               screenPath: [String] = [], clientAddress: String? = nil)
        throws(SessionError) -> (session: Session, resumed: Bool) {
        if let token, let session = byID[token], session.sceneName == name, !session.isEnded,
           session.sceneParameters == parameters || session.scene.sharing == .shared {
            metrics.sessionsResumed += 1
            log("session \(session.shortID) resumed (\(name))")
            return (session, true)
        }
        // A shared scene's session holds nothing of its own: when the scene spans
        // processes, any process resumes it under the same token.
        if let token, backing?.spansProcesses == true, byID[token] == nil, registry.scene(named: name)?.sharing == .shared,
           Self.isWellFormed(token: token) {
            let session = try createSession(scene: name, parameters: [:], screenPath: [], clientAddress: clientAddress, token: token)
            backing?.resumedShared(session)
            metrics.sessionsResumed += 1
            log("session \(session.shortID) resumed (\(name), shared across processes)")
            return (session, true)
        }
        return (try createSession(scene: name, parameters: parameters, screenPath: screenPath, clientAddress: clientAddress), false)
    }

    /// Every live session.
    public var sessions: [Session] { Array(byID.values) }

    /// The number of live sessions.
    public var sessionCount: Int { byID.count }

    /// Ends `session` (`bye`, `DELETE`, expiry, shutdown): its clients get `bye` and are
    /// closed, and its scene instance is released (per-connection scenes).
    public func end(_ session: Session, reason: String) {
        guard byID[session.id] === session else {
            session.finish(reason: reason)
            return
        }
        byID[session.id] = nil
        if let address = session.clientAddress {
            let remaining = perAddress[address, default: 1] - 1
            perAddress[address] = remaining > 0 ? remaining : nil
        }
        metrics.sessionsEnded += 1
        log("session \(session.shortID) ended (\(reason))")
        backing?.ending(session, reason: reason)
        session.finish(reason: reason)
    }

    /// Ends every session (server shutdown).
    public func endAll(reason: String = "shutdown") {
        for session in Array(byID.values) { end(session, reason: reason) }
    }

    // MARK: - Grace period

    /// HTTP activity on a session without connections restarts its grace timer.
    package func touch(_ session: Session) {
        if session.clients.isEmpty, !session.isEnded { startGraceTimer(session) }
    }

    func clientAttached(_ session: Session) {
        session.graceTimer?.dispose()
        session.graceTimer = nil
        metrics.clientsConnected += 1
    }

    func clientDetached(_ session: Session) {
        metrics.clientsConnected -= 1
        if session.clients.isEmpty, !session.isEnded {
            log("session \(session.shortID) detached; resumable for \(configuration.gracePeriod)")
            startGraceTimer(session)
        }
    }

    package func startGraceTimer(_ session: Session) {
        session.graceTimer?.dispose()
        let components = configuration.gracePeriod.components
        let milliseconds = Int(clamping: components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)
        session.graceTimer = scheduler.scheduleRelative((), dueTime: .milliseconds(milliseconds)) { [weak self, session] _ in
            // The session is held, not weakly (that would give it a side table and its
            // every retain and release the slow path): the timer lets go when it fires.
            session.graceTimer = nil
            if let self, session.clients.isEmpty {
                self.end(session, reason: "expired")
            }
            return Disposables.create()
        }
    }

    // MARK: - Internals

    package func host(for definition: SceneDefinition, parameters: [String: String] = [:], screenPath: [String] = [])
        throws(ProtocolError) -> SceneHost {
        if definition.sharing == .shared, let host = sharedHosts[definition.name] { return host }
        // A shared scene is one instance for everybody: nobody's parameters are its own.
        let shared = definition.sharing == .shared
        let host = try SceneHost(definition: definition, scheduler: scheduler, flushScheduler: flushScheduler, hooks: hooks,
                                 parameters: shared ? [:] : parameters, screenPath: shared ? [] : screenPath)
        if shared {
            sharedHosts[definition.name] = host
            backing?.built(sharedHost: host)
        }
        return host
    }

    /// 128 random bits from the system's CSPRNG, base64url without padding (22 chars).
    private func makeToken() -> String {
        var token: String
        repeat {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(16)
            for _ in 0..<2 {
                var word = generator.next()
                for _ in 0..<8 {
                    bytes.append(UInt8(truncatingIfNeeded: word))
                    word >>= 8
                }
            }
            token = Self.base64url(bytes)
        } while byID[token] != nil
        return token
    }

    /// 22 base64url characters: what ``SessionStore`` mints.
    package static func isWellFormed(token: String) -> Bool {
        token.utf8.count == 22 && token.utf8.allSatisfy(isBase64URL)
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): return true
        default: return false
        }
    }

    static func base64url(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        var index = 0
        while index + 3 <= bytes.count {
            let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int((n >> UInt32(shift)) & 63)]) }
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            var n = UInt32(bytes[index]) << 16
            if rest == 2 { n |= UInt32(bytes[index + 1]) << 8 }
            out.append(alphabet[Int((n >> 18) & 63)])
            out.append(alphabet[Int((n >> 12) & 63)])
            if rest == 2 { out.append(alphabet[Int((n >> 6) & 63)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    package func log(_ line: String) {
        logger?(line)
    }
}

/// The durable side of a ``SessionStore`` (session persistence, shared scenes across
/// processes), which the cluster keeps: told what happens to sessions, asked before new
/// ones are made. Loop-confined.
package protocol SessionStoreBacking: AnyObject {
    /// Whether new sessions of per-connection scenes are refused now (the store is
    /// unavailable, or the server drains).
    var refusesNewSessions: Bool { get }
    /// Whether a shared scene's session may be resumed here under a token another
    /// process made (the shared scenes span processes).
    var spansProcesses: Bool { get }
    /// `session` was made here: under a new token (`minted`), or one resumed or taken over.
    func created(_ session: Session, minted: Bool)
    /// A shared scene's session was resumed here under a token no session here held.
    func resumedShared(_ session: Session)
    /// `session` is ending for `reason` (its clients not yet told).
    func ending(_ session: Session, reason: String)
    /// A shared scene's one instance here was built.
    func built(sharedHost host: SceneHost)
}
