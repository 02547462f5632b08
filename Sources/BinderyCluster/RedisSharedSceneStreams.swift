import BinderyProtocol
import EventLoop
import Redis

/// A shared scene's streams in Redis: `<prefix>scene:<name>:owner` and `:epoch` (the lease,
/// ``SharedSceneScripts``), `:in` and `:out` (streams, `MAXLEN ~`), `:snap` (a hash
/// written by the commit script). Commands go out pipelined on one connection; each
/// reader has a connection of its own for its blocking `XREAD`. Loop-confined.
package final class RedisSharedSceneStreams: SharedSceneStreams {
    /// The keys of one scene, built once.
    private struct Keys {
        let owner, epoch, inbox, outbox, snapshot: String
    }

    /// Where Redis is.
    package let endpoint: RedisEndpoint
    private let loop: EventLoop
    private let keyPrefix: String
    private let maxLength: String
    private let outboxMaxLength: String
    /// Commands (forwards, commits, leases), pipelined per loop turn.
    private let connection: RedisConnection
    private var keysByScene: [String: Keys] = [:]

    /// Streams under `keyPrefix` at `endpoint`, the inbox and outbox bounded at about
    /// `maxLength` and `outboxMaxLength` entries; connects at once.
    package init(endpoint: RedisEndpoint, loop: EventLoop, keyPrefix: String, maxLength: Int, outboxMaxLength: Int) {
        self.endpoint = endpoint
        self.loop = loop
        self.keyPrefix = keyPrefix
        self.maxLength = String(maxLength)
        self.outboxMaxLength = String(outboxMaxLength)
        connection = RedisConnection(endpoint: endpoint, loop: loop)
        for script in [SharedSceneScripts.acquire, SharedSceneScripts.refresh, SharedSceneScripts.release,
                       SharedSceneScripts.commit] {
            connection.register(script)
        }
        connection.connect()
    }

    /// Streams as `configuration` bounds them.
    package convenience init(endpoint: RedisEndpoint, loop: EventLoop, configuration: SharedSceneCluster.Configuration) {
        self.init(endpoint: endpoint, loop: loop, keyPrefix: configuration.keyPrefix,
                  maxLength: configuration.streamMaxLength, outboxMaxLength: configuration.outboxMaxLength)
    }

    private func keys(_ scene: String) -> Keys {
        if let keys = keysByScene[scene] { return keys }
        let base = "\(keyPrefix)scene:\(scene)"
        let keys = Keys(owner: "\(base):owner", epoch: "\(base):epoch", inbox: "\(base):in", outbox: "\(base):out",
                        snapshot: "\(base):snap")
        keysByScene[scene] = keys
        return keys
    }

    // MARK: - Lease

    package func acquireLease(scene: String, holder: String, duration: Duration,
                              _ done: @escaping (Result<Int64?, SharedSceneStreamError>) -> Void) {
        let keys = keys(scene)
        connection.evalSHA(SharedSceneScripts.acquire, keys: [keys.owner, keys.epoch],
                           arguments: [holder, String(Self.milliseconds(duration))]) { result in
            switch result {
            case .success(.integer(let epoch)): done(.success(epoch))
            case .success: done(.success(nil))
            case .failure(let error): done(.failure(.unavailable("\(error)")))
            }
        }
    }

    package func renewLease(scene: String, holder: String, epoch: Int64, duration: Duration,
                            _ done: @escaping (Result<Bool, SharedSceneStreamError>) -> Void) {
        let keys = keys(scene)
        connection.evalSHA(SharedSceneScripts.refresh, keys: [keys.owner, keys.epoch],
                           arguments: [holder, String(Self.milliseconds(duration)), String(epoch)]) { result in
            switch result {
            case .success(.integer(1)): done(.success(true))
            case .success: done(.success(false))
            case .failure(let error): done(.failure(.unavailable("\(error)")))
            }
        }
    }

    package func releaseLease(scene: String, holder: String) {
        connection.evalSHA(SharedSceneScripts.release, keys: [keys(scene).owner], arguments: [holder]) { _ in }
    }

    // MARK: - Inbox

    package func appendEvent(scene: String, origin: String, forwardID: Int, session: String, event: String,
                             _ done: @escaping (Result<Void, SharedSceneStreamError>) -> Void) {
        connection.send(["XADD", keys(scene).inbox, "MAXLEN", "~", maxLength, "*", "k", "e", "o", origin,
                         "f", String(forwardID), "s", session, "m", event]) { result in
            done(Self.void(result))
        }
    }

    package func appendViewerCount(scene: String, origin: String, count: Int,
                                   _ done: @escaping (Result<Void, SharedSceneStreamError>) -> Void) {
        connection.send(["XADD", keys(scene).inbox, "MAXLEN", "~", maxLength, "*", "k", "c", "o", origin,
                         "n", String(count)]) { result in
            done(Self.void(result))
        }
    }

    // MARK: - Snapshot and commits

    package func readSnapshot(scene: String, _ done: @escaping (Result<SharedSceneSnapshot, SharedSceneStreamError>) -> Void) {
        connection.send(["HGETALL", keys(scene).snapshot]) { result in
            switch result {
            case .success(let value):
                guard let fields = Self.fields(value.array ?? []) else {
                    return done(.failure(.unavailable("the snapshot is not a hash of strings")))
                }
                done(.success(SharedSceneSnapshot(
                    epoch: Int64(fields["epoch"] ?? "") ?? 0, inboxID: fields["in"] ?? "0-0",
                    version: Int(fields["v"] ?? "") ?? 0, widgets: fields["widgets"], counts: fields["counts"] ?? "",
                    state: fields["state"] ?? "", outboxID: fields["out"] ?? "0-0")))
            case .failure(let error):
                done(.failure(.unavailable("\(error)")))
            }
        }
    }

    package func commit(scene: String, _ batch: SharedSceneCommit,
                        _ done: @escaping (Result<Void, SharedSceneStreamError>) -> Void) {
        let keys = keys(scene)
        // The script's arguments (``SharedSceneScripts/commit``), in its order.
        var arguments = [String(batch.epoch), outboxMaxLength, batch.inboxID, String(batch.version)]
        if let snapshot = batch.snapshot {
            arguments += ["1", snapshot.widgets, snapshot.counts, snapshot.state]
        } else {
            arguments += ["0", "", "", ""]
        }
        arguments.reserveCapacity(arguments.count + batch.entries.count * 5)
        for entry in batch.entries {
            arguments += [String(entry.version), entry.origin, entry.forwardID, entry.answer, entry.patch]
        }
        connection.evalSHA(SharedSceneScripts.commit, keys: [keys.epoch, keys.outbox, keys.snapshot, keys.inbox],
                           arguments: arguments) { result in
            switch result {
            case .success: done(.success(()))
            case .failure(.server(let message)) where message.hasPrefix("FENCED"): done(.failure(.fenced(epoch: batch.epoch)))
            case .failure(let error): done(.failure(.unavailable("\(error)")))
            }
        }
    }

    // MARK: - Outbox

    package func readOutbox(scene: String, after id: String, count: Int,
                            _ done: @escaping (Result<[SharedSceneStreamEntry], SharedSceneStreamError>) -> Void) {
        connection.send(["XREAD", "COUNT", String(count), "STREAMS", keys(scene).outbox, id]) { result in
            done(result.map(SharedSceneStreamEntry.entries(in:)).mapError { .unavailable("\($0)") })
        }
    }

    package func newestOutboxID(scene: String, _ done: @escaping (Result<String?, SharedSceneStreamError>) -> Void) {
        connection.send(["XREVRANGE", keys(scene).outbox, "+", "-", "COUNT", "1"]) { result in
            done(result.map { $0.array?.first?.array?.first?.string }.mapError { .unavailable("\($0)") })
        }
    }

    package func openReader(_ stream: SharedSceneStream, scene: String, for reader: String) -> any SharedSceneStreamReader {
        let keys = keys(scene)
        return Reader(key: stream == .inbox ? keys.inbox : keys.outbox, endpoint: endpoint, loop: loop)
    }

    package func close() {
        connection.close()
    }

    /// A blocking `XREAD` on a connection of its own (a block of 1 s, a timeout of 5 s).
    private final class Reader: SharedSceneStreamReader {
        private let key: String
        private let connection: RedisConnection

        init(key: String, endpoint: RedisEndpoint, loop: EventLoop) {
            self.key = key
            connection = RedisConnection(endpoint: endpoint, loop: loop)
            connection.connect()
        }

        func read(after id: String, count: Int,
                  _ done: @escaping (Result<[SharedSceneStreamEntry], SharedSceneStreamError>) -> Void) {
            connection.send(["XREAD", "COUNT", String(count), "BLOCK", "1000", "STREAMS", key, id],
                            timeout: .seconds(5)) { result in
                done(result.map(SharedSceneStreamEntry.entries(in:)).mapError { .unavailable("\($0)") })
            }
        }

        func close() {
            connection.close()
        }
    }

    // MARK: - Helpers

    private static func void(_ result: Result<RESPValue, RedisError>) -> Result<Void, SharedSceneStreamError> {
        result.map { _ in () }.mapError { .unavailable("\($0)") }
    }

    /// A flat field/value list as a dictionary; nil unless every element is a string.
    private static func fields(_ list: [RESPValue]) -> [String: String]? {
        var fields: [String: String] = [:]
        var index = 0
        while index + 1 < list.count {
            guard let key = list[index].string, let value = list[index + 1].string else { return nil }
            fields[key] = value
            index += 2
        }
        return fields
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let components = duration.components
        return Int(max(0, components.seconds)) * 1000 + Int(max(0, components.attoseconds) / 1_000_000_000_000_000)
    }
}
