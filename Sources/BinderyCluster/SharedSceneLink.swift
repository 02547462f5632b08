import BinderyProtocol
import BinderyRuntime
import EventLoop
import RxWidgets

/// One shared scene's part in a ``SharedSceneCluster`` on this process: the store's host's
/// route, coordinating its two sides.
///
/// Every process, the owner included, is an *edge* (``SharedSceneEdge``): it forwards its
/// clients' events to the inbox and serves its viewers from a mirror fed by the outbox.
/// One process at a time is also the *owner* (``SharedSceneOwner``): it holds the lease,
/// runs the scene in its engine and commits the outcomes. Only the owner runs the scene:
/// the store's host on every process is a shell whose controller is released at once, so
/// timers and `Action` work never run twice. The link ticks both sides (lease, viewer
/// counts) and routes the hosts' calls (``SceneRoute``, SharedSceneLink+Route.swift).
/// Loop-confined.
package final class SharedSceneLink {
    let name: String
    /// The store's host: the sessions and their clients (its own scene is released).
    private weak var host: SceneHost?
    unowned let cluster: SharedSceneCluster
    /// Forwards events, serves the mirror.
    let edge: SharedSceneEdge
    /// Holds the lease and runs the scene while it does.
    let owner: SharedSceneOwner
    private var ticker: LoopTimer?
    private(set) var isStopped = false

    init(host: SceneHost, cluster: SharedSceneCluster) {
        name = host.definition.name
        self.host = host
        self.cluster = cluster
        let initialWidgets = host.tree.snapshot()
        let edge = SharedSceneEdge(name: name, host: host, initialWidgets: initialWidgets, cluster: cluster)
        self.edge = edge
        owner = SharedSceneOwner(name: name, host: host, initialWidgets: initialWidgets, cluster: cluster,
                                 localViewers: { [unowned edge] in edge.localViewers })
        owner.route = self
    }

    /// Whether this process owns (runs) the scene now.
    var isOwner: Bool { owner.isOwner }

    /// The owner's running scene, while this process owns it.
    var engine: SceneHost? { owner.engine }

    func start() {
        host?.dispose()  // only the owner's engine runs the scene
        edge.start()
        let interval = cluster.configuration.refreshInterval
        ticker = cluster.loop.scheduleTimer(after: .milliseconds(1), repeating: interval) { [weak self] in self?.tick() }
    }

    func stop(releasing: Bool) {
        guard !isStopped else { return }
        isStopped = true
        ticker?.close()
        ticker = nil
        edge.stop(releasing: releasing)
        owner.stop(releasing: releasing)
        // The host stays linked: a shell with no scene of its own, refusing events.
    }

    private func tick() {
        guard !isStopped else { return }
        let now = SharedSceneTime.now()
        edge.tick(now: now)
        owner.tick(now: now)
    }

    /// The widgets this process's viewers see, for a scene served to `session`
    /// (``SharedSceneEdge/mirrorWidgets(for:)``).
    package func mirrorWidgets(for session: Session?) -> [WidgetSnapshot] {
        edge.mirrorWidgets(for: session)
    }

    /// Runs `body(true)` once the mirror holds what the outbox held now
    /// (``SharedSceneEdge/whenCurrent(_:)``).
    package func whenCurrent(_ body: @escaping (_ isCurrent: Bool) -> Void) {
        edge.whenCurrent(body)
    }
}
