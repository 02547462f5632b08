import Foundation
import RxCore

/// What a demo scene takes from outside, so tests can replace it: the scheduler for
/// timed work, the clock, and (for `board`) the live viewer count.
///
/// The app uses ``live(viewers:)``; tests pass a `TestScheduler` and a fixed clock.
public struct DemoEnvironment {
    /// Where timed work runs (the login's one-second sign-in): `MainScheduler` in the
    /// app, a `TestScheduler` in tests for virtual time.
    public var scheduler: SchedulerType
    /// The current date (the `date` scene's Now button reads it). By default the
    /// scheduler's clock: real in the app, virtual (a fixed moment) in tests.
    public var now: () -> Date
    /// The number of live connections to the scene instance (the `board` scene's
    /// "N online"); the server's scene context provides it.
    public var viewers: Observable<Int>
    /// The parameters the scene was opened with (`/scene/team?member=chen-wei`): the
    /// server's ``SceneContext/parameters``.
    public var parameters: [String: String]

    /// An environment with the given parts.
    public init(scheduler: SchedulerType, now: (() -> Date)? = nil, viewers: Observable<Int> = .just(1),
                parameters: [String: String] = [:]) {
        self.scheduler = scheduler
        self.now = now ?? { scheduler.now }
        self.viewers = viewers
        self.parameters = parameters
    }

    /// The app's environment: the main loop's scheduler and the system clock.
    public static func live(viewers: Observable<Int> = .just(1)) -> DemoEnvironment {
        DemoEnvironment(scheduler: MainScheduler.instance, viewers: viewers)
    }
}
