extension WidgetValue {
    /// Equal cases with equal payloads, as the derived `==` would say. Written out because
    /// the derived one switches on a tuple of both values, which copies them (a retain and
    /// a release of each string or list), and the tree compares every recorded change.
    public static func == (lhs: WidgetValue, rhs: WidgetValue) -> Bool {
        switch lhs {
        case .null:
            if case .null = rhs { return true }
        case .bool(let value):
            if case .bool(let other) = rhs { return value == other }
        case .number(let value):
            if case .number(let other) = rhs { return value == other }
        case .string(let value):
            if case .string(let other) = rhs { return value == other }
        case .color(let value):
            if case .color(let other) = rhs { return value == other }
        case .date(let value):
            if case .date(let other) = rhs { return value == other }
        case .strings(let value):
            if case .strings(let other) = rhs { return value == other }
        case .rows(let value):
            if case .rows(let other) = rhs { return value == other }
        }
        return false
    }
}
