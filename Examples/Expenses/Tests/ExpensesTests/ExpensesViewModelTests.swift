import Expenses
import RxCore
import RxTesting
import XCTest

/// The view model alone, RxTest style, with the simulated service on virtual time.
final class ExpensesViewModelTests: XCTestCase {
    func testASaveIsEnabledExecutingThenDone() {
        let scheduler = TestScheduler(initialClock: 0)
        let viewModel = ExpensesViewModel(service: SimulatedExpenseService(scheduler: scheduler, latency: .seconds(5)))
        let bag = DisposeBag()
        // What the button shows (Action's `enabled` may repeat a value; the button ignores repeats).
        let enabled = scheduler.record(viewModel.save.enabled.distinctUntilChanged(), disposeBag: bag)
        let saving = scheduler.record(viewModel.isSaving, disposeBag: bag)
        let status = scheduler.record(viewModel.status, disposeBag: bag)
        let total = scheduler.record(viewModel.total, disposeBag: bag)

        scheduler.scheduleAt(10) { viewModel.title.accept("Lunch") }
        scheduler.scheduleAt(20) { viewModel.amountText.accept("12.50") }
        scheduler.scheduleAt(30) { viewModel.save.execute() }
        scheduler.start()

        XCTAssertEqual(enabled.events, [.next(0, false), .next(20, true), .next(30, false)], "off again: the form is empty")
        XCTAssertEqual(saving.events, [.next(0, false), .next(30, true), .next(35, false)])
        XCTAssertEqual(status.events, [.next(0, ""), .next(30, "Saving “Lunch”…"), .next(35, "Saved “Lunch” (12.50).")])
        XCTAssertEqual(total.events, [.next(0, "Total: 0.00"), .next(35, "Total: 12.50")])
        XCTAssertEqual(viewModel.title.value, "", "the form starts over")
    }

    func testARefusalKeepsTheFormAndReportsTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let viewModel = ExpensesViewModel(service: SimulatedExpenseService(scheduler: scheduler, latency: .seconds(5),
                                                                           approvalLimit: Cents(1000)))
        let bag = DisposeBag()
        let isError = scheduler.record(viewModel.statusIsError, disposeBag: bag)
        viewModel.title.accept("Desk")
        viewModel.amountText.accept("10.01")
        scheduler.scheduleAt(10) { viewModel.save.execute() }
        scheduler.start()

        XCTAssertEqual(isError.events, [.next(0, false), .next(10, false), .next(15, true)])
        XCTAssertEqual(viewModel.status.value, "Couldn't save: Amounts over 10.00 need a manager's approval.")
        XCTAssertEqual(viewModel.title.value, "Desk")
        XCTAssertEqual(viewModel.amountText.value, "10.01")
        XCTAssertEqual(viewModel.expenses.value, [])
    }
}
