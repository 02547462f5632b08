import RxCore

extension Reactive where Base: BarButtonItem {
    /// Each tap, as RxCocoa's `UIBarButtonItem.rx.tap`.
    public var tap: ControlEvent<Void> {
        controlEvent(.touchUpInside)
    }

    /// The title.
    public var title: Binder<String?> {
        Binder(base) { item, title in
            item.title = title
        }
    }
}
