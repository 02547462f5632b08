import BinderyProtocol
import BinderyRuntime
import EventLoop
import Foundation
import Redis
import Synchronization

/// A ``SessionPersistence`` on Redis (`--store redis://HOST:PORT` or
/// `--store redis+unix:///path`), reached through one ``RedisConnection`` on the loop.
///
/// Keys (prefix `bindery:`): `proc:<id>` (this process's lease, `SET PX 3000` each
/// second), `s:<token>` (a hash: scene, created, owner, epoch, seq, mode, state) and
/// `s:<token>:log` (the journal list), both with a TTL of ``timeToLive``. Each write is
/// one fenced Lua call (``RedisSessionScripts``); the calls made in one loop turn go out
/// in one pipelined write, and Redis answers them in order.
///
/// Loop-confined.
public final class RedisSessionPersistence: SessionPersistence {
    /// The connection.
    public let connection: RedisConnection
    /// This process's id in the lease key and in `owner` fields (`host-pid`).
    public let processID: String
    /// This run of the process (start time in ms): `owner` is `processID:incarnation`.
    public let incarnation: String
    /// See ``SessionPersistence/timeToLive``.
    public let timeToLive: Duration
    /// See ``SessionPersistence/onAvailabilityChange``.
    public var onAvailabilityChange: ((Bool) -> Void)?
    /// Called with a line worth logging (connection lost, back).
    public var logger: ((String) -> Void)?
    /// See ``SessionPersistence/onReleaseRequest``.
    public var onReleaseRequest: ((_ token: String, _ done: @escaping () -> Void) -> Void)?
    /// How long a takeover waits for a live owner to release the session before it
    /// raises the epoch anyway (zero: no hint, at once).
    public var releaseWait: Duration = .milliseconds(200)

    /// Blocking reads of this process's hint list (`bindery:proc:<id>:hints`): release
    /// requests from takers, and "released" from owners this process asked.
    private let hints: RedisConnection
    /// The hint reader's Redis client id, published beside the lease: a taker that finds
    /// it gone (the process died, its sockets closed) does not wait for an answer.
    private var hintsClientID: Int64?
    private var releaseWaiters: [String: () -> Void] = [:]
    private static let instances = Atomic<Int>(0)

    private let ttlText: String
    private var lease: LoopTimer?
    private var wasAvailable = false
    private var everConnected = false
    private var stopped = false
    let metrics = StoreMetrics()

    /// A store at `url` whose sessions outlive their owner by `timeToLive`.
    ///
    /// - Throws: ``RedisEndpoint/ParseError`` for a URL that is not `redis://` or `redis+unix://`.
    public init(url: String, loop: EventLoop, timeToLive: Duration,
                configuration: RedisConnection.Configuration = RedisConnection.Configuration(commandTimeout: .seconds(2)),
                processID: String? = nil) throws(RedisEndpoint.ParseError) {
        connection = try RedisConnection(url: url, loop: loop, configuration: configuration)
        self.timeToLive = timeToLive
        ttlText = String(Self.milliseconds(timeToLive))
        // A second store in one process (tests) gets its own id: leases and hints are per id.
        let index = Self.instances.wrappingAdd(1, ordering: .relaxed).newValue
        self.processID = processID ?? "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"
            + (index > 1 ? ".\(index)" : "")
        hints = RedisConnection(endpoint: connection.endpoint, loop: loop)
        incarnation = String(Int64(Date().timeIntervalSince1970 * 1000))
        for script in RedisSessionScripts.all { connection.register(script) }
        connection.onStateChange = { [weak self] state in self?.stateChanged(state) }
        hints.onStateChange = { [weak self] state in self?.hintsStateChanged(state) }
    }

    /// `processID:incarnation`.
    public var owner: String { "\(processID):\(incarnation)" }

    public var isAvailable: Bool { connection.state == .connected }

    public func start() {
        connection.connect()
        guard lease == nil else { return }
        lease = connection.loop.scheduleTimer(after: .zero, repeating: .seconds(1)) { [weak self] in self?.renewLease() }
        hints.connect()
        readHints()
    }

    // MARK: - Takeover hints

    private var hintKey: String { "bindery:proc:\(processID):hints" }

    private func readHints() {
        guard !stopped else { return }
        hints.send(["BLPOP", hintKey, "1"], timeout: .seconds(5)) { [weak self] result in
            guard let self, !self.stopped else { return }
            guard case .success(let reply) = result else {
                _ = self.connection.loop.scheduleTimer(after: .milliseconds(100)) { [weak self] in self?.readHints() }
                return
            }
            if let pair = reply.array, pair.count == 2, let text = pair[1].string { self.hinted(text) }
            self.readHints()
        }
    }

    /// `r <token> <taker>`: release the session, then tell the taker; `d <token>`: an
    /// owner this process asked has released it.
    private func hinted(_ text: String) {
        let parts = text.split(separator: " ", maxSplits: 2).map(String.init)
        guard parts.count >= 2 else { return }
        let token = parts[1]
        if parts[0] == "d" {
            releaseWaiters.removeValue(forKey: token)?()
        } else if parts[0] == "r", parts.count == 3 {
            let taker = "bindery:proc:\(parts[2]):hints"
            let answer = { [weak self] in
                guard let self else { return }
                self.connection.send(["RPUSH", taker, "d \(token)"]) { _ in }
                self.connection.send(["PEXPIRE", taker, "5000"]) { _ in }
            }
            if let onReleaseRequest { onReleaseRequest(token, answer) } else { answer() }
        }
    }

    private func renewLease() {
        guard isAvailable, !stopped else { return }
        connection.send(["SET", "bindery:proc:\(processID)", incarnation, "PX", "3000"]) { _ in }
        if let hintsClientID {
            connection.send(["SET", "bindery:proc:\(processID):reader", String(hintsClientID), "PX", "3000"]) { _ in }
        }
    }

    private func hintsStateChanged(_ state: RedisConnection.State) {
        hintsClientID = nil
        guard state == .connected else { return }
        // Sent before the next BLPOP on this connection (replies come in order).
        hints.send(["CLIENT", "ID"]) { [weak self] result in
            guard let self, case .success(.integer(let id)) = result else { return }
            self.hintsClientID = id
            self.renewLease()
        }
    }

    private func stateChanged(_ state: RedisConnection.State) {
        let available = state == .connected
        if available, everConnected { metrics.reconnects.increment() }
        if available { everConnected = true }
        guard available != wasAvailable else { return }
        wasAvailable = available
        logger?(available ? "session store connected (\(connection.endpoint))" : "session store unavailable: \(state)")
        if available { renewLease() }
        onAvailabilityChange?(available)
    }

    // MARK: - Writes

    public func create(_ session: StoredSession, completion: @escaping (Result<Void, SessionPersistenceError>) -> Void) {
        call(RedisSessionScripts.create, token: session.token,
             [ttlText, session.scene, String(session.createdAt), owner, session.restoration.rawValue,
              Self.encode(session.parameters)]) { result in
            completion(result.map { _ in })
        }
    }

    public func append(token: String, epoch: Int64, seq: Int?, event: String?, state: String?,
                       completion: @escaping (Result<Void, SessionPersistenceError>) -> Void) {
        let start = DispatchTime.now().uptimeNanoseconds
        let metrics = self.metrics
        call(RedisSessionScripts.append, token: token,
             [String(epoch), ttlText, seq.map(String.init) ?? "", event ?? "", state ?? ""]) { result in
            metrics.writes.increment()
            metrics.writeLatency.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds &- start))
            completion(result.map { _ in })
        }
    }

    /// Asks a live owner to release the session first (it flushes its writes, releases
    /// it and closes its connections with 4001), waiting at most ``releaseWait``; then
    /// raises the epoch, which fences the old owner whether it answered or not.
    public func takeOver(token: String, scene: String?, completion: @escaping (Result<StoredSession?, SessionPersistenceError>) -> Void) {
        guard releaseWait > .zero, releaseWaiters[token] == nil else { return takeOverNow(token: token, scene: scene, completion: completion) }
        call(RedisSessionScripts.hint, token: token, [owner, processID, token, "5000", scene ?? ""]) { [weak self] result in
            guard let self else { return }
            guard case .success(let reply) = result, let asked = reply.array, asked.first?.integer == 1 else {
                return self.takeOverNow(token: token, scene: scene, completion: completion)
            }
            // Waiting from here: the owner's answer can come before CLIENT LIST's.
            self.wait(for: token, scene: scene, completion: completion)
            guard let reader = asked.last?.string, !reader.isEmpty else { return }
            // A dead owner's sockets are closed: its reader is gone, nobody will answer.
            self.connection.send(["CLIENT", "LIST", "ID", reader]) { [weak self] listed in
                guard case .success(let list) = listed, list.string?.isEmpty == true else { return }
                self?.releaseWaiters.removeValue(forKey: token)?()
            }
        }
    }

    private func wait(for token: String, scene: String?, completion: @escaping (Result<StoredSession?, SessionPersistenceError>) -> Void) {
        guard releaseWaiters[token] == nil else { return takeOverNow(token: token, scene: scene, completion: completion) }
        let timer = connection.loop.scheduleTimer(after: releaseWait) { [weak self] in
            self?.releaseWaiters.removeValue(forKey: token)?()
        }
        releaseWaiters[token] = { [weak self] in
            timer.close()
            self?.takeOverNow(token: token, scene: scene, completion: completion)
        }
    }

    private func takeOverNow(token: String, scene: String?, completion: @escaping (Result<StoredSession?, SessionPersistenceError>) -> Void) {
        call(RedisSessionScripts.takeOver, token: token, [owner, ttlText, scene ?? ""]) { [metrics] result in
            switch result {
            case .failure(let error): completion(.failure(error))
            case .success(let value):
                guard let parts = value.array, parts.count == 2, let flat = parts[0].array else {
                    return completion(.success(nil))
                }
                metrics.takeovers.increment()
                completion(.success(Self.session(token: token, hash: flat, journal: parts[1].array ?? [])))
            }
        }
    }

    public func refresh(token: String, epoch: Int64, completion: @escaping (Result<Void, SessionPersistenceError>) -> Void) {
        call(RedisSessionScripts.refresh, token: token, [String(epoch), ttlText, owner]) { completion($0.map { _ in }) }
    }

    public func release(token: String, epoch: Int64, completion: @escaping (Result<Void, SessionPersistenceError>) -> Void) {
        call(RedisSessionScripts.refresh, token: token, [String(epoch), ttlText, ""]) { completion($0.map { _ in }) }
    }

    public func delete(token: String, epoch: Int64, completion: @escaping (Result<Void, SessionPersistenceError>) -> Void) {
        call(RedisSessionScripts.delete, token: token, [String(epoch)]) { completion($0.map { _ in }) }
    }

    public func stop(completion: @escaping () -> Void) {
        stopped = true
        lease?.close()
        lease = nil
        hints.close()
        guard isAvailable else {
            connection.close()
            return completion()
        }
        // Answered after every write made before it (replies come in order).
        connection.send(["DEL", "bindery:proc:\(processID)", "bindery:proc:\(processID):reader"]) { [connection] _ in
            connection.close()
            completion()
        }
    }

    // MARK: - Helpers

    private func call(_ script: RedisScript, token: String, _ arguments: [String],
                      completion: @escaping (Result<RESPValue, SessionPersistenceError>) -> Void) {
        let metrics = self.metrics
        connection.evalSHA(script, keys: ["bindery:s:\(token)", "bindery:s:\(token):log"], arguments: arguments) { result in
            switch result {
            case .success(let value): completion(.success(value))
            // (Redis 7 prefixes `ERR ` to an error reply without a code of its own.)
            case .failure(.server(let message)) where message.hasPrefix("FENCED") || message.hasPrefix("ERR FENCED"):
                metrics.fenced.increment()
                completion(.failure(.fenced))
            case .failure(.server(let message)) where message.hasPrefix("SCENE ") || message.hasPrefix("ERR SCENE "):
                completion(.failure(.otherScene(String(message.split(separator: " ", maxSplits: message.hasPrefix("ERR") ? 2 : 1).last ?? ""))))
            case .failure(let error):
                metrics.errors.increment()
                completion(.failure(.unavailable(error.description)))
            }
        }
    }

    static func session(token: String, hash flat: [RESPValue], journal: [RESPValue]) -> StoredSession {
        var fields: [String: String] = [:]
        var index = 0
        while index + 1 < flat.count {
            if let key = flat[index].string { fields[key] = flat[index + 1].string }
            index += 2
        }
        return StoredSession(token: token, scene: fields["scene"] ?? "", createdAt: Double(fields["created"] ?? "") ?? 0,
                             epoch: Int64(fields["epoch"] ?? "") ?? 0, lastSeq: fields["seq"].flatMap { Int($0) },
                             restoration: SceneRestoration(rawValue: fields["mode"] ?? "") ?? .replay,
                             journal: journal.compactMap(\.string), state: fields["state"], owner: fields["owner"] ?? "",
                             parameters: decode(fields["params"]))
    }

    /// Scene parameters as a JSON object ('' for none).
    package static func encode(_ parameters: [String: String]) -> String {
        guard !parameters.isEmpty else { return "" }
        var writer = JSONWriter()
        writer.raw("{")
        for (index, key) in parameters.keys.sorted().enumerated() {
            if index > 0 { writer.raw(",") }
            writer.string(key)
            writer.raw(":")
            writer.string(parameters[key]!)
        }
        writer.raw("}")
        return writer.text
    }

    static func decode(_ json: String?) -> [String: String] {
        guard let json, let value = try? JSONValue.parse(json), case .object(let members) = value else { return [:] }
        var parameters: [String: String] = [:]
        for member in members { if let text = member.value.stringValue { parameters[member.key] = text } }
        return parameters
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
