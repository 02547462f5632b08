import Synchronization

extension ObservableType {
    /// Subscribes a closure to every event.
    public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> Disposable {
        asObservable().subscribe(node: ClosureObserver(on))
    }

    /// Subscribes closures to each kind of event.
    ///
    /// On termination calls `onCompleted` or `onError`, then `onDisposed`; an explicit
    /// dispose calls only `onDisposed`. A missing `onError` sends the error to
    /// ``Hooks/defaultErrorHandler``.
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        let callStack = Hooks.recordCallStackOnError ? Hooks.customCaptureSubscriptionCallstack() : []
        guard let onDisposed else {
            // Nothing to run on dispose: the upstream subscription (idempotent, like every
            // subscription) is the whole disposable. One allocation, the observer.
            let observer = SubscribeObserver<Element>(
                onNext: onNext, onError: onError, onCompleted: onCompleted, onTerminated: nil, callStack: callStack
            )
            return asObservable().subscribe(node: observer)
        }
        let disposable = Disposables.create(with: onDisposed)
        let observer = SubscribeObserver<Element>(
            onNext: onNext, onError: onError, onCompleted: onCompleted, onTerminated: disposable, callStack: callStack
        )
        return Disposables.create(asObservable().subscribe(node: observer), disposable)
    }

    /// Subscribes closures that receive `object`, held weakly; they are skipped once it
    /// is gone.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onNext: { [weak object] element in
                guard let object else { return }
                onNext?(object, element)
            },
            onError: { [weak object] error in
                guard let object else { return }
                onError?(object, error)
            },
            onCompleted: { [weak object] in
                guard let object else { return }
                onCompleted?(object)
            },
            onDisposed: { [weak object] in
                guard let object else { return }
                onDisposed?(object)
            }
        )
    }
}

/// The observer behind `subscribe(onNext:…)`: ignores everything after a terminal event.
private final class SubscribeObserver<Element>: ObserverNode<Element> {
    private let stopped = Atomic<Bool>(false)
    private let nextHandler: ((Element) -> Void)?
    private let errorHandler: ((Swift.Error) -> Void)?
    private let completedHandler: (() -> Void)?
    /// Runs `onDisposed` once (termination or explicit dispose, whichever is first).
    private let onTerminated: Disposable?
    private let callStack: [String]

    init(
        onNext: ((Element) -> Void)?,
        onError: ((Swift.Error) -> Void)?,
        onCompleted: (() -> Void)?,
        onTerminated: Disposable?,
        callStack: [String]
    ) {
        self.nextHandler = onNext
        self.errorHandler = onError
        self.completedHandler = onCompleted
        self.onTerminated = onTerminated
        self.callStack = callStack
    }

    override func onNext(_ element: Element) {
        if stopped.load(ordering: .relaxed) { return }
        nextHandler?(element)
    }

    override func onError(_ error: Swift.Error) {
        guard stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        if let errorHandler {
            errorHandler(error)
        } else {
            Hooks.defaultErrorHandler(callStack, error)
        }
        onTerminated?.dispose()
    }

    override func onCompleted() {
        guard stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        completedHandler?()
        onTerminated?.dispose()
    }
}
