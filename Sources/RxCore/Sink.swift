import Synchronization

/// One subscription's state inside an operator: it observes `Input` from upstream and
/// forwards `Element` downstream, dropping everything once disposed.
///
/// The default `onError`/`onCompleted` forward the terminal event and dispose, which is
/// what most single-source operators do. Sinks that observe no single source (they own
/// inner observers instead) use `Never` as `Input`.
class Sink<Input, Element>: ObserverNode<Input>, Disposable {
    final let observer: ObserverNode<Element>
    final let cancel: Cancelable
    private let disposed = Atomic<Bool>(false)

    init(observer: ObserverNode<Element>, cancel: Cancelable) {
        self.observer = observer
        self.cancel = cancel
    }

    final var isDisposed: Bool {
        disposed.load(ordering: .relaxed)
    }

    @inline(__always)
    final func forwardNext(_ element: Element) {
        if disposed.load(ordering: .relaxed) { return }
        observer.onNext(element)
    }

    final func forwardError(_ error: Swift.Error) {
        if disposed.load(ordering: .relaxed) { return }
        observer.onError(error)
    }

    final func forwardCompleted() {
        if disposed.load(ordering: .relaxed) { return }
        observer.onCompleted()
    }

    final func forward(_ event: Event<Element>) {
        switch event {
        case .next(let element): forwardNext(element)
        case .error(let error): forwardError(error)
        case .completed: forwardCompleted()
        }
    }

    override func onError(_ error: Swift.Error) {
        forwardError(error)
        dispose()
    }

    override func onCompleted() {
        forwardCompleted()
        dispose()
    }

    func dispose() {
        disposed.store(true, ordering: .relaxed)
        cancel.dispose()
    }
}
