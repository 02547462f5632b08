/// An ``ObserverNode`` that forwards to a subject through its Event-free `onNext`.
final class SubjectInputNode<Subject: SubjectInput>: ObserverNode<Subject.Element> {
    private let subject: Subject

    init(_ subject: Subject) {
        self.subject = subject
    }

    override func onNext(_ element: Subject.Element) { subject.onNext(element) }
    override func onError(_ error: Swift.Error) { subject.on(.error(error)) }
    override func onCompleted() { subject.on(.completed) }
}
