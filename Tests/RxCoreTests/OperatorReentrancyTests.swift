import RxCore
import RxTesting
import XCTest

/// The new operators when their observer synchronously sends into their source again:
/// the nested element is handled completely, in order, before the outer call goes on.
final class OperatorReentrancyTests: XCTestCase {
    /// Sends 1, 3, completed into a subject; on receiving 1, the observer sends 2.
    private func reentrantEvents<Result>(_ transform: (Observable<Int>) -> Observable<Result>) -> [String] {
        let subject = PublishSubject<Int>()
        var events: [String] = []
        let subscription = transform(subject.asObservable()).subscribe(
            onNext: { value in
                events.append("\(value)")
                if events.count == 1 { subject.onNext(2) }
            },
            onError: { events.append("error \($0)") },
            onCompleted: { events.append("completed") }
        )
        subject.onNext(1)
        subject.onNext(3)
        subject.onCompleted()
        subscription.dispose()
        return events
    }

    func testEnumerated() {
        XCTAssertEqual(reentrantEvents { $0.enumerated().map { "\($0.index):\($0.element)" } }, ["0:1", "1:2", "2:3", "completed"])
    }

    func testSingleSeesTheNestedElementAsTheSecond() {
        XCTAssertEqual(reentrantEvents { $0.single() }, ["1", "error \(RxError.moreThanOneElement)"])
    }

    func testIfEmptyAndWithUnretained() {
        final class Owner {}
        let owner = Owner()
        XCTAssertEqual(reentrantEvents { $0.ifEmpty(default: 0) }, ["1", "2", "3", "completed"])
        XCTAssertEqual(reentrantEvents { $0.withUnretained(owner).map { $1 } }, ["1", "2", "3", "completed"])
        withExtendedLifetime(owner) {}
    }

    func testAmbTakeForDebugUsing() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(reentrantEvents { $0.amb(Observable.never()) }, ["1", "2", "3", "completed"])
        XCTAssertEqual(reentrantEvents { $0.take(for: .seconds(100), scheduler: scheduler) }, ["1", "2", "3", "completed"])
        XCTAssertEqual(reentrantEvents { $0.debug("reentrant") }, ["1", "2", "3", "completed"])
        XCTAssertEqual(reentrantEvents { source in Observable.using({ BooleanDisposable() }, observableFactory: { _ in source }) }, ["1", "2", "3", "completed"])
    }

    func testCatchSequenceAndRetryWhen() {
        XCTAssertEqual(reentrantEvents { Observable.catch(sequence: [$0]) }, ["1", "2", "3", "completed"])
        XCTAssertEqual(reentrantEvents { $0.retry(when: { (errors: Observable<Swift.Error>) in errors }) }, ["1", "2", "3", "completed"])
    }

    func testWindowCountsTheNestedElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let windows = reentrantEvents { source in
            source.window(timeSpan: .seconds(100), count: 2, scheduler: scheduler)
                .enumerated()
                .flatMap { index, window in window.map { "w\(index):\($0)" } }
        }
        XCTAssertEqual(windows, ["w0:1", "w0:2", "w1:3", "completed"])
    }

    func testGroupBy() {
        let groups = reentrantEvents { source in
            source.groupBy { $0 % 2 }.flatMap { group in group.asObservable().map { "g\(group.key):\($0)" } }
        }
        XCTAssertEqual(groups, ["g1:1", "g0:2", "g1:3", "completed"])
    }
}
