extension InfallibleType {
    /// `resultSelector` applied to the n-th elements of every source, once each has its n-th.
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection,
        resultSelector: @escaping ([Collection.Element.Element]) throws -> Element
    ) -> Infallible<Element> where Collection.Element: InfallibleType {
        Infallible(Observable.zip(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// The n-th elements of every source, once each has its n-th.
    public static func zip<Collection: Swift.Collection>(_ collection: Collection) -> Infallible<[Element]>
    where Collection.Element: InfallibleType, Collection.Element.Element == Element {
        Infallible(Observable.zip(collection.map { $0.asObservable() }))
    }
}
