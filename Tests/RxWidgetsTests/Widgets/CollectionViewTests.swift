import Foundation
import RxCore
import RxWidgets
import XCTest

/// A photo for the sectioned data sources: identity = name.
private struct Tile: IdentifiableType, Equatable {
    let name: String
    var likes = 0
    var identity: String { name }
}

final class CollectionViewTests: XCTestCase {
    private func cell(_ text: String) -> CollectionViewCell {
        let cell = CollectionViewCell()
        cell.textLabel.text = text
        return cell
    }

    private func ids(_ view: CollectionView) -> [String] { view.rows.map(\.id) }

    private func texts(_ view: CollectionView) -> [String] {
        view.rows.map { row in
            if case .string(let text) = row["text"] { return text }
            return "?"
        }
    }

    private func select(_ view: CollectionView, _ key: String) throws {
        try view.receive(WidgetEvent(name: "itemSelected", row: key))
    }

    // MARK: - rx.items

    func testItemsClosureFormMakesOneItemPerElementKeyedByPosition() {
        let view = CollectionView()
        let tree = widgetTestTree(["grid": view])
        _ = view.snapshot()
        let source = PublishSubject<[String]>()
        var calls: [String] = []
        let subscription = source.bind(to: view.rx.items) { collectionView, row, element in
            XCTAssertTrue(collectionView === view)
            calls.append("\(row):\(element)")
            let cell = self.cell(element)
            cell.backgroundColor = .red
            return cell
        }
        source.onNext(["cat", "dog"])
        XCTAssertEqual(calls, ["0:cat", "1:dog"])
        XCTAssertEqual(ids(view), ["0.0", "0.1"])
        XCTAssertEqual(view.rows[1].fields, ["text": .string("dog"), "backgroundColor": .color(.red),
                                             "section": .string("0")])
        XCTAssertEqual(widgetTestChanges(tree), ["grid.sections = 1 rows", "grid.items = 2 rows"])
        XCTAssertEqual(view.numberOfSections, 1)
        XCTAssertEqual(view.numberOfItems(inSection: 0), 2)
        XCTAssertEqual(view.numberOfItems(inSection: 1), 0)
        subscription.dispose()
        XCTAssertNil(view.dataSource, "disposing the binding uninstalls its data source")
    }

    func testItemsWithCellIdentifierDequeuesTheRegisteredClass() {
        final class PhotoCell: CollectionViewCell {}
        let view = CollectionView()
        view.register(PhotoCell.self, forCellWithReuseIdentifier: "Photo")
        let bag = DisposeBag()
        var cells: [CollectionViewCell] = []
        Observable.just(["a", "b"])
            .bind(to: view.rx.items(cellIdentifier: "Photo", cellType: PhotoCell.self)) { row, element, cell in
                cell.textLabel.text = "\(row)=\(element)"
                cells.append(cell)
            }
            .disposed(by: bag)
        XCTAssertEqual(texts(view), ["0=a", "1=b"])
        XCTAssertEqual(cells.map(\.reuseIdentifier), ["Photo", "Photo"])
        XCTAssertTrue(cells.allSatisfy { $0 is PhotoCell })
    }

    func testAnUnregisteredIdentifierIsABindingErrorNotACrash() {
        let view = CollectionView()
        view.id = "grid"
        let errors = widgetTestBindingErrors {
            let cell = view.dequeueReusableCell(withReuseIdentifier: "Nope", for: IndexPath(item: 0, section: 0))
            XCTAssertEqual(cell.reuseIdentifier, "Nope")
        }
        XCTAssertEqual(errors, ["collection view 'grid': nothing registered for identifier 'Nope'"])
    }

    func testASecondItemsBindingIsReported() {
        let view = CollectionView()
        view.id = "grid"
        let bag = DisposeBag()
        let errors = widgetTestBindingErrors {
            Observable.just([1]).bind(to: view.rx.items) { _, _, n in self.cell("\(n)") }.disposed(by: bag)
            Observable.just([2]).bind(to: view.rx.items) { _, _, n in self.cell("\(n)") }.disposed(by: bag)
        }
        XCTAssertEqual(errors, ["collection view 'grid': an rx.items binding is already active; dispose it before binding another"])
    }

    // MARK: - Layout

    func testFlowLayoutIsSentAndItsChangesAreRecorded() {
        let layout = CollectionViewFlowLayout()
        XCTAssertEqual(layout.itemSize, CGSize(width: 50, height: 50), "UIKit's default")
        XCTAssertEqual(layout.minimumInteritemSpacing, 10)
        XCTAssertEqual(layout.minimumLineSpacing, 10)
        layout.itemSize = CGSize(width: 120, height: 90)
        let view = CollectionView(frame: .zero, collectionViewLayout: layout)
        XCTAssertTrue(layout.collectionView === view)
        let tree = widgetTestTree(["grid": view])
        let snapshot = view.snapshot()
        XCTAssertEqual(snapshot["itemWidth"], .number(120))
        XCTAssertEqual(snapshot["itemHeight"], .number(90))
        XCTAssertEqual(snapshot["minimumInteritemSpacing"], .number(10))
        XCTAssertEqual(snapshot["scrollDirection"], .string("vertical"))
        layout.minimumLineSpacing = 4
        layout.itemSize = CGSize(width: 120, height: 100)
        XCTAssertEqual(widgetTestChanges(tree), ["grid.minimumLineSpacing = 4.0", "grid.itemHeight = 100.0"])
        let other = CollectionViewFlowLayout()
        view.setCollectionViewLayout(other, animated: false)
        XCTAssertNil(layout.collectionView)
        layout.itemSize = .zero
        XCTAssertEqual(widgetTestChanges(tree), ["grid.itemHeight = 50.0", "grid.itemWidth = 50.0",
                                                 "grid.minimumLineSpacing = 10.0"], "the old layout no longer counts")
    }

    // MARK: - Selection

    func testSelectingAnItemDeselectsTheOtherFirstThenSendsItemSelectedAndModelSelected() throws {
        let view = CollectionView()
        let tree = widgetTestTree(["grid": view])
        let bag = DisposeBag()
        Observable.just(["a", "b", "c"]).bind(to: view.rx.items) { _, _, s in self.cell(s) }.disposed(by: bag)
        _ = tree.takeChanges()
        var log: [String] = []
        view.rx.itemDeselected.subscribe(onNext: { log.append("deselected \($0.item)") }).disposed(by: bag)
        view.rx.itemSelected.subscribe(onNext: { log.append("selected \($0.item) (now \(view.selectedItemKeys))") })
            .disposed(by: bag)
        view.rx.modelSelected(String.self).subscribe(onNext: { log.append("model \($0)") }).disposed(by: bag)
        try select(view, "0.1")
        XCTAssertEqual(widgetTestChanges(tree), ["grid.selectedItems = [\"0.1\"]"])
        try select(view, "0.2")
        XCTAssertEqual(log, ["selected 1 (now [\"0.1\"])", "model b",
                             "deselected 1", "selected 2 (now [\"0.2\"])", "model c"])
        XCTAssertEqual(view.indexPathsForSelectedItems, [IndexPath(item: 2, section: 0)])
        XCTAssertEqual(widgetTestChanges(tree), ["grid.selectedItems = [\"0.2\"]"])
    }

    func testMultipleSelectionAndDeselection() throws {
        let view = CollectionView()
        view.allowsMultipleSelection = true
        let bag = DisposeBag()
        Observable.just(["a", "b"]).bind(to: view.rx.items) { _, _, s in self.cell(s) }.disposed(by: bag)
        var log: [String] = []
        view.rx.modelDeselected(String.self).subscribe(onNext: { log.append("-\($0)") }).disposed(by: bag)
        view.rx.itemSelected.subscribe(onNext: { log.append("+\($0.item)") }).disposed(by: bag)
        try select(view, "0.0")
        try select(view, "0.1")
        try view.receive(WidgetEvent(name: "itemDeselected", row: "0.0"))
        try view.receive(WidgetEvent(name: "itemDeselected", row: "0.0"))  // not selected: nothing
        XCTAssertEqual(log, ["+0", "+1", "-a"])
        XCTAssertEqual(view.selectedItemKeys, ["0.1"])
    }

    func testProgrammaticSelectionSendsNoEventAndReloadClearsIt() {
        let view = CollectionView()
        let bag = DisposeBag()
        let source = BehaviorSubject(value: ["a", "b"])
        source.bind(to: view.rx.items) { _, _, s in self.cell(s) }.disposed(by: bag)
        var events = 0
        view.rx.itemSelected.subscribe(onNext: { _ in events += 1 }).disposed(by: bag)
        view.selectItem(at: IndexPath(item: 1, section: 0), animated: false, scrollPosition: .centeredVertically)
        XCTAssertEqual(view.selectedItemKeys, ["0.1"])
        view.deselectItem(at: IndexPath(item: 1, section: 0), animated: false)
        XCTAssertEqual(view.selectedItemKeys, [])
        view.selectItem(at: IndexPath(item: 0, section: 0), animated: false, scrollPosition: [])
        source.onNext(["a", "b", "c"])
        XCTAssertNil(view.indexPathsForSelectedItems, "a reload clears the selection, as reloadData")
        XCTAssertEqual(events, 0)
    }

    func testBadItemEventsThrowStableCodesAndChangeNothing() {
        let view = CollectionView()
        view.id = "grid"
        let bag = DisposeBag()
        Observable.just(["a"]).bind(to: view.rx.items) { _, _, s in self.cell(s) }.disposed(by: bag)
        func code(_ event: WidgetEvent) -> String {
            do { try view.receive(event); return "ok" } catch { return "\(error.code): \(error.message)" }
        }
        XCTAssertEqual(code(WidgetEvent(name: "itemSelected", row: "9.9")), "unknownRow: collectionView 'grid' has no item '9.9'")
        XCTAssertEqual(code(WidgetEvent(name: "itemSelected")), "badValue: collectionView 'grid': itemSelected needs a 'row' (an item key)")
        XCTAssertEqual(code(WidgetEvent(name: "itemDeleted", row: "0.0")), "unknownEvent: collectionView 'grid' does not send itemDeleted")
        XCTAssertEqual(code(WidgetEvent(name: "itemMoved", row: "0.0", toSection: "0", toIndex: 0)),
                       "disabled: collectionView 'grid': item '0.0' cannot move")
        view.allowsSelection = false
        XCTAssertEqual(code(WidgetEvent(name: "itemSelected", row: "0.0")), "disabled: collectionView 'grid': selection is off")
        XCTAssertEqual(view.selectedItemKeys, [])
    }

    // MARK: - Sectioned data sources

    private func sections() -> [AnimatableSectionModel<String, Tile>] {
        [AnimatableSectionModel(model: "Beach", items: [Tile(name: "sun"), Tile(name: "sea")]),
         AnimatableSectionModel(model: "Hills", items: [Tile(name: "peak")])]
    }

    func testReloadDataSourceShowsSectionsWithHeaderTitlesAndItems() throws {
        let layout = CollectionViewFlowLayout()
        layout.headerReferenceSize = CGSize(width: 0, height: 30)
        let view = CollectionView(frame: .zero, collectionViewLayout: layout)
        let bag = DisposeBag()
        let dataSource = RxCollectionViewSectionedReloadDataSource<SectionModel<String, String>>(
            configureCell: { _, _, _, item in self.cell(item) },
            configureSupplementaryView: { dataSource, _, kind, indexPath in
                let header = CollectionReusableView()
                header.textLabel.text = kind == CollectionView.elementKindSectionHeader
                    ? dataSource[indexPath.section].model : "end of \(dataSource[indexPath.section].model)"
                return header
            })
        Observable.just([SectionModel(model: "Odd", items: ["1", "3"]), SectionModel(model: "Even", items: ["2"])])
            .bind(to: view.rx.items(dataSource: dataSource)).disposed(by: bag)
        XCTAssertEqual(view.sectionRows, [
            ListRow(id: "0", fields: ["header": .string("Odd")]),
            ListRow(id: "1", fields: ["header": .string("Even")]),
        ], "no footers asked for while footerReferenceSize is zero")
        layout.footerReferenceSize = CGSize(width: 0, height: 20)
        XCTAssertEqual(view.sectionRows[1], ListRow(id: "1", fields: ["header": .string("Even"), "footer": .string("end of Even")]))
        XCTAssertEqual(ids(view), ["0.0", "0.1", "1.0"])
        XCTAssertEqual(view.rows[2]["section"], .string("1"))
        XCTAssertEqual(try view.rx.model(at: IndexPath(item: 0, section: 1)) as String, "2")
        XCTAssertThrowsError(try view.rx.model(at: IndexPath(item: 5, section: 1)) as String)
        XCTAssertThrowsError(try view.rx.model(at: IndexPath(item: 0, section: 0)) as Int)
    }

    func testAnimatedDataSourceKeysItemsByIdentityKeepsTheSelectionAndConfiguresOnlyNewOrChangedItems() throws {
        let view = CollectionView()
        let tree = widgetTestTree(["grid": view])
        let bag = DisposeBag()
        var configured: [String] = []
        let dataSource = RxCollectionViewSectionedAnimatedDataSource<AnimatableSectionModel<String, Tile>>(
            configureCell: { _, _, _, tile in
                configured.append(tile.name)
                return self.cell("\(tile.name) \(tile.likes)")
            })
        let source = BehaviorSubject(value: sections())
        source.bind(to: view.rx.items(dataSource: dataSource)).disposed(by: bag)
        XCTAssertEqual(ids(view), ["sun", "sea", "peak"])
        XCTAssertEqual(view.sectionRows.map(\.id), ["Beach", "Hills"])
        try select(view, "sea")
        _ = tree.takeChanges()
        configured = []
        let before = view.rows
        var next = sections()
        next[0].items.insert(Tile(name: "boat"), at: 0)
        next[1].items[0].likes = 3
        source.onNext(next)
        XCTAssertEqual(configured, ["boat", "peak"], "only the new and the changed item are configured")
        XCTAssertEqual(ids(view), ["boat", "sun", "sea", "peak"])
        XCTAssertEqual(view.selectedItemKeys, ["sea"], "the selection stays on its item")
        XCTAssertEqual(view.indexPathsForSelectedItems, [IndexPath(item: 2, section: 0)])
        XCTAssertEqual(ListRow.changesWithFewestMoves(from: before, to: view.rows),
                       [.insert(index: 0, rows: [view.rows[0]]), .update(index: 3, row: view.rows[3])],
                       "one insert and one update: keyed patches")
        XCTAssertEqual(widgetTestChanges(tree), ["grid.items = 4 rows"])
    }

    func testAMoveUpdatesTheModelThenTheItemsThenSendsItemMoved() throws {
        let view = CollectionView()
        let bag = DisposeBag()
        var log: [String] = []
        let dataSource = RxCollectionViewSectionedAnimatedDataSource<AnimatableSectionModel<String, Tile>>(
            configureCell: { _, _, _, tile in self.cell(tile.name) },
            moveItem: { dataSource, from, to in
                log.append("moveItem \(from.item)->\(to.section).\(to.item): \(dataSource.sectionModels[1].items.map(\.name))")
            },
            canMoveItemAtIndexPath: { _, _ in true })
        Observable.just(sections()).bind(to: view.rx.items(dataSource: dataSource)).disposed(by: bag)
        view.rx.itemMoved.subscribe(onNext: { event in
            log.append("itemMoved \(event.sourceIndex.section).\(event.sourceIndex.item)->\(event.destinationIndex.section).\(event.destinationIndex.item) rows \(self.ids(view))")
        }).disposed(by: bag)
        XCTAssertEqual(view.rows[0]["canMove"], .bool(true))
        try view.receive(WidgetEvent(name: "itemMoved", row: "sun", toSection: "Hills", toIndex: 1))
        XCTAssertEqual(log, ["moveItem 0->1.1: [\"peak\", \"sun\"]",
                             "itemMoved 0.0->1.1 rows [\"sea\", \"peak\", \"sun\"]"])
        XCTAssertEqual(view.rows[2]["section"], .string("Hills"))
        do {
            try view.receive(WidgetEvent(name: "itemMoved", row: "sun", toSection: "Hills", toIndex: 5))
            XCTFail("out of range")
        } catch {
            XCTAssertEqual(error.code, .indexOutOfRange)
        }
    }

    func testItemEventsCompleteWhenTheViewGoesAndDoNotKeepItAlive() {
        var view: CollectionView? = CollectionView()
        weak let weakView = view
        var completed = false
        let subscription = view!.rx.itemSelected.subscribe(onCompleted: { completed = true })
        view = nil
        XCTAssertNil(weakView)
        XCTAssertTrue(completed)
        subscription.dispose()
    }
}
