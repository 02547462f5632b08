/// An observer that binds elements to a target object on a scheduler (the main loop by
/// default), as in RxSwift.
///
/// The target is held weakly: once it is gone, elements are dropped. `completed` is
/// ignored, and a `next` after it still binds. An error never traps (RxSwift traps in
/// debug builds): it goes to ``Hooks/bindingErrorHandler``, which the server layer points
/// at the session's client.
public struct Binder<Value>: ObserverType {
    /// The element type.
    public typealias Element = Value

    let node: BinderNode<Value>

    /// A binder that runs `binding(target, value)` on `scheduler` for each element while
    /// `target` is alive. The default is a fresh `MainScheduler()`, as in RxSwift: its
    /// in-flight count is this binder's own, so one binder's binding may synchronously
    /// drive another.
    public init<Target: AnyObject>(
        _ target: Target,
        scheduler: ImmediateSchedulerType = MainScheduler(),
        binding: @escaping (Target, Value) -> Void
    ) {
        node = TargetBinderNode(target: target, scheduler: scheduler, binding: binding)
    }

    /// Delivers one event.
    public func on(_ event: Event<Value>) {
        node.on(event)
    }

    /// Binds `element`. Shadows `ObserverType.onNext` for a concrete `Binder`, so no
    /// `Event` is built and switched on (each costs a metadata look-up unspecialised).
    public func onNext(_ element: Value) {
        node.onNext(element)
    }

    /// This binder as a type-erased observer.
    public func asObserver() -> AnyObserver<Value> {
        AnyObserver(eventHandler: node.on)
    }
}

/// The node behind a ``Binder``; subscribed directly so elements skip the `Event` wrapper.
class BinderNode<Value>: ObserverNode<Value> {
    override func onError(_ error: Swift.Error) {
        Hooks.bindingErrorHandler(error)
    }

    override func onCompleted() {}
}

private final class TargetBinderNode<Target: AnyObject, Value>: BinderNode<Value> {
    private let target: UnretainedReference<Target>
    private let scheduler: ImmediateSchedulerType
    private let mainScheduler: MainScheduler?
    private let binding: (Target, Value) -> Void

    init(target: Target, scheduler: ImmediateSchedulerType, binding: @escaping (Target, Value) -> Void) {
        self.target = UnretainedReference(target)
        self.scheduler = scheduler
        self.mainScheduler = scheduler as? MainScheduler
        self.binding = binding
    }

    override func onNext(_ element: Value) {
        if let mainScheduler, mainScheduler.runIfImmediate({ bind(element) }) {
            return
        }
        _ = scheduler.schedule(element) { [self] element in
            bind(element)
            return Disposables.create()
        }
    }

    @inline(__always)
    private func bind(_ element: Value) {
        if let target = target.object {
            binding(target, element)
        }
    }
}
