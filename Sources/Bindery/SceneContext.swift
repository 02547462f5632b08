import Foundation
import RxCore
import RxWidgets

/// What a scene's factory gets to build its view controller: the scene's name, the
/// scheduler its timers should use (so tests can run it in virtual time), and for shared
/// scenes the number of clients watching.
///
/// Loop-confined, like the widgets.
public final class SceneContext {
    /// The scene's registered name (`"colors"`).
    public let sceneName: String
    /// The scheduler for the scene's time-based work (`delay`, `interval`, `Action` work):
    /// `MainScheduler.instance` in the server, a `TestScheduler` under `BinderyTesting`.
    public let scheduler: SchedulerType
    private var viewers = 0
    // Made on first subscription: most scenes never ask, and an idle session is small.
    private var viewersRelay: BehaviorRelay<Int>?

    /// A context for `sceneName` on `scheduler`.
    public init(sceneName: String, scheduler: SchedulerType) {
        self.sceneName = sceneName
        self.scheduler = scheduler
    }

    /// The current time by ``scheduler`` (virtual in tests).
    public var now: Date { scheduler.now }

    /// How many live connections (WebSockets and event streams) watch this scene
    /// instance: the current count on subscription, then each change. For a shared scene
    /// that is everybody (`board`'s "N online"); for a per-connection scene, 0 or 1.
    public var viewerCount: Observable<Int> {
        if let viewersRelay { return viewersRelay.asObservable() }
        let relay = BehaviorRelay(value: viewers)
        viewersRelay = relay
        return relay.asObservable()
    }

    /// The current viewer count.
    public var currentViewerCount: Int { viewers }

    /// Called by the scene's host when connections come and go.
    func setViewerCount(_ count: Int) {
        guard viewers != count else { return }
        viewers = count
        viewersRelay?.accept(count)
    }
}
