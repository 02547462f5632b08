extension InfallibleType {
    /// This sequence as a `Driver`: delivered on the main loop, shared with replay 1 (it
    /// can't error, so nothing needs replacing).
    public func asDriver() -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }
}
