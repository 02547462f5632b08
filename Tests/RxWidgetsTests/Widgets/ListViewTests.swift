import RxCore
import RxWidgets
import XCTest

final class ListViewTests: XCTestCase {
    func testItemsBindsArraysOfElementsToKeyedRows() {
        let list = ListView()
        let tree = widgetTestTree(["list": list])
        let source = PublishSubject<[Int]>()
        let subscription = source.bind(to: list.rx.items) { view, index, element in
            XCTAssertTrue(view === list)
            return ListRow(id: "n\(element)", fields: ["index": .number(Double(index))])
        }
        source.onNext([3, 1])
        XCTAssertEqual(list.items.map(\.id), ["n3", "n1"])
        XCTAssertEqual(list.items[1]["index"], .number(1))
        XCTAssertEqual(widgetTestChanges(tree), ["list.items = 2 rows"])

        source.onCompleted()
        XCTAssertEqual(list.items.count, 2, "completion keeps the rows")
        subscription.dispose()
        XCTAssertEqual(tree.snapshot()[0].kind, "listView")
    }

    func testDuplicateRowIDsAreABindingErrorAndKeepTheRows() {
        let list = ListView()
        let source = PublishSubject<[String]>()
        _ = source.bind(to: list.rx.items) { _, _, element in ListRow(id: element) }
        let errors = widgetTestBindingErrors {
            source.onNext(["a", "b"])
            source.onNext(["a", "a"])
            source.onError(WidgetTestError())
        }
        XCTAssertEqual(errors, ["list '': duplicate row id 'a'", "boom"])
        XCTAssertEqual(list.items.map(\.id), ["a", "b"])
    }

    func testItemsDoNotKeepTheListAlive() {
        var list: ListView? = ListView()
        weak let weakList = list
        let source = PublishSubject<[String]>()
        _ = source.bind(to: list!.rx.items) { _, _, element in ListRow(id: element) }
        list = nil
        XCTAssertNil(weakList)
        source.onNext(["a"])
    }
}
