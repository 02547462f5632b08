extension ObservableType {
    /// Shares one subscription to this sequence among all subscribers, replaying the
    /// last `replay` elements to new ones.
    ///
    /// - `.whileConnected` (default): the first subscriber connects, the last dispose
    ///   disconnects; after termination the next subscriber subscribes afresh.
    /// - `.forever`: `multicast(ReplaySubject(replay))` (or a `PublishSubject` for 0) plus
    ///   `refCount()`; after termination new subscribers get the buffer and the terminal
    ///   event, and the source is not subscribed again.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
        switch scope {
        case .forever:
            if replay == 0 {
                return multicast(PublishSubject()).refCount()
            }
            return multicast(ReplaySubject.create(bufferSize: replay)).refCount()
        case .whileConnected:
            switch replay {
            case 0: return ShareWhileConnected(source: asObservable())
            case 1: return ShareReplay1WhileConnected(source: asObservable())
            default: return multicast(makeSubject: { ReplaySubject.create(bufferSize: replay) }).refCount()
            }
        }
    }
}
