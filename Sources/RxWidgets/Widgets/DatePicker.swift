import Foundation

/// A date and time chooser, like `UIDatePicker`. Users' choices arrive as
/// `valueChanged` with the new date (a date value, or an ISO 8601 string).
///
/// As in UIKit, `date` stays within `minimumDate...maximumDate` when they are set.
open class DatePicker: Control {
    private var storedDate = Date()

    /// The chosen date. Default: when the picker was made.
    public var date: Date {
        get { storedDate }
        set { setDate(newValue) }
    }

    /// The earliest date users can choose; `nil` (the default) for none.
    public var minimumDate: Date? {
        didSet {
            if minimumDate != oldValue {
                changed(PropertyName.minimumDate, Self.value(oldValue), Self.value(minimumDate))
                setDate(storedDate)
            }
        }
    }

    /// The latest date users can choose; `nil` (the default) for none.
    public var maximumDate: Date? {
        didSet {
            if maximumDate != oldValue {
                changed(PropertyName.maximumDate, Self.value(oldValue), Self.value(maximumDate))
                setDate(storedDate)
            }
        }
    }

    /// A picker showing now.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// Sets the date; the animation is the client's business.
    public func setDate(_ date: Date, animated: Bool) {
        setDate(date)
    }

    private func setDate(_ newValue: Date) {
        var date = newValue
        if let minimumDate, date < minimumDate { date = minimumDate }
        if let maximumDate, date > maximumDate { date = maximumDate }
        let old = storedDate
        storedDate = date
        if date != old { changed(PropertyName.date, .date(old), .date(date)) }
    }

    private static func value(_ date: Date?) -> WidgetValue {
        date.map(WidgetValue.date) ?? .null
    }

    override public var kind: String { "datePicker" }

    override public var valueProperty: String? { PropertyName.date }

    override func applyValue(_ value: WidgetValue) throws(WidgetInputError) -> WidgetValue {
        switch value {
        case .date(let date):
            setDate(date)
        case .string(let string):
            guard let date = Self.parseISO8601(string) else {
                throw badValue(PropertyName.date, "an ISO 8601 date", value)
            }
            setDate(date)
        default:
            throw badValue(PropertyName.date, "a date", value)
        }
        return .date(storedDate)
    }

    /// Parses `2024-05-01T09:30:00Z`, with or without fractional seconds, with any
    /// offset.
    static func parseISO8601(_ string: String) -> Date? {
        if let date = try? Date(string, strategy: .iso8601) { return date }
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        return try? Date(string, strategy: fractional)
    }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[PropertyName.date] = .date(storedDate)
        properties[PropertyName.minimumDate] = Self.value(minimumDate)
        properties[PropertyName.maximumDate] = Self.value(maximumDate)
    }
}
