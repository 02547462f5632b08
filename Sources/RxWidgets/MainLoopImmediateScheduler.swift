import RxCore

/// Runs work at once on the loop thread, else hops onto the loop: RxSwift's
/// `ConcurrentMainScheduler`, which RxCocoa subscribes control properties and events on.
///
/// Unlike `MainScheduler.instance` it keeps no in-flight count, so subscribing to a
/// control property from inside other main-scheduler work still happens synchronously
/// (RxCocoa relies on that: the current value arrives before `subscribe` returns).
struct MainLoopImmediateScheduler: ImmediateSchedulerType {
    static let instance = MainLoopImmediateScheduler()

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        if MainScheduler.isMainThread {
            return action(state)
        }
        return MainScheduler.instance.schedule(state, action: action)
    }
}
