import RxCore
import XCTest

/// Records the order in which disposables run.
final class DisposablesTestLog: @unchecked Sendable { // single-threaded use
    private(set) var entries: [String] = []

    func disposable(_ name: String) -> Cancelable {
        Disposables.create { [unowned self] in entries.append(name) }
    }
}

final class DisposablesTests: XCTestCase {
    // MARK: Disposables.create

    func testCreateWithActionRunsAtMostOnce() {
        var runs = 0
        let disposable = Disposables.create { runs += 1 }
        XCTAssertFalse(disposable.isDisposed)
        XCTAssertEqual(runs, 0)
        disposable.dispose()
        disposable.dispose()
        XCTAssertEqual(runs, 1)
        XCTAssertTrue(disposable.isDisposed)
    }

    func testCreateWithActionReleasesActionAfterRunning() {
        final class Resource {}
        weak var weakResource: Resource?
        let disposable: Disposable
        do {
            let resource = Resource()
            weakResource = resource
            disposable = Disposables.create { _ = resource }
        }
        XCTAssertNotNil(weakResource)
        disposable.dispose()
        XCTAssertNil(weakResource, "the action and what it captures are released once run")
    }

    func testCreateIsNoOp() {
        let disposable = Disposables.create()
        disposable.dispose()
        disposable.dispose()
        XCTAssertFalse(disposable is Cancelable, "the no-op disposable carries no state")
    }

    func testCreateOfTwoThreeAndManyDisposesAllInOrder() {
        let log = DisposablesTestLog()
        Disposables.create(log.disposable("a"), log.disposable("b")).dispose()
        Disposables.create(log.disposable("c"), log.disposable("d"), log.disposable("e")).dispose()
        Disposables.create(log.disposable("f"), log.disposable("g"), log.disposable("h"), log.disposable("i")).dispose()
        Disposables.create([log.disposable("j"), log.disposable("k")]).dispose()
        Disposables.create([log.disposable("l")]).dispose()
        XCTAssertEqual(log.entries, ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"])
    }

    func testBinaryDisposableDisposesOnce() {
        let log = DisposablesTestLog()
        let both = Disposables.create(log.disposable("a"), log.disposable("b"))
        both.dispose()
        both.dispose()
        XCTAssertTrue(both.isDisposed)
        XCTAssertEqual(log.entries, ["a", "b"])
    }

    func testBooleanDisposable() {
        let disposable = BooleanDisposable()
        XCTAssertFalse(disposable.isDisposed)
        disposable.dispose()
        XCTAssertTrue(disposable.isDisposed)
        XCTAssertTrue(BooleanDisposable(isDisposed: true).isDisposed)
        XCTAssertTrue(BooleanDisposable.booleanDisposableTrue.isDisposed)
    }

    // MARK: DisposeBag

    func testDisposeBagDisposesOnDeinitInInsertionOrder() {
        let log = DisposablesTestLog()
        var bag: DisposeBag? = DisposeBag()
        bag!.insert(log.disposable("a"))
        bag!.insert(log.disposable("b"))
        log.disposable("c").disposed(by: bag!)
        XCTAssertEqual(log.entries, [], "nothing is disposed before the bag goes away")
        bag = nil
        XCTAssertEqual(log.entries, ["a", "b", "c"])
    }

    func testDisposeBagVariadicArrayAndBuilderInsert() {
        let log = DisposablesTestLog()
        var bag: DisposeBag? = DisposeBag()
        bag!.insert(log.disposable("a"), log.disposable("b"))
        bag!.insert([log.disposable("c"), log.disposable("d")])
        bag!.insert {
            log.disposable("e")
            log.disposable("f")
        }
        bag = nil
        XCTAssertEqual(log.entries, ["a", "b", "c", "d", "e", "f"])
    }

    func testDisposeBagInitialisers() {
        let log = DisposablesTestLog()
        var variadic: DisposeBag? = DisposeBag(disposing: log.disposable("a"), log.disposable("b"))
        var array: DisposeBag? = DisposeBag(disposing: [log.disposable("c")])
        var built: DisposeBag? = DisposeBag {
            log.disposable("d")
            log.disposable("e")
        }
        variadic = nil
        array = nil
        built = nil
        _ = (variadic, array, built)
        XCTAssertEqual(log.entries, ["a", "b", "c", "d", "e"])
    }

    func testDisposeBagEndsSubscriptions() {
        let subject = PublishSubject<Int>()
        var seen: [Int] = []
        var bag: DisposeBag? = DisposeBag()
        subject.subscribe(onNext: { seen.append($0) }).disposed(by: bag!)
        subject.onNext(1)
        bag = nil
        subject.onNext(2)
        XCTAssertEqual(seen, [1])
        XCTAssertFalse(subject.hasObservers)
    }

    // MARK: CompositeDisposable

    func testCompositeInsertReturnsKeyAndDisposeDisposesAllInOrder() {
        let log = DisposablesTestLog()
        let composite = CompositeDisposable()
        XCTAssertNotNil(composite.insert(log.disposable("a")))
        XCTAssertNotNil(composite.insert(log.disposable("b")))
        XCTAssertEqual(composite.count, 2)
        XCTAssertFalse(composite.isDisposed)
        composite.dispose()
        XCTAssertEqual(log.entries, ["a", "b"])
        XCTAssertTrue(composite.isDisposed)
    }

    func testCompositeInsertAfterDisposeReturnsNilAndDisposesAtOnce() {
        let log = DisposablesTestLog()
        let composite = CompositeDisposable()
        composite.dispose()
        XCTAssertNil(composite.insert(log.disposable("late")))
        XCTAssertEqual(log.entries, ["late"])
    }

    func testCompositeRemoveDisposesThatItemOnly() {
        let log = DisposablesTestLog()
        let composite = CompositeDisposable()
        _ = composite.insert(log.disposable("a"))
        let key = composite.insert(log.disposable("b"))!
        _ = composite.insert(log.disposable("c"))
        composite.remove(for: key)
        XCTAssertEqual(log.entries, ["b"])
        XCTAssertEqual(composite.count, 2)
        composite.remove(for: key)
        XCTAssertEqual(log.entries, ["b"], "removing twice does nothing")
        composite.dispose()
        XCTAssertEqual(log.entries, ["b", "a", "c"])
    }

    func testCompositeCountIsZeroAfterDispose() {
        let composite = CompositeDisposable(Disposables.create(), Disposables.create())
        XCTAssertEqual(composite.count, 2)
        composite.dispose()
        XCTAssertEqual(composite.count, 0)
    }

    func testCompositeInitialisers() {
        let log = DisposablesTestLog()
        CompositeDisposable(log.disposable("a"), log.disposable("b"), log.disposable("c")).dispose()
        CompositeDisposable(disposables: [log.disposable("d"), log.disposable("e")]).dispose()
        XCTAssertEqual(log.entries, ["a", "b", "c", "d", "e"])
    }

    // MARK: SerialDisposable

    func testSerialReplacingDisposesPrevious() {
        let log = DisposablesTestLog()
        let serial = SerialDisposable()
        serial.disposable = log.disposable("a")
        XCTAssertEqual(log.entries, [])
        serial.disposable = log.disposable("b")
        XCTAssertEqual(log.entries, ["a"])
        serial.dispose()
        XCTAssertEqual(log.entries, ["a", "b"])
        XCTAssertTrue(serial.isDisposed)
    }

    func testSerialSetAfterDisposeDisposesAtOnce() {
        let log = DisposablesTestLog()
        let serial = SerialDisposable()
        serial.dispose()
        serial.disposable = log.disposable("late")
        XCTAssertEqual(log.entries, ["late"])
    }

    // MARK: SingleAssignmentDisposable

    func testSingleAssignmentDisposeAfterSetDisposesIt() {
        let log = DisposablesTestLog()
        let single = SingleAssignmentDisposable()
        single.setDisposable(log.disposable("a"))
        XCTAssertFalse(single.isDisposed)
        XCTAssertEqual(log.entries, [])
        single.dispose()
        single.dispose()
        XCTAssertEqual(log.entries, ["a"])
        XCTAssertTrue(single.isDisposed)
    }

    func testSingleAssignmentSetAfterDisposeDisposesAtOnce() {
        let log = DisposablesTestLog()
        let single = SingleAssignmentDisposable()
        single.dispose()
        XCTAssertTrue(single.isDisposed)
        single.setDisposable(log.disposable("late"))
        XCTAssertEqual(log.entries, ["late"])
    }

    // MARK: RefCountDisposable

    func testRefCountDisposesWhenPrimaryAndAllInnerAreDisposed() {
        let log = DisposablesTestLog()
        let refCount = RefCountDisposable(disposable: log.disposable("underlying"))
        let inner1 = refCount.retain()
        let inner2 = refCount.retain()
        refCount.dispose()
        XCTAssertEqual(log.entries, [], "inner references keep it alive")
        XCTAssertFalse(refCount.isDisposed)
        inner1.dispose()
        inner1.dispose()
        XCTAssertEqual(log.entries, [], "an inner one disposed twice counts once")
        inner2.dispose()
        XCTAssertEqual(log.entries, ["underlying"])
        XCTAssertTrue(refCount.isDisposed)
    }

    func testRefCountInnerDisposedBeforePrimaryWaitsForPrimary() {
        let log = DisposablesTestLog()
        let refCount = RefCountDisposable(disposable: log.disposable("underlying"))
        refCount.retain().dispose()
        XCTAssertEqual(log.entries, [])
        refCount.dispose()
        refCount.dispose()
        XCTAssertEqual(log.entries, ["underlying"])
    }

    func testRefCountRetainAfterUnderlyingDisposedIsNoOp() {
        let log = DisposablesTestLog()
        let refCount = RefCountDisposable(disposable: log.disposable("underlying"))
        refCount.dispose()
        XCTAssertEqual(log.entries, ["underlying"])
        refCount.retain().dispose()
        XCTAssertEqual(log.entries, ["underlying"])
    }

    // MARK: ScheduledDisposable

    func testScheduledDisposableDisposesOnItsScheduler() {
        final class RecordingScheduler: ImmediateSchedulerType {
            var scheduled = 0
            func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
                scheduled += 1
                return action(state)
            }
        }
        let log = DisposablesTestLog()
        let scheduler = RecordingScheduler()
        let disposable = ScheduledDisposable(scheduler: scheduler, disposable: log.disposable("inner"))
        disposable.dispose()
        disposable.dispose()
        XCTAssertEqual(log.entries, ["inner"])
        XCTAssertTrue(disposable.isDisposed)
        XCTAssertGreaterThanOrEqual(scheduler.scheduled, 1)
    }
}
