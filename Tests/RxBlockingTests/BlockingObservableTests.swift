import Foundation
import RxBlocking
import RxCore
import XCTest

final class BlockingObservableTests: XCTestCase {
    struct Failure: Error, Equatable {}

    func testToArrayReturnsEveryElement() throws {
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().toArray(), [1, 2, 3])
        XCTAssertEqual(try Observable<Int>.empty().toBlocking().toArray(), [])
    }

    func testToArrayThrowsTheSequencesError() {
        let source = Observable.of(1, 2).concat(Observable<Int>.error(Failure()))
        XCTAssertThrowsError(try source.toBlocking().toArray()) { XCTAssertEqual($0 as? Failure, Failure()) }
    }

    func testFirstTakesOneElementAndDisposes() throws {
        var sent: [Int] = []
        var disposed = false
        let source = Observable<Int>.create { observer in
            for element in 1...3 {
                sent.append(element)
                observer.onNext(element)
            }
            return Disposables.create { disposed = true }
        }
        XCTAssertEqual(try source.toBlocking().first(), 1)
        XCTAssertTrue(disposed)
        XCTAssertEqual(sent, [1, 2, 3]) // a synchronous source runs on, but its later elements are dropped
    }

    func testEndlessSynchronousSourcesStopOnceAnswered() throws {
        XCTAssertEqual(try Observable.repeatElement(5).toBlocking().first(), 5)
        XCTAssertThrowsError(try Observable.repeatElement(5).toBlocking().single()) {
            guard case RxError.moreThanOneElement = $0 else { return XCTFail("\($0)") }
        }
    }

    func testPredicateIsNotCalledOnceAnswered() {
        var seen: [Int] = []
        XCTAssertThrowsError(try Observable.of(42, 43, 44, 45).toBlocking().single { seen.append($0); return $0 >= 43 })
        XCTAssertEqual(seen, [42, 43, 44])
        seen = []
        XCTAssertThrowsError(try Observable.of(42, 43, 44).toBlocking().single {
            seen.append($0)
            if $0 < 43 { return false }
            throw Failure()
        })
        XCTAssertEqual(seen, [42, 43])
    }

    func testFirstOfEmptyIsNilAndFirstOfErrorThrows() throws {
        XCTAssertNil(try Observable<Int>.empty().toBlocking().first())
        XCTAssertThrowsError(try Observable<Int>.error(Failure()).toBlocking().first())
    }

    func testLastReturnsTheLastElement() throws {
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().last(), 3)
        XCTAssertNil(try Observable<Int>.empty().toBlocking().last())
        XCTAssertThrowsError(try Observable.of(1).concat(Observable<Int>.error(Failure())).toBlocking().last())
    }

    func testSingleNeedsExactlyOneElement() throws {
        XCTAssertEqual(try Observable.just(7).toBlocking().single(), 7)
        XCTAssertThrowsError(try Observable<Int>.empty().toBlocking().single()) {
            guard case RxError.noElements = $0 else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try Observable.of(1, 2).toBlocking().single()) {
            guard case RxError.moreThanOneElement = $0 else { return XCTFail("\($0)") }
        }
    }

    func testSinglePredicateCountsOnlyMatches() throws {
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().single { $0 == 2 }, 2)
        XCTAssertThrowsError(try Observable.of(1, 2, 3).toBlocking().single { $0 > 1 }) {
            guard case RxError.moreThanOneElement = $0 else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try Observable.of(1, 2, 3).toBlocking().single { $0 > 5 }) {
            guard case RxError.noElements = $0 else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try Observable.of(1, 2).toBlocking().single { _ in throw Failure() }) {
            XCTAssertEqual($0 as? Failure, Failure())
        }
    }

    func testMaterializeReportsCompletionOrFailureWithTheElements() {
        guard case .completed(let elements) = Observable.of(1, 2).toBlocking().materialize() else {
            return XCTFail("expected completed")
        }
        XCTAssertEqual(elements, [1, 2])
        let failing = Observable.of(1, 2).concat(Observable<Int>.error(Failure()))
        guard case .failed(let partial, let error) = failing.toBlocking().materialize() else {
            return XCTFail("expected failed")
        }
        XCTAssertEqual(partial, [1, 2])
        XCTAssertEqual(error as? Failure, Failure())
    }

    func testTimeoutThrowsRxErrorTimeoutAndDisposes() {
        var disposed = false
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            return Disposables.create { disposed = true }
        }
        let started = Date()
        XCTAssertThrowsError(try source.toBlocking(timeout: 0.05).toArray()) {
            guard case RxError.timeout = $0 else { return XCTFail("\($0)") }
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.05)
        XCTAssertTrue(disposed)
        guard case .failed(let elements, RxError.timeout) = source.toBlocking(timeout: 0.02).materialize() else {
            return XCTFail("expected a timeout")
        }
        XCTAssertEqual(elements, [1])
    }
}
