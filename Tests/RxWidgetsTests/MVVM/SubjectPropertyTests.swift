import RxCore
import RxTesting
import RxWidgets
import XCTest

private final class Model: BindableObject {
    @SubjectProperty var name = "a"
    @SubjectProperty(wrappedValue: 0, key: "count") var count: Int
    var changedKeys: [AnyHashable] = []

    init() {
        _count.delegate = self
        _name.delegate = self
    }

    func didChanged(key: AnyHashable) {
        changedKeys.append(key)
    }

    var nameKey: AnyHashable { _name.key }
}

final class SubjectPropertyTests: XCTestCase {
    func testProjectionReplaysTheValueAndFollowsWritesFromEitherSide() {
        let model = Model()
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(String.self)
        _ = model.$name.subscribe(observer)
        model.name = "b"          // the owner writes
        model.$name.onNext("c")   // a view writes
        XCTAssertEqual(model.name, "c")
        XCTAssertEqual(observer.events, [.next(0, "a"), .next(0, "b"), .next(0, "c")])
    }

    func testTerminalEventsFromAViewAreIgnored() {
        let model = Model()
        var events: [String] = []
        _ = model.$name.subscribe(onNext: { events.append($0) }, onError: { _ in events.append("error") }, onCompleted: { events.append("completed") })
        Observable.of("x", "y").bind(to: model.$name).dispose() // completes
        model.$name.onError(WidgetTestError())
        model.name = "z"
        XCTAssertEqual(events, ["a", "x", "y", "z"])
    }

    func testTheDelegateIsToldTheKey() {
        let model = Model()
        model.count = 1
        model.$count.onNext(2)
        model.name = "q"
        XCTAssertEqual(model.changedKeys, ["count", "count", model.nameKey])
    }

    func testTwoWayBindingWithATextFieldDoesNotEcho() throws {
        let model = Model()
        let field = TextField()
        let tree = widgetTestTree(["name": field])
        let bag = DisposeBag()
        model.$name.bind(to: field.rx.text).disposed(by: bag)
        field.rx.text.orEmpty.bind(to: model.$name).disposed(by: bag)
        XCTAssertEqual(field.text, "a")

        try field.sendUserEvent(.editingChanged, value: .string("typed"))
        XCTAssertEqual(model.name, "typed")
        model.name = "from model"
        XCTAssertEqual(field.text, "from model")
        XCTAssertEqual(model.changedKeys.count, 3, "the field replaying its text on binding, the user's text, the model's write")
        XCTAssertEqual(widgetTestChanges(tree), ["name.text = \"from model\""])
    }
}

final class ObservablePropertyTests: XCTestCase {
    private final class Owner {
        @ObservableProperty private(set) var items: [Int] = []

        func add(_ item: Int) {
            items.append(item)
        }
    }

    func testProjectionIsAnObservableOfTheValue() {
        let owner = Owner()
        var seen: [[Int]] = []
        let subscription = owner.$items.subscribe(onNext: { seen.append($0) })
        owner.add(1)
        owner.add(2)
        subscription.dispose()
        owner.add(3)
        XCTAssertEqual(seen, [[], [1], [1, 2]])
        XCTAssertEqual(owner.items, [1, 2, 3])

        var late: [[Int]] = []
        _ = owner.$items.subscribe(onNext: { late.append($0) })
        XCTAssertEqual(late, [[1, 2, 3]], "current value first")
    }
}
