/// Runs work at once on the main loop thread, else hops onto the loop. RxCocoa
/// subscribes control traits on it. Unlike `MainScheduler.instance` it keeps no
/// in-flight count, so it never defers work that is already on the loop.
public final class ConcurrentMainScheduler: ImmediateSchedulerType, Sendable {
    /// The shared instance.
    public static let instance = ConcurrentMainScheduler()

    private init() {}

    /// Runs `action` now on the loop thread, else schedules it on the loop.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        if MainScheduler.isMainThread {
            return action(state)
        }
        return MainScheduler.instance.schedule(state, action: action)
    }
}
