import Bindery
import RxCore
import RxWidgets

/// The Expenses screen: a form (what, how much, category, Save), the saved expenses and
/// their total. Auto-rendered: the browser draws these widgets by kind, laid out by
/// ``sceneLayout``, so the app has no HTML of its own.
public final class ExpensesViewController: ViewController, Scene {
    // MARK: Widgets

    /// What the expense was for.
    public let titleField = TextField()
    /// How much ("12.50"); Return saves.
    public let amountField = TextField()
    /// Why the amount cannot be saved yet, while it is typed.
    public let amountHint = Label()
    /// Food / Travel / Office / Other.
    public let categoryPicker = SegmentedControl(items: ExpenseCategory.allCases.map(\.title))
    /// Saves the form; enabled only while it is valid and no save is running.
    public let saveButton = Button()
    /// Turns while a save is running.
    public let savingIndicator = ActivityIndicator()
    /// Progress, success or error.
    public let statusLabel = Label()
    /// The saved expenses, newest first.
    public let expenseList = ListView()
    /// "Total: 123.45".
    public let totalLabel = Label()

    /// The state and rules (public so tests can look at them).
    public let viewModel: ExpensesViewModel
    private let disposeBag = DisposeBag()

    /// An Expenses screen over `viewModel`.
    public init(viewModel: ExpensesViewModel) {
        self.viewModel = viewModel
        super.init()
    }

    /// The widgets, in reading order.
    public var sceneWidgets: [(id: String, widget: View)] {
        [("titleField", titleField), ("amountField", amountField), ("amountHint", amountHint),
         ("categoryPicker", categoryPicker), ("saveButton", saveButton), ("savingIndicator", savingIndicator),
         ("statusLabel", statusLabel), ("expenseList", expenseList), ("totalLabel", totalLabel)]
    }

    /// The form in one group, the list and its total in another. The captions are the
    /// fields' visible labels (and their accessible names).
    public var sceneLayout: SceneLayout? {
        .column([
            .group("New expense", [
                .widget("titleField", caption: "What for"),
                .row([.widget("amountField", caption: "Amount"), .widget("amountHint")], alignment: .firstBaseline),
                .widget("categoryPicker", caption: "Category"),
                .row([.widget("saveButton"), .widget("savingIndicator"), .widget("statusLabel")], alignment: .center),
            ]),
            .group("Expenses", [.widget("expenseList"), .widget("totalLabel")]),
        ])
    }

    override public func viewDidLoad() {
        super.viewDidLoad()
        titleField.placeholder = "What for? (e.g. Team lunch)"
        amountField.placeholder = "Amount (e.g. 12.50)"
        saveButton.setTitle("Save expense", for: .normal)
        savingIndicator.accessibilityLabel = "Saving"
        expenseList.accessibilityLabel = "Saved expenses"
        let viewModel = self.viewModel

        // The form, both ways: edits go to the view model; its resets (after a save)
        // come back. A field ignores a text it already shows, so this does not loop.
        disposeBag.insert(
            titleField.rx.text.orEmpty.changed.bind(to: viewModel.title),
            amountField.rx.text.orEmpty.changed.bind(to: viewModel.amountText),
            categoryPicker.rx.selectedSegmentIndex.changed.bind(to: viewModel.category),
            viewModel.title.bind(to: titleField.rx.text),
            viewModel.amountText.bind(to: amountField.rx.text),
            viewModel.category.bind(to: categoryPicker.rx.selectedSegmentIndex)
        )

        // Saving: the button runs the action (and follows its `enabled`); Return in the
        // amount field does the same. Nothing can be edited while a save runs.
        saveButton.rx.bind(to: viewModel.save, input: ())
        disposeBag.insert(
            amountField.rx.controlEvent(.editingDidEndOnExit).bind(to: viewModel.save.inputs),
            viewModel.isSaving.bind(to: savingIndicator.rx.isAnimating),
            viewModel.isSaving.map { !$0 }.bind(to: titleField.rx.isEnabled),
            viewModel.isSaving.map { !$0 }.bind(to: amountField.rx.isEnabled),
            viewModel.isSaving.map { !$0 }.bind(to: categoryPicker.rx.isEnabled)
        )

        // What to show.
        disposeBag.insert(
            viewModel.amountHint.bind(to: amountHint.rx.text),
            viewModel.status.bind(to: statusLabel.rx.text),
            viewModel.statusIsError.map { $0 ? Color(red: 0.70, green: 0.11, blue: 0.11, alpha: 1) : nil }
                .bind(to: statusLabel.rx.textColor),
            viewModel.expenses.bind(to: expenseList.rx.items) { _, _, expense in
                ListRow(id: expense.id, fields: [
                    "title": .string(expense.draft.title),
                    "amount": .string(expense.draft.amount.formatted),
                    "category": .string(expense.draft.category.title),
                ])
            },
            viewModel.total.bind(to: totalLabel.rx.text)
        )
    }
}

/// Registers the Expenses screen as `expenses`: one per browser session, saving through a
/// simulated service on the server's loop (virtual time under BinderyTesting).
public func registerExpenses(_ registry: SceneRegistry) {
    registry.register("expenses", title: "Expenses",
                      description: "Log what you spent; saving takes a moment, and amounts over 1,000.00 are refused.") { context in
        ExpensesViewController(viewModel: ExpensesViewModel(service: SimulatedExpenseService(scheduler: context.scheduler)))
    }
}
