import Foundation
import RxCore

extension Reactive where Base: DatePicker {
    /// The chosen date (same as ``value``).
    public var date: ControlProperty<Date> {
        value
    }

    /// The chosen date.
    public var value: ControlProperty<Date> {
        controlPropertyWithDefaultEvents(
            getter: { picker in picker.date },
            setter: { picker, value in picker.date = value }
        )
    }
}
