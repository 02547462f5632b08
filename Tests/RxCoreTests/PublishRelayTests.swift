import RxCore
import XCTest

final class PublishRelayTests: XCTestCase {
    func testAcceptSendsToCurrentSubscribersWithoutReplay() {
        let relay = PublishRelay<Int>()
        relay.accept(1)
        let recorder = SubjectEventRecorder<Int>()
        _ = relay.subscribe(recorder)
        relay.accept(2)
        relay.accept(3)
        XCTAssertEqual(recorder.events, [.next(2), .next(3)])
    }

    func testAsObservableNeverTerminatesAndDisposes() {
        let relay = PublishRelay<Int>()
        var events: [String] = []
        let subscription = relay.asObservable().subscribe(
            onNext: { events.append("\($0)") },
            onError: { _ in events.append("error") },
            onCompleted: { events.append("completed") },
            onDisposed: { events.append("disposed") }
        )
        relay.accept(1)
        subscription.dispose()
        relay.accept(2)
        XCTAssertEqual(events, ["1", "disposed"])
    }
}
