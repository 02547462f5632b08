import RxCore
import RxTesting
import XCTest

final class PrimitiveSequenceEventEquatableTests: XCTestCase {
    private struct Failure: Error, CustomStringConvertible {
        let id: Int
        var description: String { "Failure(\(id))" }
    }

    func testSingleEvents() {
        var events: [SingleEvent<Int>] = []
        _ = Single.just(1).subscribe { events.append($0) }
        _ = Single<Int>.error(Failure(id: 1)).subscribe { events.append($0) }
        XCTAssertEqual(events, [.success(1), .failure(Failure(id: 1))])
        XCTAssertFalse(SingleEvent<Int>.success(1) == .success(2))
        XCTAssertFalse(SingleEvent<Int>.failure(Failure(id: 1)) == .failure(Failure(id: 2)))
        XCTAssertFalse(SingleEvent<Int>.success(1) == .failure(Failure(id: 1)))
    }

    func testMaybeEvents() {
        var events: [MaybeEvent<Int>] = []
        _ = Maybe.just(1).subscribe { events.append($0) }
        _ = Maybe<Int>.empty().subscribe { events.append($0) }
        _ = Maybe<Int>.error(Failure(id: 1)).subscribe { events.append($0) }
        XCTAssertEqual(events, [.success(1), .completed, .error(Failure(id: 1))])
        XCTAssertNotEqual(MaybeEvent<Int>.success(1), .completed)
        XCTAssertNotEqual(MaybeEvent<Int>.error(Failure(id: 1)), .error(Failure(id: 2)))
    }

    func testCompletableEvents() {
        var events: [CompletableEvent] = []
        _ = Completable.empty().subscribe { events.append($0) }
        _ = Completable.error(Failure(id: 1)).subscribe { events.append($0) }
        XCTAssertEqual(events, [.completed, .error(Failure(id: 1))])
        XCTAssertNotEqual(CompletableEvent.completed, .error(Failure(id: 1)))
    }
}
