import Foundation

/// What an expense is for; the form's segmented control, in this order.
public enum ExpenseCategory: Int, CaseIterable, Sendable {
    case food, travel, office, other

    /// The segment title and the list's text.
    public var title: String {
        switch self {
        case .food: return "Food"
        case .travel: return "Travel"
        case .office: return "Office"
        case .other: return "Other"
        }
    }
}

/// An amount of money in cents, so sums are exact.
public struct Cents: Hashable, Comparable, Sendable {
    /// The amount in cents.
    public let value: Int

    /// An amount of `value` cents.
    public init(_ value: Int) {
        self.value = value
    }

    /// "12.50" → 1250. Accepts digits with an optional `.` or `,` and up to two decimals;
    /// `nil` for anything else (no sign, no thousands separators).
    public init?(parsing text: String) {
        let text = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty, parts[0].count <= 9,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let units = Int(parts[0]) else { return nil }
        var cents = units * 100
        if parts.count == 2 {
            guard (1...2).contains(parts[1].count), let fraction = Int(parts[1]) else { return nil }
            cents += parts[1].count == 1 ? fraction * 10 : fraction
        }
        self.value = cents
    }

    /// "1,234.50".
    public var formatted: String {
        let units = String(value / 100)
        var grouped = ""
        for (index, digit) in units.reversed().enumerated() {
            if index > 0 && index % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        let cents = value % 100
        return "\(String(grouped.reversed())).\(cents < 10 ? "0" : "")\(cents)"
    }

    /// Orders by amount.
    public static func < (lhs: Cents, rhs: Cents) -> Bool { lhs.value < rhs.value }
}

/// The form's content once it is valid: what gets saved.
public struct ExpenseDraft: Equatable, Sendable {
    /// What it was for, trimmed, not empty.
    public var title: String
    /// How much, more than zero.
    public var amount: Cents
    /// Its category.
    public var category: ExpenseCategory

    /// A draft.
    public init(title: String, amount: Cents, category: ExpenseCategory) {
        self.title = title
        self.amount = amount
        self.category = category
    }
}

/// A saved expense: a draft with the id the service gave it.
public struct Expense: Equatable, Sendable {
    /// The service's id: the list row's key.
    public let id: String
    /// What was saved.
    public let draft: ExpenseDraft

    /// An expense.
    public init(id: String, draft: ExpenseDraft) {
        self.id = id
        self.draft = draft
    }
}
