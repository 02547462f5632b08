extension PrimitiveSequence {
    /// On each subscription makes a resource with `resourceFactory` and subscribes to the
    /// sequence `primitiveSequenceFactory` makes of it; the resource is disposed with the
    /// subscription. A throwing factory fails the subscription.
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        primitiveSequenceFactory: @escaping (Resource) throws -> PrimitiveSequence<Trait, Element>
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.using(resourceFactory, observableFactory: { try primitiveSequenceFactory($0).asObservable() }))
    }
}
