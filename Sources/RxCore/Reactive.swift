import Foundation

/// The `rx` namespace of a type, as in RxSwift: reactive extensions are written as
/// `extension Reactive where Base: Slider { ... }` and used as `slider.rx.value`.
///
/// For a class, any writable property is also a ``Binder`` through dynamic member
/// lookup: `label.rx.textColor` binds `label.textColor`, with no extension needed.
@dynamicMemberLookup
public struct Reactive<Base> {
    /// The object the extensions act on.
    public let base: Base

    /// Extensions for `base`.
    public init(_ base: Base) {
        self.base = base
    }

    /// A binder that assigns each element to `base[keyPath: keyPath]` on the main loop,
    /// while `base` is alive.
    public subscript<Property>(
        dynamicMember keyPath: ReferenceWritableKeyPath<Base, Property>
    ) -> Binder<Property> where Base: AnyObject {
        Binder(base) { base, value in
            base[keyPath: keyPath] = value
        }
    }
}

/// A type with an `rx` namespace (instance and static), as in RxSwift.
///
/// Every widget is `ReactiveCompatible`; view controllers and view models adopt it with
/// an empty extension.
public protocol ReactiveCompatible {
    /// The type the extensions act on (usually `Self`).
    associatedtype ReactiveBase

    /// The static `rx` namespace.
    static var rx: Reactive<ReactiveBase>.Type { get set }

    /// The `rx` namespace of this instance.
    var rx: Reactive<ReactiveBase> { get set }
}

extension ReactiveCompatible {
    /// The static `rx` namespace. The setter does nothing; it exists so that extensions
    /// with mutating members can be used (`Type.rx.x = y`).
    public static var rx: Reactive<Self>.Type {
        get { Reactive<Self>.self }
        // swiftlint:disable:next unused_setter_value
        set {}
    }

    /// The `rx` namespace of this instance. The setter does nothing; it exists so that
    /// settable extensions work (`button.rx.action = action`).
    public var rx: Reactive<Self> {
        get { Reactive(self) }
        // swiftlint:disable:next unused_setter_value
        set {}
    }
}

/// Every Foundation object has an `rx` namespace, as in RxSwift.
extension NSObject: ReactiveCompatible {}
