/// One measured scenario: a pipeline built once, then driven `n` times.
///
/// Each peer (Bindery's RxCore, OpenCombine, or a plain-closure baseline) builds its own
/// pipeline in `make()` and returns a ``Runner``. Setup is outside the measured loop, so
/// with two runs of N1 and N2 events `(cost(N2) - cost(N1)) / (N2 - N1)` is the cost of
/// one event.
public struct Scenario: Sendable {
    /// Short letter from the issue: `a` … `f`, with a digit for supplementary variants.
    public let id: String
    /// Kebab-case name, used on the command line and in benchmark names.
    public let name: String
    /// What one event is.
    public let summary: String
    /// RxSwift 6.10.2 instructions per event measured on this machine (from the issue).
    public let rxSwiftReference: Int?
    /// OpenCombine instructions per event quoted in the issue, for comparison with ours.
    public let openCombineReference: Int?
    /// The target for Bindery, in instructions per event.
    public let target: Int?
    /// The peers, in table order.
    public let peers: [Peer]
    /// Must run on MainScheduler's loop thread (the Binder scenarios).
    public var needsLoopThread: Bool { id.hasPrefix("e") }

    /// `"a subject-map-filter"`.
    public var title: String { "\(id) \(name)" }

    /// The peer called `name` (case-insensitive), if any.
    public func peer(_ name: String) -> Peer? {
        peers.first { $0.name.lowercased() == name.lowercased() }
    }
}

/// One implementation of a scenario.
public struct Peer: Sendable {
    /// `Bindery`, `OpenCombine` or `closure`.
    public let name: String
    /// Builds the pipeline (subscriptions, subjects) and returns its driver.
    public let make: @Sendable () -> Runner

    public init(_ name: String, make: @escaping @Sendable () -> Runner) {
        self.name = name
        self.make = make
    }
}

/// Drives a built pipeline: `run(n)` sends `n` events and returns a checksum of what the
/// subscribers received (so the work cannot be optimised away, and peers can be checked
/// against each other).
public final class Runner {
    private let body: (Int) -> Int
    private let keepAlive: [Any]

    /// `keepAlive` holds subscriptions and subjects for the runner's lifetime.
    public init(keepAlive: [Any] = [], _ body: @escaping (Int) -> Int) {
        self.body = body
        self.keepAlive = keepAlive
    }

    /// Sends `n` events; returns the checksum.
    @inline(never)
    public func run(_ n: Int) -> Int {
        body(n)
    }
}

/// The sink every subscriber adds into: a class, so closures capture one reference.
final class Sum {
    var value = 0
}

/// The target object of the Binder scenario (a stand-in for a widget model).
final class Label {
    var value = 0
}

/// Every scenario, in table order.
public let allScenarios: [Scenario] = [
    Scenario(
        id: "a", name: "subject-map-filter",
        summary: "PublishSubject → map → filter (passes all) → subscribe(onNext:); one onNext",
        rxSwiftReference: 5_681, openCombineReference: 1_890, target: 1_000,
        peers: [Peer("Bindery", make: BinderyScenarios.subjectMapFilter),
                Peer("OpenCombine", make: OpenCombineScenarios.subjectMapFilter)]
    ),
    Scenario(
        id: "b", name: "behavior-subject-10",
        summary: "BehaviorSubject with 10 subscribe(onNext:) subscribers; one onNext",
        rxSwiftReference: 14_697, openCombineReference: 17_405, target: 5_000,
        peers: [Peer("Bindery", make: BinderyScenarios.behaviorSubject10),
                Peer("OpenCombine", make: OpenCombineScenarios.behaviorSubject10)]
    ),
    Scenario(
        id: "c", name: "subscribe-dispose",
        summary: "subscribe(onNext:) to a PublishSubject, then dispose; one cycle",
        rxSwiftReference: 13_256, openCombineReference: 16_157, target: 5_000,
        peers: [Peer("Bindery", make: BinderyScenarios.subscribeDispose),
                Peer("OpenCombine", make: OpenCombineScenarios.subscribeDispose)]
    ),
    Scenario(
        id: "c2", name: "subscribe-dispose-chain",
        summary: "subscribe(onNext:) to PublishSubject → map → filter, then dispose; one cycle",
        rxSwiftReference: 13_256, openCombineReference: 16_157, target: 5_000,
        peers: [Peer("Bindery", make: BinderyScenarios.subscribeDisposeChain),
                Peer("OpenCombine", make: OpenCombineScenarios.subscribeDisposeChain)]
    ),
    Scenario(
        id: "d", name: "combine-latest",
        summary: "combineLatest(s1, s2) { $0 + $1 } → subscribe(onNext:), both primed; one onNext, alternating s1/s2",
        rxSwiftReference: 7_896, openCombineReference: nil, target: 2_500,
        // OpenCombine 0.14.0 has no CombineLatest publisher.
        peers: [Peer("Bindery", make: BinderyScenarios.combineLatest)]
    ),
    Scenario(
        id: "e", name: "binder",
        summary: "Binder(target) { $0.value += $1 }.onNext on the main thread vs a plain closure call",
        rxSwiftReference: nil, openCombineReference: nil, target: 1_000,
        peers: [Peer("Bindery", make: BinderyScenarios.binder),
                Peer("closure", make: BaselineScenarios.closureCall)]
    ),
    Scenario(
        id: "e2", name: "subject-bind-binder",
        summary: "PublishSubject.bind(to: Binder) on the main thread (OpenCombine: assign(to:on:)); one onNext",
        rxSwiftReference: nil, openCombineReference: nil, target: 1_000,
        peers: [Peer("Bindery", make: BinderyScenarios.subjectBindBinder),
                Peer("OpenCombine", make: OpenCombineScenarios.subjectAssign)]
    ),
    Scenario(
        id: "f", name: "behavior-relay-accept",
        summary: "BehaviorRelay.accept with one subscribe(onNext:) subscriber (OpenCombine: CurrentValueSubject.send)",
        rxSwiftReference: 5_588, openCombineReference: nil, target: 1_000,
        peers: [Peer("Bindery", make: BinderyScenarios.behaviorRelayAccept),
                Peer("OpenCombine", make: OpenCombineScenarios.currentValueSubjectOneSink)]
    ),
]

/// The scenario whose id, name or `id name` title is `key`.
public func scenario(named key: String) -> Scenario? {
    allScenarios.first { $0.id == key || $0.name == key || $0.title == key }
}
