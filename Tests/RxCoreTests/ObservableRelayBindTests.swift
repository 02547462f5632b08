import RxCore
import XCTest

final class ObservableRelayBindTests: XCTestCase {
    private var previousHandler: ((Swift.Error) -> Void)?
    private var reported: [String] = []

    override func setUp() {
        super.setUp()
        previousHandler = Hooks.bindingErrorHandler
        reported = []
        Hooks.bindingErrorHandler = { [unowned self] error in reported.append("\(error)") }
    }

    override func tearDown() {
        if let previousHandler { Hooks.bindingErrorHandler = previousHandler }
        super.tearDown()
    }

    func testBindToPublishRelaysForwardsNextToEachAndIgnoresCompleted() {
        let source = PublishSubject<Int>()
        let first = PublishRelay<Int>()
        let second = PublishRelay<Int>()
        let firstRecorder = SubjectEventRecorder<Int>()
        let secondRecorder = SubjectEventRecorder<Int>()
        _ = first.subscribe(firstRecorder)
        _ = second.subscribe(secondRecorder)
        _ = source.bind(to: first, second)
        source.onNext(1)
        source.onNext(2)
        source.onCompleted()
        first.accept(3)
        XCTAssertEqual(firstRecorder.events, [.next(1), .next(2), .next(3)], "completed is not forwarded; the relay lives on")
        XCTAssertEqual(secondRecorder.events, [.next(1), .next(2)])
        XCTAssertEqual(reported, [])
    }

    func testBindToBehaviorRelaySetsValue() {
        let relay = BehaviorRelay(value: 0)
        _ = Observable.just(5).bind(to: relay)
        XCTAssertEqual(relay.value, 5)
    }

    func testBindToReplayRelayBuffers() {
        let relay = ReplayRelay<Int>.create(bufferSize: 3)
        let source = PublishSubject<Int>()
        _ = source.bind(to: relay)
        source.onNext(1)
        source.onNext(2)
        let recorder = SubjectEventRecorder<Int>()
        _ = relay.subscribe(recorder)
        XCTAssertEqual(recorder.elements, [1, 2])
    }

    func testBindToOptionalRelays() {
        let source = PublishSubject<Int>()
        let publish = PublishRelay<Int?>()
        let behavior = BehaviorRelay<Int?>(value: nil)
        let replay = ReplayRelay<Int?>.create(bufferSize: 1)
        let recorder = SubjectEventRecorder<Int?>()
        _ = publish.subscribe(recorder)
        _ = source.bind(to: publish)
        _ = source.bind(to: behavior)
        _ = source.bind(to: replay)
        source.onNext(7)
        XCTAssertEqual(recorder.events, [.next(7)])
        XCTAssertEqual(behavior.value, 7)
        let replayed = SubjectEventRecorder<Int?>()
        _ = replay.subscribe(replayed)
        XCTAssertEqual(replayed.events, [.next(7)])
    }

    func testErrorIsReportedToBindingErrorHandlerNotForwardedAndDoesNotTrap() {
        let source = PublishSubject<Int>()
        let relay = BehaviorRelay(value: 0)
        let recorder = SubjectEventRecorder<Int>()
        _ = relay.subscribe(recorder)
        _ = source.bind(to: relay)
        source.onNext(1)
        source.onError(SubjectTestError(3))
        XCTAssertEqual(reported, ["SubjectTestError(id: 3)"])
        relay.accept(2)
        XCTAssertEqual(recorder.events, [.next(0), .next(1), .next(2)], "the relay never terminates")
    }

    func testDisposingBindingStopsForwarding() {
        let source = PublishSubject<Int>()
        let relay = PublishRelay<Int>()
        let recorder = SubjectEventRecorder<Int>()
        _ = relay.subscribe(recorder)
        let binding = source.bind(to: relay)
        source.onNext(1)
        binding.dispose()
        source.onNext(2)
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertFalse(source.hasObservers)
    }
}
