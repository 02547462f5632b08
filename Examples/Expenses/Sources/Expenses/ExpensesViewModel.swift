import Foundation
import RxCore
import RxWidgets

/// The Expenses screen's state and rules (MVVM): the form's fields as relays the view
/// binds both ways, a save ``Action`` enabled only for a valid form, and what to show.
/// No widgets here, so tests can drive it directly.
///
/// Loop-confined, as every scene: the server calls it from its event loop only.
public final class ExpensesViewModel {
    // MARK: Form (two-way: the text fields write here, and a reset writes back)

    /// What it was for.
    public let title = BehaviorRelay(value: "")
    /// The amount as typed ("12.50").
    public let amountText = BehaviorRelay(value: "")
    /// The category's segment index.
    public let category = BehaviorRelay(value: ExpenseCategory.food.rawValue)

    // MARK: Outputs

    /// The saved expenses, newest first.
    public let expenses = BehaviorRelay<[Expense]>(value: [])
    /// One line under the form: progress, success, or what went wrong.
    public let status = BehaviorRelay(value: "")
    /// Whether ``status`` reports an error (shown in red).
    public let statusIsError = BehaviorRelay(value: false)

    /// The form as a draft, or `nil` while it is not valid.
    public var draft: Observable<ExpenseDraft?> {
        Observable.combineLatest(title, amountText, category) { title, amount, category in
            Self.draft(title: title, amount: amount, category: category)
        }
    }

    /// A hint while the amount is typed but not a number ("" otherwise).
    public var amountHint: Observable<String> {
        amountText.map { text in
            text.trimmingCharacters(in: .whitespaces).isEmpty || Cents(parsing: text).map({ $0.value > 0 }) == true
                ? "" : "Enter an amount like 12.50"
        }
        .distinctUntilChanged()
    }

    /// "Total: 1,234.50" over every saved expense.
    public var total: Observable<String> {
        expenses.map { expenses in
            "Total: \(Cents(expenses.reduce(0) { $0 + $1.draft.amount.value }).formatted)"
        }
    }

    /// Saves the current form: enabled while the form is valid and no save is running.
    public private(set) lazy var save: Action<Void, Expense> = Action(
        enabledIf: draft.map { $0 != nil },
        workFactory: { [weak self] _ -> Observable<Expense> in
            guard let self,
                  let draft = Self.draft(title: title.value, amount: amountText.value, category: category.value)
            else { return .empty() }
            status.accept("Saving “\(draft.title)”…")
            statusIsError.accept(false)
            return service.save(draft)
        })

    /// Whether a save is running (the form is locked and a spinner turns meanwhile).
    public var isSaving: Observable<Bool> { save.executing }

    private let service: ExpenseService
    private let disposeBag = DisposeBag()

    /// A view model saving through `service`.
    public init(service: ExpenseService) {
        self.service = service

        // A saved expense goes on top of the list and the form starts over; the
        // category stays, as the next expense is often of the same kind.
        save.elements
            .subscribe(onNext: { [weak self] expense in
                guard let self else { return }
                expenses.accept([expense] + expenses.value)
                title.accept("")
                amountText.accept("")
                status.accept("Saved “\(expense.draft.title)” (\(expense.draft.amount.formatted)).")
            })
            .disposed(by: disposeBag)

        // A failed save keeps the form as it was, so the user can fix it and try again.
        save.underlyingError
            .subscribe(onNext: { [weak self] error in
                self?.status.accept("Couldn't save: \(error)")
                self?.statusIsError.accept(true)
            })
            .disposed(by: disposeBag)
    }

    /// A valid draft from the form's values, or `nil`.
    static func draft(title: String, amount: String, category: Int) -> ExpenseDraft? {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty, let amount = Cents(parsing: amount), amount.value > 0,
              let category = ExpenseCategory(rawValue: category) else { return nil }
        return ExpenseDraft(title: title, amount: amount, category: category)
    }
}
