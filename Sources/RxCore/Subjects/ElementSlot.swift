/// Storage for one element, out of line, for the per-element paths of subjects and
/// `share(replay: 1)`.
///
/// Replacing the element through a pointer moves the old one out without a retain, a
/// generic `swap`, an `Optional<Element>` (whose metadata unspecialised code looks up
/// per call) or a dynamic exclusivity check; the caller then releases the old element
/// outside its lock, since its deinit may run arbitrary code (even code that
/// unsubscribes from the same subject). Whether the slot holds an element is the owner's
/// business, as is calling ``deallocate()`` from its deinit.
struct ElementSlot<Element> {
    private let pointer: UnsafeMutablePointer<Element>

    /// An empty slot.
    init() {
        pointer = .allocate(capacity: 1)
    }

    /// A slot holding `element`.
    init(_ element: Element) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: element)
    }

    /// The element; the slot must hold one.
    @inline(__always)
    var element: Element {
        pointer.pointee
    }

    /// Stores `element` in the empty slot.
    @inline(__always)
    func initialize(_ element: Element) {
        pointer.initialize(to: element)
    }

    /// Stores `element` in the full slot and returns the one it held.
    @inline(__always)
    func replace(with element: Element) -> Element {
        let previous = pointer.move()
        pointer.initialize(to: element)
        return previous
    }

    /// Empties the full slot, returning its element.
    @inline(__always)
    func take() -> Element {
        pointer.move()
    }

    /// Frees the storage; the slot must be empty.
    func deallocate() {
        pointer.deallocate()
    }
}
