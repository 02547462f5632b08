extension PrimitiveSequence {
    /// On each subscription makes a resource with `resourceFactory` and subscribes to the
    /// sequence `primitiveSequenceFactory` makes of it; the resource is disposed with the
    /// subscription. A throwing factory fails the subscription.
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        primitiveSequenceFactory: @escaping (Resource) throws -> PrimitiveSequence<Trait, Element>
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.create { observer in
            let resource: Resource
            do {
                resource = try resourceFactory()
            } catch {
                observer.onError(error)
                return Disposables.create()
            }
            let sequence: Observable<Element>
            do {
                sequence = try primitiveSequenceFactory(resource).asObservable()
            } catch {
                observer.onError(error)
                resource.dispose()
                return Disposables.create()
            }
            return Disposables.create(sequence.subscribe(observer), resource)
        })
    }
}
