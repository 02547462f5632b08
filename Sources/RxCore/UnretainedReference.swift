/// An object that says itself when it goes, so that references to it can read `nil`
/// afterwards without being `weak`: it hands out one ``LifetimeAnchor`` and ends it in
/// `deinit`.
///
/// A `weak` reference gives its object a side table, and from then on every retain and
/// release of the object takes the runtime's slow path. Bindery's widgets are retained
/// and released many times for each event they handle, and binders and control
/// properties refer to them weakly, so they adopt this instead.
public protocol LifetimeAnchored: AnyObject {
    /// The anchor that references to this object hold; made on first use.
    var lifetimeAnchor: LifetimeAnchor { get }
}

/// What references to a ``LifetimeAnchored`` object hold instead of the object: the
/// object until it ends the anchor. Not thread-safe: used where the object is (a
/// widget's loop).
public final class LifetimeAnchor {
    /// The object, until ``end()``. Not retained: the object ends the anchor before its
    /// memory goes.
    public private(set) unowned(unsafe) var object: AnyObject?

    /// An anchor for `object`, which must call ``end()`` when it deinitialises.
    public init(_ object: AnyObject) {
        self.object = object
    }

    /// The anchor kept in `storage` (an anchored object's stored property), made there on
    /// first use: what a ``LifetimeAnchored/lifetimeAnchor`` getter returns.
    public static func anchor(of object: AnyObject, in storage: inout LifetimeAnchor?) -> LifetimeAnchor {
        if let storage { return storage }
        let anchor = LifetimeAnchor(object)
        storage = anchor
        return anchor
    }

    /// Called from the object's `deinit`: from now on references read `nil`.
    public func end() {
        object = nil
    }
}

/// A reference that does not keep its object alive and reads `nil` once the object is
/// gone, like `weak`: through the object's ``LifetimeAnchor`` when it has one, else a
/// `weak` reference.
public struct UnretainedReference<Object: AnyObject> {
    private let anchor: LifetimeAnchor?
    private unowned(unsafe) let anchoredObject: Object?
    private weak var weakObject: Object?

    /// A reference to `object`.
    public init(_ object: Object) {
        if let anchored = object as? LifetimeAnchored {
            anchor = anchored.lifetimeAnchor
            anchoredObject = object
        } else {
            anchor = nil
            anchoredObject = nil
            weakObject = object
        }
    }

    /// The object, or `nil` once it is gone.
    @inline(__always)
    public var object: Object? {
        if let anchor { return anchor.object == nil ? nil : anchoredObject }
        return weakObject
    }
}
