import Bindery
import RxCore
import RxTesting
import RxWidgets

/// Bindery's sessions run in-process for tests, with no sockets and a virtual clock:
/// a `SessionStore` whose timers and patch flushes run on a `TestScheduler`.
///
/// Connect one ``SceneTestClient`` per browser tab you want to simulate; clients of a
/// shared scene see each other's changes. Use it on one thread (the test's), which
/// stands in for the main loop.
public final class SceneTestServer {
    /// The sessions, created by ``connect(scene:)``.
    public let store: SessionStore
    /// The virtual clock: the scenes' timers (through `SceneContext.scheduler`), the
    /// grace periods and the flushes of changes no event caused.
    public let scheduler: TestScheduler

    /// A server for `registry`'s scenes. With no `scheduler`, one at 0 (1970) ticking in
    /// seconds without a processing delay, so a one-second wait ends exactly one second
    /// later; start one at a chosen moment to fix the scenes' clock.
    public init(registry: SceneRegistry, scheduler: TestScheduler? = nil,
                configuration: SessionStore.Configuration = SessionStore.Configuration()) {
        let scheduler = scheduler ?? TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        self.scheduler = scheduler
        self.store = SessionStore(registry: registry, configuration: configuration,
                                  scheduler: scheduler, flushScheduler: scheduler)
    }

    /// Opens a new session of `scene` with a client attached, as a browser tab does.
    ///
    /// - Throws: `SessionError` for an unknown scene, a limit, or a scene that failed to build.
    public func connect(scene: String) throws -> SceneTestClient {
        try SceneTestClient(server: self, scene: scene)
    }

    // MARK: - Time

    /// Runs what is due in the next `ticks` of virtual time, then sends out any changes.
    public func advance(by ticks: TestTime) {
        advance(to: scheduler.clock + ticks)
    }

    /// Runs what is due up to virtual time `time`, then sends out any changes.
    public func advance(to time: TestTime) {
        scheduler.advanceTo(time)
        flush()
    }

    /// Runs everything scheduled (however far in virtual time), then sends out changes.
    /// (Beware of periodic timers: they never let it finish.)
    public func runUntilIdle() {
        scheduler.start()
        flush()
    }

    /// Sends every session's pending changes (timers, arrivals) now.
    public func flush() {
        for session in store.sessions {
            session.flush()
        }
    }
}
