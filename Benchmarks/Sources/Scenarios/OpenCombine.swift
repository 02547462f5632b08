import OpenCombine

/// The OpenCombine peers: Combine's nearest equivalents (PassthroughSubject for
/// PublishSubject, CurrentValueSubject for BehaviorSubject/BehaviorRelay, sink for
/// subscribe(onNext:), assign(to:on:) for a Binder).
enum OpenCombineScenarios {
    @Sendable static func subjectMapFilter() -> Runner {
        let subject = PassthroughSubject<Int, Never>()
        let sum = Sum()
        let cancellable = subject.map { $0 &+ 1 }.filter { $0 > 0 }.sink { sum.value &+= $0 }
        return Runner(keepAlive: [subject, cancellable]) { n in
            for i in 0..<n {
                subject.send(i)
            }
            return sum.value
        }
    }

    @Sendable static func behaviorSubject10() -> Runner {
        let subject = CurrentValueSubject<Int, Never>(0)
        let sum = Sum()
        let cancellables = (0..<10).map { _ in subject.sink { sum.value &+= $0 } }
        return Runner(keepAlive: [subject, cancellables]) { n in
            for i in 0..<n {
                subject.send(i)
            }
            return sum.value
        }
    }

    @Sendable static func subscribeDispose() -> Runner {
        let subject = PassthroughSubject<Int, Never>()
        let sum = Sum()
        return Runner(keepAlive: [subject]) { n in
            for _ in 0..<n {
                let cancellable = subject.sink { sum.value &+= $0 }
                cancellable.cancel()
                sum.value &+= 1
            }
            return sum.value
        }
    }

    @Sendable static func subscribeDisposeChain() -> Runner {
        let subject = PassthroughSubject<Int, Never>()
        let sum = Sum()
        return Runner(keepAlive: [subject]) { n in
            for _ in 0..<n {
                let cancellable = subject.map { $0 &+ 1 }.filter { $0 > 0 }.sink { sum.value &+= $0 }
                cancellable.cancel()
                sum.value &+= 1
            }
            return sum.value
        }
    }

    @Sendable static func subjectAssign() -> Runner {
        let subject = PassthroughSubject<Int, Never>()
        let label = Label()
        let cancellable = subject.assign(to: \.value, on: label)
        return Runner(keepAlive: [subject, cancellable]) { n in
            var sum = 0
            for i in 0..<n {
                subject.send(i)
                sum &+= label.value
            }
            return sum
        }
    }

    @Sendable static func currentValueSubjectOneSink() -> Runner {
        let subject = CurrentValueSubject<Int, Never>(0)
        let sum = Sum()
        let cancellable = subject.sink { sum.value &+= $0 }
        return Runner(keepAlive: [subject, cancellable]) { n in
            for i in 0..<n {
                subject.send(i)
            }
            return sum.value
        }
    }
}
