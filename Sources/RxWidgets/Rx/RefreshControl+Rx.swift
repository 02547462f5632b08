import RxCore

extension Reactive where Base: RefreshControl {
    /// Starts (`true`) or ends (`false`) refreshing, as RxCocoa's `rx.isRefreshing`.
    public var isRefreshing: Binder<Bool> {
        Binder(base) { control, refreshing in
            if refreshing { control.beginRefreshing() } else { control.endRefreshing() }
        }
    }
}
