import RxCore

extension Reactive where Base: ActivityIndicator {
    /// Starts (`true`) or stops (`false`) the spinner.
    public var isAnimating: Binder<Bool> {
        Binder(base) { indicator, active in
            if active {
                indicator.startAnimating()
            } else {
                indicator.stopAnimating()
            }
        }
    }
}
