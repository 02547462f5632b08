/// An ``ObserverNode`` that forwards to a subject through its Event-free input.
final class SubjectInputNode<Element>: ObserverNode<Element> {
    private let subject: any SubjectInput<Element>

    init(_ subject: any SubjectInput<Element>) {
        self.subject = subject
    }

    override func onNext(_ element: Element) { subject.onNext(element) }
    override func onError(_ error: Swift.Error) { subject.on(.error(error)) }
    override func onCompleted() { subject.on(.completed) }
}
