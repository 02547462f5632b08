// `drive` and `emit` into relays, as RxCocoa has them. A shared sequence never errors,
// so only `next` reaches the relays; `completed` is ignored.

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// Makes each element the value of every relay.
    public func drive(_ relays: BehaviorRelay<Element>...) -> Disposable {
        MainScheduler.ensureRunningOnMainThread(errorMessage: "drive must be called on the main loop")
        return asObservable().bindRelayInputs(relays.map(\.inputNode))
    }

    /// Makes each element, as an optional, the value of every relay.
    public func drive(_ relays: BehaviorRelay<Element?>...) -> Disposable {
        MainScheduler.ensureRunningOnMainThread(errorMessage: "drive must be called on the main loop")
        return asObservable().map { $0 as Element? }.bindRelayInputs(relays.map(\.inputNode))
    }

    /// Sends each element to every relay.
    public func drive(_ relays: ReplayRelay<Element>...) -> Disposable {
        MainScheduler.ensureRunningOnMainThread(errorMessage: "drive must be called on the main loop")
        return asObservable().bindRelayInputs(relays.map(\.inputNode))
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// Sends each element to every relay.
    public func emit(to relays: PublishRelay<Element>...) -> Disposable {
        asObservable().bindRelayInputs(relays.map(\.inputNode))
    }

    /// Sends each element, as an optional, to every relay.
    public func emit(to relays: PublishRelay<Element?>...) -> Disposable {
        asObservable().map { $0 as Element? }.bindRelayInputs(relays.map(\.inputNode))
    }

    /// Makes each element the value of every relay.
    public func emit(to relays: BehaviorRelay<Element>...) -> Disposable {
        asObservable().bindRelayInputs(relays.map(\.inputNode))
    }

    /// Sends each element to every relay.
    public func emit(to relays: ReplayRelay<Element>...) -> Disposable {
        asObservable().bindRelayInputs(relays.map(\.inputNode))
    }
}

extension BehaviorRelay {
    /// The relay's value and changes as a `Driver`, delivered on the main loop.
    public func asDriver() -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }
}

extension PublishRelay {
    /// The relay's elements as a `Signal`, delivered on the main loop.
    public func asSignal() -> Signal<Element> {
        Signal(asObservable().observe(on: SignalSharingStrategy.scheduler))
    }
}
