import RxCore
import XCTest

final class ObservableCreateTests: XCTestCase {
    func testCreateIsColdAndRunsOncePerSubscription() {
        var runs = 0
        let source = Observable<Int>.create { observer in
            runs += 1
            observer.onNext(runs)
            observer.onCompleted()
            return Disposables.create()
        }
        var seen: [Int] = []
        _ = source.subscribe(onNext: { seen.append($0) })
        _ = source.subscribe(onNext: { seen.append($0) })
        XCTAssertEqual(runs, 2)
        XCTAssertEqual(seen, [1, 2])
    }

    func testEventsAfterTerminalAreIgnoredAndDisposableDisposedOnce() {
        var disposals = 0
        var events: [String] = []
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onCompleted()
            observer.onNext(2)
            observer.onError(RxError.unknown)
            observer.onCompleted()
            return Disposables.create { disposals += 1 }
        }
        let subscription = source.subscribe(
            onNext: { events.append("next(\($0))") },
            onError: { _ in events.append("error") },
            onCompleted: { events.append("completed") },
            onDisposed: { events.append("disposed") }
        )
        subscription.dispose()
        XCTAssertEqual(events, ["next(1)", "completed", "disposed"])
        XCTAssertEqual(disposals, 1, "synchronous termination disposes the returned disposable as soon as it is returned")
    }

    func testExplicitDisposeCallsOnlyOnDisposed() {
        var events: [String] = []
        var disposals = 0
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            return Disposables.create { disposals += 1 }
        }
        let subscription = source.map { $0 * 10 }.subscribe(
            onNext: { events.append("next(\($0))") },
            onError: { _ in events.append("error") },
            onCompleted: { events.append("completed") },
            onDisposed: { events.append("disposed") }
        )
        subscription.dispose()
        subscription.dispose()
        XCTAssertEqual(events, ["next(10)", "disposed"])
        XCTAssertEqual(disposals, 1)
    }

    func testMapErrorEndsSequence() {
        struct Boom: Error {}
        var events: [String] = []
        _ = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onNext(2)
            observer.onNext(3)
            return Disposables.create()
        }
        .map { value -> Int in
            if value == 2 { throw Boom() }
            return value
        }
        .subscribe(onNext: { events.append("\($0)") }, onError: { _ in events.append("error") })
        XCTAssertEqual(events, ["1", "error"])
    }

    func testLaterTerminationDisposesTheReturnedDisposableOnce() {
        var observer: AnyObserver<Int>?
        var disposals = 0
        let subscription = Observable<Int>.create { o in
            observer = o
            return Disposables.create { disposals += 1 }
        }.subscribe()
        XCTAssertEqual(disposals, 0)
        observer?.onError(testError)
        XCTAssertEqual(disposals, 1, "disposed right after the terminal event")
        subscription.dispose()
        observer?.onCompleted()
        XCTAssertEqual(disposals, 1)
    }

    func testDisposeBeforeTerminationDisposesOnceAndDropsLaterEvents() {
        var observer: AnyObserver<Int>?
        var disposals = 0
        var seen: [Int] = []
        var completed = false
        let subscription = Observable<Int>.create { o in
            observer = o
            return Disposables.create { disposals += 1 }
        }.subscribe(onNext: { seen.append($0) }, onCompleted: { completed = true })
        observer?.onNext(1)
        subscription.dispose()
        observer?.onNext(2)
        observer?.onCompleted()
        XCTAssertEqual(disposals, 1)
        XCTAssertEqual(seen, [1])
        XCTAssertFalse(completed)
    }

    func testSynchronousErrorDisposesTheReturnedDisposableAsSoonAsItIsReturned() {
        var disposedWhileSubscribing = false
        var disposals = 0
        _ = Observable<Int>.create { observer in
            observer.onError(testError)
            disposedWhileSubscribing = disposals > 0
            return Disposables.create { disposals += 1 }
        }.subscribe(onError: { _ in })
        XCTAssertFalse(disposedWhileSubscribing, "it cannot be disposed before it exists")
        XCTAssertEqual(disposals, 1)
    }
}
