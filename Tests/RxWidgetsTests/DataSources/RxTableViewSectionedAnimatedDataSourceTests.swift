import Foundation
import RxCore
import RxWidgets
import XCTest

private struct Animal: IdentifiableType, Equatable {
    let name: String
    var legs: Int
    var identity: String { name }
}

private typealias Pen = AnimatableSectionModel<String, Animal>

/// The animated data source's keyed update (unchanged head and tail matched by position,
/// a row moved end to end, the rest by identity) against a fresh table showing the same
/// data: the same rows, keys and fields, and cells configured only for new or changed items.
final class RxTableViewSectionedAnimatedDataSourceTests: XCTestCase {
    private func dataSource(_ configured: WidgetTestBox<[String]>) -> RxTableViewSectionedAnimatedDataSource<Pen> {
        RxTableViewSectionedAnimatedDataSource<Pen>(
            configureCell: { _, _, _, animal in
                configured.value.append(animal.name)
                let cell = TableViewCell(style: .subtitle, reuseIdentifier: nil)
                cell.textLabel?.text = animal.name
                cell.detailTextLabel?.text = "\(animal.legs)"
                return cell
            },
            titleForHeaderInSection: { dataSource, section in dataSource[section].model },
            // Depends on the position: every update must ask again.
            canEditRowAtIndexPath: { _, indexPath in indexPath.row % 3 != 0 },
            canMoveRowAtIndexPath: { dataSource, indexPath in dataSource[indexPath].legs < 4 })
    }

    /// The rows a table shows when `sections` are its first data.
    private func freshRows(_ sections: [Pen]) -> (rows: [ListRow], sections: [ListRow]) {
        let table = TableView()
        let source = dataSource(WidgetTestBox([]))
        let bag = DisposeBag()
        Observable.just(sections).bind(to: table.rx.items(dataSource: source)).disposed(by: bag)
        return (table.rows, table.sectionRows)
    }

    private func randomEdit(_ sections: [Pen], next: inout Int, using generator: inout some RandomNumberGenerator) -> [Pen] {
        var sections = sections
        func animal() -> Animal {
            next += 1
            return Animal(name: "a\(next)", legs: Int.random(in: 0...4, using: &generator))
        }
        let section = Int.random(in: 0..<sections.count, using: &generator)
        var items = sections[section].items
        switch Int.random(in: 0..<10, using: &generator) {
        case 0: items.insert(animal(), at: Int.random(in: 0...items.count, using: &generator))
        case 1: if !items.isEmpty { items.remove(at: Int.random(in: 0..<items.count, using: &generator)) }
        case 2: if let last = items.popLast() { items.insert(last, at: Int.random(in: 0...items.count, using: &generator)) }
        case 3: if !items.isEmpty { items.append(items.remove(at: Int.random(in: 0..<items.count, using: &generator))) }
        case 4: if !items.isEmpty { items[Int.random(in: 0..<items.count, using: &generator)].legs += 1 }
        case 5: items.shuffle(using: &generator)
        case 6:  // to another section
            if !items.isEmpty {
                let moved = items.remove(at: Int.random(in: 0..<items.count, using: &generator))
                let other = (section + 1) % sections.count
                sections[other] = Pen(original: sections[other], items: sections[other].items + [moved])
            }
        case 7:  // a duplicate identity: a reload, keyed by position
            if let first = items.first { items.append(first) }
        case 8: items.insert(contentsOf: [animal(), animal()], at: Int.random(in: 0...items.count, using: &generator))
        default:  // several edits at once
            if items.count > 2 { items.removeFirst() }
            items.append(animal())
            if !items.isEmpty { items[0].legs += 1 }
        }
        sections[section] = Pen(original: sections[section], items: items)
        if Int.random(in: 0..<15, using: &generator) == 0 {
            sections.append(Pen(model: "pen\(next)", items: [animal()]))
        } else if sections.count > 1, Int.random(in: 0..<15, using: &generator) == 0 {
            sections.remove(at: Int.random(in: 0..<sections.count, using: &generator))
        } else if sections.count > 1, Int.random(in: 0..<15, using: &generator) == 0 {
            sections.swapAt(0, sections.count - 1)
        }
        // Remove duplicates again now and then, so keyed updates resume.
        if Bool.random(using: &generator) {
            var seen = Set<String>()
            sections = sections.map { Pen(original: $0, items: $0.items.filter { seen.insert($0.name).inserted }) }
        }
        return sections
    }

    func testRandomUpdatesShowWhatAFreshTableShows() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<40 {
            var next = 0
            var sections = (0..<Int.random(in: 1...3, using: &generator)).map { pen in
                Pen(model: "pen\(pen)", items: (0..<Int.random(in: 0...12, using: &generator)).map { _ -> Animal in
                    next += 1
                    return Animal(name: "a\(next)", legs: next % 5)
                })
            }
            let table = TableView()
            let configured = WidgetTestBox<[String]>([])
            let source = BehaviorSubject(value: sections)
            let bag = DisposeBag()
            source.bind(to: table.rx.items(dataSource: dataSource(configured))).disposed(by: bag)
            for _ in 0..<25 {
                let previous = sections
                sections = randomEdit(sections, next: &next, using: &generator)
                configured.value = []
                source.onNext(sections)
                let fresh = freshRows(sections)
                XCTAssertEqual(table.rows, fresh.rows, "\(previous.map(\.items)) -> \(sections.map(\.items))")
                XCTAssertEqual(table.sectionRows, fresh.sections)
                // Keyed (no duplicates, before and after): only new or changed items are configured.
                let keyed = { (data: [Pen]) in Set(data.flatMap(\.items).map(\.name)).count == data.flatMap(\.items).count }
                // (A section appended as "pen<next>" can repeat a first section's name: that is a reload.)
                let uniqueSections = { (data: [Pen]) in Set(data.map(\.model)).count == data.count }
                if keyed(previous), keyed(sections), uniqueSections(previous), uniqueSections(sections) {
                    let old = Dictionary(uniqueKeysWithValues: previous.flatMap(\.items).map { ($0.name, $0) })
                    let expected = sections.flatMap(\.items).filter { old[$0.name] != $0 }.map(\.name)
                    XCTAssertEqual(configured.value, expected, "\(previous.map(\.items)) -> \(sections.map(\.items))")
                }
            }
        }
    }

    func testAnInsertIntoTenThousandConfiguresOneCellAndKeepsTheOtherRows() {
        let table = TableView()
        let configured = WidgetTestBox<[String]>([])
        var items = (0..<10_000).map { Animal(name: "a\($0)", legs: 2) }
        let source = BehaviorSubject(value: [Pen(model: "all", items: items)])
        let bag = DisposeBag()
        source.bind(to: table.rx.items(dataSource: dataSource(configured))).disposed(by: bag)
        configured.value = []
        items.insert(Animal(name: "new", legs: 2), at: 0)
        source.onNext([Pen(model: "all", items: items)])
        XCTAssertEqual(configured.value, ["new"])
        XCTAssertEqual(table.rows.count, 10_001)
        // canEdit depends on the row's index: asked again for the rows that shifted.
        XCTAssertEqual(table.rows[1]["canEdit"], nil, "a0 left row 0: editable now")
        XCTAssertEqual(table.rows[3]["canEdit"], .bool(false), "a2 reached row 3")
        XCTAssertEqual(table.rows[2]["canEdit"], nil)
        // The last row moved first, then back: nothing configured.
        items.insert(items.removeLast(), at: 0)
        source.onNext([Pen(model: "all", items: items)])
        items.append(items.removeFirst())
        source.onNext([Pen(model: "all", items: items)])
        XCTAssertEqual(configured.value, ["new"])
        XCTAssertEqual(table.rows.map(\.id), freshRows([Pen(model: "all", items: items)]).rows.map(\.id))
    }

    func testAUserMoveThenAnUpdateStartsFromTheMovedRows() throws {
        let table = TableView()
        let configured = WidgetTestBox<[String]>([])
        let items = (0..<5).map { Animal(name: "a\($0)", legs: 1) }
        let source = BehaviorSubject(value: [Pen(model: "all", items: items)])
        let bag = DisposeBag()
        let dataSource = dataSource(configured)
        source.bind(to: table.rx.items(dataSource: dataSource)).disposed(by: bag)
        table.setEditing(true, animated: false)
        try table.receive(WidgetEvent(name: "itemMoved", row: "a4", toSection: "all", toIndex: 0))
        XCTAssertEqual(table.rows.map(\.id), ["a4", "a0", "a1", "a2", "a3"])
        configured.value = []
        source.onNext([Pen(model: "all", items: dataSource.sectionModels[0].items + [Animal(name: "a5", legs: 1)])])
        XCTAssertEqual(configured.value, ["a5"])
        XCTAssertEqual(table.rows, freshRows(dataSource.sectionModels).rows)
    }
}
