import Foundation
import RxCore
import RxTesting
import XCTest

/// An observer that records every event it gets; thread-safe, so concurrency tests can
/// share it.
final class SubjectEventRecorder<Element>: ObserverType, @unchecked Sendable { // `lock` guards `recorded`
    private let lock = NSLock()
    private var recorded: [Event<Element>] = []
    /// Runs inside `on(_:)`, after recording, for re-entrancy tests.
    var onEvent: ((Event<Element>) -> Void)?
    /// Pauses before recording the first event, widening the window in which a
    /// concurrent event could overtake it.
    let pausesOnFirstEvent: Bool

    init(pausesOnFirstEvent: Bool = false) {
        self.pausesOnFirstEvent = pausesOnFirstEvent
    }

    func on(_ event: Event<Element>) {
        if pausesOnFirstEvent && events.isEmpty {
            usleep(50)
        }
        lock.lock()
        recorded.append(event)
        lock.unlock()
        onEvent?(event)
    }

    var events: [Event<Element>] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    var elements: [Element] {
        events.compactMap(\.element)
    }
}

/// A test error that compares by `id`.
struct SubjectTestError: Error, Equatable {
    let id: Int
    init(_ id: Int = 0) { self.id = id }
}

/// Asserts that `event` is `error(RxError.disposed(object: object))`.
func XCTAssertSubjectDisposedError<Element>(_ event: Event<Element>?, object: AnyObject, file: StaticString = #filePath, line: UInt = #line) {
    guard case .error(let error)? = event, case RxError.disposed(let disposedObject)? = error as? RxError else {
        XCTFail("expected error(RxError.disposed), got \(String(describing: event))", file: file, line: line)
        return
    }
    XCTAssertTrue(disposedObject === object, "disposed(object:) names another object", file: file, line: line)
}

/// A cold source that counts its subscriptions and disposals and hands out its observers,
/// so a test can push events by hand.
final class SubjectManualSource<Element>: @unchecked Sendable { // used from one thread per test
    private(set) var subscribeCount = 0
    private(set) var disposeCount = 0
    private(set) var observers: [AnyObserver<Element>] = []

    lazy var observable: Observable<Element> = Observable.create { [unowned self] observer in
        subscribeCount += 1
        observers.append(observer)
        return Disposables.create { [unowned self] in disposeCount += 1 }
    }

    /// Sends `event` to the newest subscription.
    func send(_ event: Event<Element>) {
        observers.last?.on(event)
    }
}

/// An element whose deinit checks, from another thread, that `probe` can run: it fails
/// (rather than hangs) when the element is released while a lock `probe` needs is held.
final class SubjectLockProbe: @unchecked Sendable { // `gotThrough` is written before it is read, on one thread
    private let probe: @Sendable () -> Void
    private let onRelease: (Bool) -> Void

    init(probe: @escaping @Sendable () -> Void, onRelease: @escaping (Bool) -> Void) {
        self.probe = probe
        self.onRelease = onRelease
    }

    deinit {
        let done = DispatchSemaphore(value: 0)
        let probe = self.probe
        DispatchQueue.global().async {
            probe()
            done.signal()
        }
        onRelease(done.wait(timeout: .now() + 5) == .success)
    }
}
