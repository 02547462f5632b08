extension ObservableType where Element == Never {
    /// This element-less sequence as a completable.
    public func asCompletable() -> Completable {
        Completable(raw: asObservable())
    }
}
