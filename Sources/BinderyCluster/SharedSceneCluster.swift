import BinderyProtocol
import BinderyRuntime
import EventLoop
import Foundation
import Redis

/// Makes each shared scene (`sharing: .shared`) one scene across every process that uses
/// the same Redis: one process owns it (a lease with a fencing epoch) and runs it, the
/// others forward their clients' events to it through a stream and serve their viewers
/// from a mirror fed by the owner's output stream. See docs/Cluster.md, "Shared scenes".
///
/// Give one to a ``SessionStore`` (``SessionStore/sharedScenes``) before its first
/// session; each shared scene's host is linked when the store builds it. Without one,
/// shared scenes are per process, as before.
///
/// Loop-confined: create it, use it and stop it on `loop`'s thread (or before the loop
/// runs).
public final class SharedSceneCluster {
    /// Timings and bounds.
    public struct Configuration: Sendable {
        /// How long an owner's lease lasts without a refresh.
        public var leaseDuration: Duration
        /// How often the owner refreshes its lease (and others try to take it, and every
        /// process reports its viewer count).
        public var refreshInterval: Duration
        /// A process whose viewer count is older than this is taken as gone.
        public var viewerCountLifetime: Duration
        /// `MAXLEN ~` of the inbox (a bound for when no owner reads it; each commit trims
        /// it up to the snapshot).
        public var streamMaxLength: Int
        /// `MAXLEN ~` of the outbox: a process further behind reloads the snapshot.
        public var outboxMaxLength: Int
        /// Stream entries read per `XREAD`.
        public var readBatch: Int
        /// How often at most an edge process sends its viewers the patches of a shared
        /// scene (merged into one message each); answers to senders never wait for it.
        public var viewerFrameInterval: Duration
        /// Prefix of every key (`bindery:`).
        public var keyPrefix: String
        /// How long an HTTP event waits for the owner's answer before it is answered
        /// `store-unavailable` (an owner's failover takes 1–2 s; the next owner runs the
        /// inbox, so the answer usually comes).
        public var answerTimeout: Duration
        /// How far at most the owner's snapshot lags its outbox. Encoding the whole scene
        /// per commit costs more than the commit's events; a new owner (and a process that
        /// reloads its mirror) applies the outbox entries after the snapshot instead. It is
        /// also written at least every `outboxMaxLength / 4` entries, so those entries are
        /// never trimmed away before it. Zero: a snapshot with every commit.
        public var snapshotInterval: Duration

        /// The defaults: a 1.5 s lease refreshed every 500 ms, so an owner's death is
        /// noticed within 2 s.
        public init(leaseDuration: Duration = .milliseconds(1500), refreshInterval: Duration = .milliseconds(500),
                    viewerCountLifetime: Duration = .milliseconds(1250), streamMaxLength: Int = 100_000,
                    outboxMaxLength: Int = 10_000, readBatch: Int = 2048,
                    viewerFrameInterval: Duration = .milliseconds(16), keyPrefix: String = "bindery:",
                    answerTimeout: Duration = .seconds(5), snapshotInterval: Duration = .milliseconds(100)) {
            self.leaseDuration = leaseDuration
            self.refreshInterval = refreshInterval
            self.viewerCountLifetime = viewerCountLifetime
            self.streamMaxLength = streamMaxLength
            self.outboxMaxLength = outboxMaxLength
            self.readBatch = readBatch
            self.viewerFrameInterval = viewerFrameInterval
            self.keyPrefix = keyPrefix
            self.answerTimeout = answerTimeout
            self.snapshotInterval = snapshotInterval
        }
    }

    /// Where Redis is (for a member on other streams, ``InMemorySharedSceneStreams``, an
    /// empty Unix socket path: it talks to no Redis).
    public var endpoint: RedisEndpoint { (streams as? RedisSharedSceneStreams)?.endpoint ?? .unix(path: "") }
    /// The loop everything runs on.
    public let loop: EventLoop
    /// This process's incarnation: unique per start, the lease's value.
    public let processID: String
    /// Timings and bounds.
    public let configuration: Configuration
    /// Ownership changes and failures, one line each; none by default.
    public var logger: ((String) -> Void)?

    /// The leases, streams and snapshots every member shares.
    package let streams: any SharedSceneStreams
    private var links: [String: SharedSceneLink] = [:]
    private var isStopped = false

    /// A cluster member talking to Redis at `endpoint`; connects at once.
    ///
    /// - Parameter processID: unique per process start (default: host, pid and random bits).
    public convenience init(endpoint: RedisEndpoint, loop: EventLoop, processID: String? = nil,
                            configuration: Configuration = Configuration()) {
        self.init(streams: RedisSharedSceneStreams(endpoint: endpoint, loop: loop, configuration: configuration),
                  loop: loop, processID: processID, configuration: configuration)
    }

    /// A cluster member on `streams` (``RedisSharedSceneStreams``, or one
    /// ``InMemorySharedSceneStreams`` shared by several members in one process).
    ///
    /// - Parameter processID: unique per process start (default: host, pid and random bits).
    package init(streams: any SharedSceneStreams, loop: EventLoop, processID: String? = nil,
                 configuration: Configuration = Configuration()) {
        self.streams = streams
        self.loop = loop
        self.configuration = configuration
        self.processID = processID ?? Self.makeProcessID()
    }

    /// Whether this process owns (runs) the shared scene `name` now.
    public func isOwner(of name: String) -> Bool {
        links[name]?.isOwner ?? false
    }

    /// The scene instance this process runs as the owner of `name`, if it is (what its
    /// viewers see once its commits are read).
    package func engine(of name: String) -> SceneHost? {
        links[name]?.engine
    }

    /// Links a shared scene's host (called by the store when it builds one).
    func attach(_ host: SceneHost) {
        guard !isStopped, links[host.definition.name] == nil else { return }
        let link = SharedSceneLink(host: host, cluster: self)
        links[host.definition.name] = link
        host.route = link
        link.start()
    }

    /// Stops for good and gives up the leases this process holds, so another process
    /// takes over at once (a drain). Commits already sent still complete.
    public func stop() {
        guard !isStopped else { return }
        isStopped = true
        for link in links.values { link.stop(releasing: true) }
    }

    /// Stops at once without a word to Redis, as a crash would: leases run out on their
    /// own. For tests and fault drills.
    public func abandon() {
        guard !isStopped else { return }
        isStopped = true
        for link in links.values { link.stop(releasing: false) }
        streams.close()
    }

    package func log(_ line: String) {
        logger?(line)
    }

    static func makeProcessID() -> String {
        var random = SystemRandomNumberGenerator()
        let host = ProcessInfo.processInfo.hostName.prefix(24)
        return "\(host):\(getpid()):\(String(random.next() & 0xFFFF_FFFF, radix: 36))"
    }
}
