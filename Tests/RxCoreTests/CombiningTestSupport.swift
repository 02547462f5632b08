import RxCore
import XCTest

/// Errors for the combining-operator tests. RxTesting compares errors by type and
/// description, so each name is a distinct error.
struct CombiningTestError: Error, CustomStringConvertible {
    let name: String
    init(_ name: String) { self.name = name }
    var description: String { "CombiningTestError(\(name))" }

    static let error = CombiningTestError("error")
    static let error1 = CombiningTestError("error1")
    static let error2 = CombiningTestError("error2")
}

/// A hand-driven hot source for synchronous tests: pushes go straight to the current
/// observers (no scheduler), and subscriptions and disposals are counted.
final class CombiningManualSource<Element> {
    private var observers: [Int: AnyObserver<Element>] = [:]
    private var nextKey = 0
    private(set) var subscribeCount = 0
    private(set) var disposeCount = 0

    var observerCount: Int { observers.count }

    lazy var observable: Observable<Element> = Observable.create { [unowned self] observer in
        let key = self.nextKey
        self.nextKey += 1
        self.subscribeCount += 1
        self.observers[key] = observer
        return Disposables.create {
            self.disposeCount += 1
            self.observers[key] = nil
        }
    }

    func onNext(_ element: Element) { observers.values.forEach { $0.onNext(element) } }
    func onError(_ error: Error) { observers.values.forEach { $0.onError(error) } }
    func onCompleted() { observers.values.forEach { $0.onCompleted() } }
}
