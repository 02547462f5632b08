extension InfallibleType {
    /// `resultSelector` applied to the latest elements of every source whenever one
    /// emits, once each has emitted.
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection,
        resultSelector: @escaping ([Collection.Element.Element]) throws -> Element
    ) -> Infallible<Element> where Collection.Element: InfallibleType {
        Infallible(Observable.combineLatest(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// The latest elements of every source whenever one emits, once each has emitted.
    public static func combineLatest<Collection: Swift.Collection>(_ collection: Collection) -> Infallible<[Element]>
    where Collection.Element: InfallibleType, Collection.Element.Element == Element {
        Infallible(Observable.combineLatest(collection.map { $0.asObservable() }))
    }
}
