/// An observable sequence with a compile-time promise about how many elements it sends:
/// `Single` (exactly one, or an error), `Maybe` (at most one) and `Completable` (none).
///
/// A thin wrapper over an `Observable`, as in RxSwift: every operator builds on the
/// wrapped sequence, so a trait costs what the observable does.
public struct PrimitiveSequence<Trait, Element> {
    // `@usableFromInline` so the entry points (`just`, `subscribe(onSuccess:…)`) can be
    // `@inlinable`: specialised in the client they skip two generic-metadata look-ups.
    @usableFromInline let source: Observable<Element>

    /// Wraps `raw`, which must keep the trait's promise.
    @usableFromInline init(raw: Observable<Element>) {
        self.source = raw
    }
}

/// Something that is a ``PrimitiveSequence``; lets extensions constrain the trait.
public protocol PrimitiveSequenceType {
    /// The trait (`SingleTrait`, `MaybeTrait` or `CompletableTrait`).
    associatedtype Trait

    /// The type of the element.
    associatedtype Element

    /// This value as a primitive sequence.
    var primitiveSequence: PrimitiveSequence<Trait, Element> { get }
}

extension PrimitiveSequence: PrimitiveSequenceType {
    /// This sequence.
    @inlinable
    public var primitiveSequence: PrimitiveSequence<Trait, Element> {
        self
    }
}

extension PrimitiveSequence: ObservableConvertibleType {
    /// The wrapped observable.
    @inlinable
    public func asObservable() -> Observable<Element> {
        source
    }
}
