import RxCore

/// A distinguishable test error (RxTesting compares errors by description).
struct TestError: Error, CustomStringConvertible {
    let id: Int
    var description: String { "TestError(\(id))" }
}

let testError = TestError(id: 1)
let testError2 = TestError(id: 2)

/// A hand-driven source for synchronous tests: each subscription's observer is kept so
/// the test can send events later, and disposals are counted.
final class ManualSource<Element> {
    private(set) var observers: [AnyObserver<Element>] = []
    private(set) var subscribeCount = 0
    private(set) var disposeCount = 0

    lazy var observable: Observable<Element> = Observable.create { [unowned self] observer in
        self.subscribeCount += 1
        self.observers.append(observer)
        return Disposables.create { self.disposeCount += 1 }
    }

    func onNext(_ element: Element) { observers.forEach { $0.onNext(element) } }
    func onError(_ error: Error) { observers.forEach { $0.onError(error) } }
    func onCompleted() { observers.forEach { $0.onCompleted() } }
}

/// Records every event a subscription receives, as strings, for synchronous tests.
final class EventLog<Element> {
    private(set) var entries: [String] = []

    func subscribe(_ source: Observable<Element>) -> Disposable {
        source.subscribe(
            onNext: { self.entries.append("next(\($0))") },
            onError: { self.entries.append("error(\($0))") },
            onCompleted: { self.entries.append("completed") },
            onDisposed: { self.entries.append("disposed") }
        )
    }
}
