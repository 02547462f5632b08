import RxCore

extension Reactive where Base: SegmentedControl {
    /// The selected segment's index (same as ``value``).
    public var selectedSegmentIndex: ControlProperty<Int> {
        value
    }

    /// The selected segment's index (-1 for none).
    public var value: ControlProperty<Int> {
        controlPropertyWithDefaultEvents(
            getter: { control in control.selectedSegmentIndex },
            setter: { control, value in control.selectedSegmentIndex = value }
        )
    }

    /// The title of the segment at `index`.
    public func titleForSegment(at index: Int) -> Binder<String?> {
        Binder(base) { control, title in
            control.setTitle(title, forSegmentAt: index)
        }
    }
}
