extension ObservableType {
    /// Splits the elements into groups by the key `keySelector` gives them: each new key
    /// sends a ``GroupedObservable``, then that group receives the elements with its key.
    /// The source's error or completion reaches every group (in the order they opened), then
    /// the result; a throwing
    /// `keySelector` fails them all.
    public func groupBy<Key: Hashable>(keySelector: @escaping (Element) throws -> Key) -> Observable<GroupedObservable<Key, Element>> {
        GroupBy(source: asObservable(), keySelector: keySelector)
    }
}

private final class GroupBy<Key: Hashable, Element>: Producer<GroupedObservable<Key, Element>> {
    private let source: Observable<Element>
    private let keySelector: (Element) throws -> Key

    init(source: Observable<Element>, keySelector: @escaping (Element) throws -> Key) {
        self.source = source
        self.keySelector = keySelector
    }

    override func run(_ observer: ObserverNode<GroupedObservable<Key, Element>>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = GroupBySink(keySelector: keySelector, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink, subscription)
    }
}

/// Groups hold a reference on the source subscription, so it lives while a group is
/// observed even after the outer sequence is disposed (RxSwift's `AddRef`).
private final class GroupBySink<Key: Hashable, Element>: Sink<Element, GroupedObservable<Key, Element>> {
    private let keySelector: (Element) throws -> Key
    private let subscription = SingleAssignmentDisposable()
    private let refCount: RefCountDisposable
    private var groups: [Key: PublishSubject<Element>] = [:]
    /// The groups in the order they opened: terminal events reach them in that order.
    private var openedGroups: [PublishSubject<Element>] = []

    init(keySelector: @escaping (Element) throws -> Key, observer: ObserverNode<GroupedObservable<Key, Element>>, cancel: Cancelable) {
        self.keySelector = keySelector
        self.refCount = RefCountDisposable(disposable: subscription)
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        subscription.setDisposable(source.subscribe(node: self))
        return refCount
    }

    override func onNext(_ element: Element) {
        let key: Key
        do {
            key = try keySelector(element)
        } catch {
            onError(error)
            return
        }
        let group: PublishSubject<Element>
        if let existing = groups[key] {
            group = existing
        } else {
            group = PublishSubject()
            groups[key] = group
            openedGroups.append(group)
            forwardNext(GroupedObservable(key: key, source: AddRef(source: group.asObservable(), refCount: refCount)))
        }
        group.onNext(element)
    }

    override func onError(_ error: Swift.Error) {
        for group in openedGroups {
            group.onError(error)
        }
        forwardError(error)
        dispose()
    }

    override func onCompleted() {
        for group in openedGroups {
            group.onCompleted()
        }
        forwardCompleted()
        dispose()
    }
}
