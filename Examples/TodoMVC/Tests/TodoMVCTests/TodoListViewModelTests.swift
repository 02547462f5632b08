import RxCore
import RxTesting
import TodoMVC
import XCTest

/// The view model alone, RxTest style: commands at virtual times, outputs recorded.
final class TodoListViewModelTests: XCTestCase {
    func testOutputsFollowTheCommands() {
        let scheduler = TestScheduler(initialClock: 0)
        let viewModel = TodoListViewModel()
        let bag = DisposeBag()
        let activeCount = scheduler.record(viewModel.activeCount, disposeBag: bag)
        let itemsLeft = scheduler.record(viewModel.itemsLeftText, disposeBag: bag)
        let hasTodos = scheduler.record(viewModel.hasTodos, disposeBag: bag)
        let allCompleted = scheduler.record(viewModel.allCompleted, disposeBag: bag)
        let hasCompleted = scheduler.record(viewModel.hasCompleted, disposeBag: bag)

        scheduler.scheduleAt(10) { viewModel.add(title: "one") }
        scheduler.scheduleAt(20) { viewModel.add(title: "  ") }
        scheduler.scheduleAt(30) { viewModel.add(title: "two") }
        scheduler.scheduleAt(40) { viewModel.setAllCompleted(true) }
        scheduler.scheduleAt(50) { viewModel.clearCompleted() }
        scheduler.start()

        XCTAssertEqual(activeCount.events, [.next(0, 0), .next(10, 1), .next(30, 2), .next(40, 0)])
        XCTAssertEqual(itemsLeft.events, [.next(0, "items left"), .next(10, "item left"), .next(30, "items left")])
        XCTAssertEqual(hasTodos.events, [.next(0, false), .next(10, true), .next(50, false)])
        XCTAssertEqual(allCompleted.events, [.next(0, false), .next(40, true), .next(50, false)])
        XCTAssertEqual(hasCompleted.events, [.next(0, false), .next(40, true), .next(50, false)])
    }

    func testVisibleTodosFollowTheFilterAndTheEdit() {
        let viewModel = TodoListViewModel()
        viewModel.add(title: "one")
        viewModel.add(title: "two")
        viewModel.toggle(id: viewModel.todos.value[1].id)
        var shown: [[String]] = []
        let subscription = viewModel.visibleTodos
            .map { $0.map { $0.isEditing ? "[\($0.todo.title)]" : $0.todo.title } }
            .subscribe(onNext: { shown.append($0) })
        defer { subscription.dispose() }

        viewModel.filter.accept(.active)
        viewModel.beginEditing(id: viewModel.todos.value[0].id)
        viewModel.filter.accept(.completed)
        viewModel.filter.accept(.all)
        viewModel.commitEdit(title: "uno")
        // Committing clears the edit, then renames: two emissions, as two relays changed.
        XCTAssertEqual(shown, [["one", "two"], ["one"], ["[one]"], ["two"], ["[one]", "two"], ["one", "two"], ["uno", "two"]])
    }
}
