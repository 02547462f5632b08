/// The last `limit` elements (or all of them) of a ``ReplaySubject``: a ring in manually
/// managed storage. Guarded by the subject's lock.
///
/// Manual storage because the per-element path of an `Array` in unspecialised generic
/// code looks up the array's metadata on every element; here appending is pointer work
/// only, and a full ring hands back the element it evicts so the subject can release it
/// outside its lock.
///
/// Elements are numbered from 1 in arrival order; ``total`` is the number of the newest,
/// so a subscriber replaying outside the lock can ask for what it has not seen yet.
final class ReplayBuffer<Element> {
    /// Maximum number of elements kept (`Int.max`: unbounded).
    private let limit: Int
    /// Made on the first element: many subjects (`rx.deallocated`'s) never get one.
    private var storage: UnsafeMutablePointer<Element>?
    private var capacity = 0
    /// Ring index of the oldest element.
    private var head = 0
    private(set) var count = 0
    /// How many elements were ever appended: the number of the newest one.
    private(set) var total: UInt64 = 0

    /// A buffer of at most `limit` elements, or unbounded for `nil`.
    init(limit: Int?) {
        precondition((limit ?? 0) >= 0, "ReplaySubject: bufferSize must not be negative")
        self.limit = limit ?? .max
    }

    deinit {
        _ = removeAll()
        storage?.deallocate()
    }

    /// `true` when appending means evicting the oldest element (use ``replaceOldest(with:)``).
    @inline(__always)
    var isFull: Bool {
        count == limit && limit > 0
    }

    /// Adds `element`; the buffer must not be full. A buffer of 0 only counts it.
    @inline(__always)
    func append(_ element: Element) {
        total &+= 1
        if limit == 0 { return }
        if count == capacity {
            grow()
        }
        (storage! + ringIndex(count)).initialize(to: element)
        count += 1
    }

    /// Adds `element` to the full buffer, returning the oldest one it evicts.
    @inline(__always)
    func replaceOldest(with element: Element) -> Element {
        total &+= 1
        let slot = storage! + head
        let evicted = slot.move()
        slot.initialize(to: element)
        head = head + 1 == capacity ? 0 : head + 1
        return evicted
    }

    /// Copies of up to `maximum` kept elements numbered above `seen`, oldest first, and
    /// the number of the last one copied (`total` when none are left).
    func elements(after seen: UInt64, maximum: Int) -> (elements: ContiguousArray<Element>, last: UInt64) {
        let oldest = total - UInt64(count) + 1
        let first = Swift.max(seen + 1, oldest)
        guard first <= total else { return ([], total) }
        let available = Int(total - first + 1)
        let taken = Swift.min(available, maximum)
        var copies = ContiguousArray<Element>()
        copies.reserveCapacity(taken)
        let offset = Int(first - oldest)
        for index in offset..<(offset + taken) {
            copies.append(storage![ringIndex(index)])
        }
        return (copies, first + UInt64(taken) - 1)
    }

    /// Empties the buffer (its numbering goes on), returning the elements so the caller
    /// can release them outside its lock.
    func removeAll() -> ContiguousArray<Element> {
        var removed = ContiguousArray<Element>()
        removed.reserveCapacity(count)
        for index in 0..<count {
            removed.append((storage! + ringIndex(index)).move())
        }
        head = 0
        count = 0
        return removed
    }

    /// Ring index of the element `offset` places after the oldest.
    @inline(__always)
    private func ringIndex(_ offset: Int) -> Int {
        let index = head + offset
        return index < capacity ? index : index - capacity
    }

    /// Doubles the storage (up to `limit`), unwrapping the ring.
    private func grow() {
        let newCapacity = Swift.min(limit, Swift.max(capacity * 2, 4))
        let newStorage = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        for index in 0..<count {
            (newStorage + index).moveInitialize(from: storage! + ringIndex(index), count: 1)
        }
        storage?.deallocate()
        storage = newStorage
        capacity = newCapacity
        head = 0
    }
}
