import EventLoop
import Foundation
import Redis

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
        self.processID = processID ?? "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"
        incarnation = String(Int64(Date().timeIntervalSince1970 * 1000))
        for script in RedisSessionScripts.all { connection.register(script) }
        connection.onStateChange = { [weak self] state in self?.stateChanged(state) }
    }

    /// `processID:incarnation`.
    public var owner: String { "\(processID):\(incarnation)" }

    public var isAvailable: Bool { connection.state == .connected }

    public func start() {
        connection.connect()
        guard lease == nil else { return }
        lease = connection.loop.scheduleTimer(after: .zero, repeating: .seconds(1)) { [weak self] in self?.renewLease() }
    }

    private func renewLease() {
        guard isAvailable, !stopped else { return }
        connection.send(["SET", "bindery:proc:\(processID)", incarnation, "PX", "3000"]) { _ in }
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
        let start = LatencyHistogram.now()
        let metrics = self.metrics
        call(RedisSessionScripts.append, token: token,
             [String(epoch), ttlText, seq.map(String.init) ?? "", event ?? "", state ?? ""]) { result in
            metrics.writes.increment()
            metrics.writeLatency.recordNanoseconds(LatencyHistogram.now() - start)
            completion(result.map { _ in })
        }
    }

    public func takeOver(token: String, scene: String?, completion: @escaping (Result<StoredSession?, SessionPersistenceError>) -> Void) {
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
        guard isAvailable else {
            connection.close()
            return completion()
        }
        // Answered after every write made before it (replies come in order).
        connection.send(["DEL", "bindery:proc:\(processID)"]) { [connection] _ in
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
    static func encode(_ parameters: [String: String]) -> String {
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
