@testable import Bindery
import EventLoop
import Foundation
import LoopTestSupport
import Redis
import RxCore
import RxWidgets
import XCTest
#if canImport(Glibc)
import Glibc
#endif

extension RedisServer {
    var endpoint: RedisEndpoint { .unix(path: socketPath) }
}

/// One "process" of a cluster inside the test: its own store and cluster member, on the
/// shared test loop. Loop-confined (touched through `LoopThread.sync`).
final class SharedSceneNode: @unchecked Sendable {
    let store: SessionStore
    let cluster: SharedSceneCluster
    var viewers: [SharedSceneViewer] = []

    init(name: String, endpoint: RedisEndpoint, loop: EventLoop, persistence: SessionPersistence? = nil,
         configuration: SharedSceneCluster.Configuration = SharedSceneCluster.Configuration()) {
        let registry = makeTestRegistry()
        registry.register("tally", title: "Tally", sharing: .shared) { _ in TallyViewController() }
        store = SessionStore(registry: registry, persistence: persistence)
        // Real Redis, with outbox reads a test can hold back (``SharedSceneCluster/holdOutbox(_:)``).
        let streams = HoldingSharedSceneStreams(RedisSharedSceneStreams(endpoint: endpoint, loop: loop, configuration: configuration))
        cluster = SharedSceneCluster(streams: streams, loop: loop, processID: name, configuration: configuration)
        store.sharedScenes = cluster
    }

    /// A member on `streams` (one ``InMemorySharedSceneStreams`` shared by every node: no Redis).
    init(name: String, streams: any SharedSceneStreams, loop: EventLoop,
         configuration: SharedSceneCluster.Configuration = SharedSceneCluster.Configuration()) {
        let registry = makeTestRegistry()
        registry.register("tally", title: "Tally", sharing: .shared) { _ in TallyViewController() }
        store = SessionStore(registry: registry)
        cluster = SharedSceneCluster(streams: streams, loop: loop, processID: name, configuration: configuration)
        store.sharedScenes = cluster
    }

    /// A new session of `scene` with a client attached.
    @discardableResult
    func addViewer(scene: String = "board") throws -> SharedSceneViewer {
        let session = try store.createSession(scene: scene)
        let viewer = SharedSceneViewer(session: session)
        viewers.append(viewer)
        return viewer
    }

    var isOwner: Bool { cluster.isOwner(of: "board") }

    func owns(_ scene: String) -> Bool { cluster.isOwner(of: scene) }
}

/// A client of the board that keeps what a browser would: the widgets' values from the
/// `scene` and the patches, the answers to its events, and the order in which it saw the
/// slider's values. Loop-confined.
final class SharedSceneViewer: @unchecked Sendable {
    let session: Session
    private(set) var client: SessionClient!
    private(set) var values: [String: WidgetValue] = [:]
    /// The slider's values in the order this viewer learned them: from others' patches,
    /// and its own value when its event was acknowledged.
    private(set) var sliderSequence: [Double] = []
    private(set) var acks: [Int] = []
    private(set) var errors: [ErrorMessage] = []
    private(set) var scenesReceived = 0
    private var sent: [Int: Double] = [:]
    private var nextSeq = 1

    init(session: Session) {
        self.session = session
        client = session.connect { [unowned self] message in self.receive(message) }
        take(session.sceneMessage(resumed: false))
    }

    var slider: Double? { values["sharedSlider.value"].flatMap { if case .number(let n) = $0 { n } else { nil } } }
    var viewerText: String? { values["viewers.text"].flatMap { if case .string(let s) = $0 { s } else { nil } } }

    /// Moves the slider to `value`; returns the event's seq.
    @discardableResult
    func slide(to value: Double) -> Int {
        let seq = nextSeq
        nextSeq += 1
        sent[seq] = value
        client.receive(.event(EventMessage(seq: seq, target: "sharedSlider", event: "valueChanged", value: .number(value))))
        return seq
    }

    /// Sends a bare event (a button's tap); returns its seq.
    @discardableResult
    func send(_ event: String, to target: String) -> Int {
        let seq = nextSeq
        nextSeq += 1
        client.receive(.event(EventMessage(seq: seq, target: target, event: event)))
        return seq
    }

    func text(of id: String) -> String? {
        values["\(id).text"].flatMap { if case .string(let s) = $0 { s } else { nil } }
    }

    private func take(_ scene: SceneMessage) {
        values = [:]
        for widget in scene.widgets {
            for (key, value) in widget.properties { values["\(widget.id).\(key)"] = value }
        }
    }

    private func receive(_ message: ServerMessage) {
        switch message {
        case .scene(let scene):
            scenesReceived += 1
            take(scene)
        case .patch(let patch):
            for change in patch.changes {
                guard case .value(let value) = change.update else { continue }
                values["\(change.target).\(change.prop)"] = value
                if patch.ack == nil, change.target == "sharedSlider", change.prop == "value", case .number(let n) = value {
                    sliderSequence.append(n)
                }
            }
            if let ack = patch.ack {
                acks.append(ack)
                if let value = sent[ack] {
                    values["sharedSlider.value"] = .number(value)
                    sliderSequence.append(value)
                }
            }
        case .error(let error):
            errors.append(error)
        case .bye, .rows:
            break
        }
    }
}

/// A Redis client for the test's own looks at the keys.
final class SharedSceneProbe: @unchecked Sendable {
    let runner: LoopThread
    private var connection: RedisConnection!

    init(_ runner: LoopThread, endpoint: RedisEndpoint) throws {
        self.runner = runner
        try runner.sync { [self] in
            connection = RedisConnection(endpoint: endpoint, loop: runner.loop)
            connection.connect()
        }
    }

    func call(_ command: [String]) throws -> RESPValue {
        let result = Recorder<Result<RESPValue, RedisError>>()
        try runner.sync { [self] in connection.send(command) { result.append($0) } }
        guard result.wait(for: 1) else { throw TestError("no reply to \(command)") }
        return try result.values[0].get()
    }

    /// The outbox's entries in order: (origin, answer JSON, patch JSON).
    func outbox(scene: String = "board") throws -> [(origin: String, answer: String, patch: String)] {
        let reply = try call(["XRANGE", "bindery:scene:\(scene):out", "-", "+"])
        return (reply.array ?? []).compactMap { item in
            guard let pair = item.array, pair.count == 2, let list = pair[1].array else { return nil }
            var fields: [String: String] = [:]
            var index = 0
            while index + 1 < list.count {
                fields[list[index].string ?? ""] = list[index + 1].string ?? ""
                index += 2
            }
            return (fields["o"] ?? "", fields["a"] ?? "", fields["p"] ?? "")
        }
    }

    func close() {
        _ = try? runner.sync { [self] in connection.close() }
    }
}

/// A shared scene whose state is not in its controls' values (a count of taps): it
/// survives its owner's death only through its own encoding.
final class TallyViewController: ViewController, Scene, StateRestoring {
    let tap = Button()
    let total = Label()
    private var taps = 0
    private let bag = DisposeBag()

    var sceneWidgets: [(id: String, widget: View)] { [("tap", tap), ("total", total)] }

    override func viewDidLoad() {
        super.viewDidLoad()
        total.text = "0"
        tap.rx.tap.subscribe(onNext: { [unowned self] in
            taps += 1
            total.text = "\(taps)"
        }).disposed(by: bag)
    }

    func encodeRestorableState(with coder: StateCoder) {
        coder.encode(taps, forKey: "taps")
    }

    func decodeRestorableState(with coder: StateCoder) {
        taps = coder.decodeInteger(forKey: "taps")
        total.text = "\(taps)"
    }
}

/// The set-up the shared-scene cluster tests share: a real redis-server (skipped without
/// one), one test loop, a probe connection, and cluster members made on that loop.
class SharedSceneClusterTestCase: XCTestCase {
    var redis: RedisServer!
    var runner: LoopThread!
    var probe: SharedSceneProbe!
    var nodes: [SharedSceneNode] = []

    override func setUpWithError() throws {
        redis = try RedisServer()
        runner = try LoopThread()
        probe = try SharedSceneProbe(runner, endpoint: redis.endpoint)
    }

    override func tearDown() {
        if let runner {
            _ = try? runner.sync { [nodes] in
                for node in nodes {
                    node.cluster.abandon()
                    node.store.endAll()
                }
            }
            probe?.close()
            runner.stop()
        }
        nodes = []
        redis = nil
    }

    /// `count` members (`p0`, `p1`…), each with `viewersEach` viewers.
    func makeNodes(_ count: Int, viewersEach: Int = 1,
                   configuration: SharedSceneCluster.Configuration = SharedSceneCluster.Configuration()) throws -> [SharedSceneNode] {
        let endpoint = redis.endpoint
        let made = try runner.sync { [runner] in
            try (0..<count).map { index in
                let node = SharedSceneNode(name: "p\(index)", endpoint: endpoint, loop: runner!.loop, configuration: configuration)
                for _ in 0..<viewersEach { try node.addViewer() }
                return node
            }
        }
        nodes += made
        return made
    }

    /// Runs `body` on the test loop.
    func sync<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        try runner.sync(body)
    }
}
