/// A value with a stable identity across versions of itself, as RxDataSources'
/// `IdentifiableType`: the animated data source matches old and new items by it, so an
/// edited item is an update and a moved one a move, not a delete and an insert.
/// Identities must be unique among a table's items (and among its sections).
public protocol IdentifiableType {
    /// The identity's type.
    associatedtype Identity: Hashable

    /// The identity.
    var identity: Identity { get }
}

extension String: IdentifiableType {
    /// The string itself.
    public var identity: String { self }
}

extension Int: IdentifiableType {
    /// The number itself.
    public var identity: Int { self }
}

extension Double: IdentifiableType {
    /// The number itself.
    public var identity: Double { self }
}

extension Float: IdentifiableType {
    /// The number itself.
    public var identity: Float { self }
}

/// A hashable value as its own identity, as RxDataSources' `IdentifiableValue`.
public struct IdentifiableValue<Value: Hashable>: IdentifiableType, Equatable, CustomStringConvertible {
    /// The value.
    public let value: Value

    /// Wraps `value`.
    public init(value: Value) {
        self.value = value
    }

    /// The value.
    public var identity: Value { value }

    /// The value's description.
    public var description: String { "\(value)" }
}
