import RxCore

extension Reactive where Base: PageControl {
    /// The current page: the page now, then after each page the user picks
    /// (`.valueChanged`); writing sets it (clamped), sending nothing.
    public var currentPage: ControlProperty<Int> {
        controlProperty(
            editingEvents: [.valueChanged],
            getter: { control in control.currentPage },
            setter: { control, page in control.currentPage = page })
    }

    /// Sets the number of pages.
    public var numberOfPages: Binder<Int> {
        Binder(base) { control, count in control.numberOfPages = count }
    }
}
