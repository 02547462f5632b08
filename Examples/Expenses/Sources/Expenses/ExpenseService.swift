import Foundation
import RxCore

/// Where expenses are saved. A real app talks to its backend here; the view model only
/// sees an observable that delivers the saved expense or fails.
public protocol ExpenseService {
    /// Saves `draft`: one `next` with the saved expense then `completed`, or an error.
    func save(_ draft: ExpenseDraft) -> Observable<Expense>
}

/// Why a save failed (the message is shown to the user as is).
public struct ExpenseServiceError: Error, Equatable, CustomStringConvertible {
    /// A sentence for the user.
    public let message: String

    /// An error with `message`.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// A stand-in backend: each save takes `latency` on `scheduler` (virtual time in tests),
/// and amounts over `approvalLimit` are refused, so the error path can be tried in the app.
public final class SimulatedExpenseService: ExpenseService {
    /// Refused above this amount (1,000.00 by default).
    public let approvalLimit: Cents
    private let scheduler: SchedulerType
    private let latency: RxTimeInterval
    private var nextID = 1

    /// A service answering after `latency` on `scheduler`.
    public init(scheduler: SchedulerType, latency: RxTimeInterval = .seconds(2),
                approvalLimit: Cents = Cents(100_000)) {
        self.scheduler = scheduler
        self.latency = latency
        self.approvalLimit = approvalLimit
    }

    public func save(_ draft: ExpenseDraft) -> Observable<Expense> {
        let answer: Observable<Expense>
        if draft.amount > approvalLimit {
            answer = .error(ExpenseServiceError("Amounts over \(approvalLimit.formatted) need a manager's approval."))
        } else {
            answer = .just(Expense(id: "e\(nextID)", draft: draft))
            nextID += 1
        }
        // The delay applies to the error too: a refusal also takes a round trip.
        return Observable<Int>.timer(latency, scheduler: scheduler).flatMap { _ in answer }
    }
}
