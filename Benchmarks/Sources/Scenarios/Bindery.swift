import RxCore

/// Bindery's RxCore peers, written as an app would write them.
enum BinderyScenarios {
    @Sendable static func subjectMapFilter() -> Runner {
        let subject = PublishSubject<Int>()
        let sum = Sum()
        let subscription = subject.map { $0 &+ 1 }.filter { $0 > 0 }.subscribe(onNext: { sum.value &+= $0 })
        return Runner(keepAlive: [subject, subscription]) { n in
            for i in 0..<n {
                subject.onNext(i)
            }
            return sum.value
        }
    }

    @Sendable static func behaviorSubject10() -> Runner {
        let subject = BehaviorSubject<Int>(value: 0)
        let sum = Sum()
        let subscriptions = (0..<10).map { _ in subject.subscribe(onNext: { sum.value &+= $0 }) }
        return Runner(keepAlive: [subject, subscriptions]) { n in
            for i in 0..<n {
                subject.onNext(i)
            }
            return sum.value
        }
    }

    @Sendable static func subscribeDispose() -> Runner {
        let subject = PublishSubject<Int>()
        let sum = Sum()
        return Runner(keepAlive: [subject]) { n in
            for _ in 0..<n {
                let subscription = subject.subscribe(onNext: { sum.value &+= $0 })
                subscription.dispose()
                sum.value &+= 1
            }
            return sum.value
        }
    }

    @Sendable static func subscribeDisposeChain() -> Runner {
        let subject = PublishSubject<Int>()
        let sum = Sum()
        return Runner(keepAlive: [subject]) { n in
            for _ in 0..<n {
                let subscription = subject.map { $0 &+ 1 }.filter { $0 > 0 }.subscribe(onNext: { sum.value &+= $0 })
                subscription.dispose()
                sum.value &+= 1
            }
            return sum.value
        }
    }

    @Sendable static func combineLatest() -> Runner {
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let sum = Sum()
        let subscription = Observable.combineLatest(first, second) { $0 &+ $1 }
            .subscribe(onNext: { sum.value &+= $0 })
        first.onNext(0)
        second.onNext(0)
        return Runner(keepAlive: [first, second, subscription]) { n in
            for i in 0..<n {
                if i & 1 == 0 {
                    first.onNext(i)
                } else {
                    second.onNext(i)
                }
            }
            return sum.value
        }
    }

    /// Must run on the main thread (MainScheduler's, with no loop installed): elsewhere
    /// the Binder defers to the main queue.
    @Sendable static func binder() -> Runner {
        let label = Label()
        let binder = Binder(label) { (label: Label, value: Int) in label.value &+= value }
        return Runner(keepAlive: [label]) { n in
            for i in 0..<n {
                binder.onNext(i)
            }
            return label.value
        }
    }

    @Sendable static func subjectBindBinder() -> Runner {
        let subject = PublishSubject<Int>()
        let label = Label()
        let subscription = subject.bind(to: Binder(label) { (label: Label, value: Int) in label.value = value })
        return Runner(keepAlive: [subject, subscription, label]) { n in
            var sum = 0
            for i in 0..<n {
                subject.onNext(i)
                sum &+= label.value
            }
            return sum
        }
    }

    @Sendable static func behaviorRelayAccept() -> Runner {
        let relay = BehaviorRelay<Int>(value: 0)
        let sum = Sum()
        let subscription = relay.subscribe(onNext: { sum.value &+= $0 })
        return Runner(keepAlive: [relay, subscription]) { n in
            for i in 0..<n {
                relay.accept(i)
            }
            return sum.value
        }
    }
}
