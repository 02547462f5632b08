/// A first-in first-out queue over one block of typed memory: `zip`'s per-source buffers,
/// the inner sequences `merge(maxConcurrent:)` / `concatMap` hold back, `observe(on:)`'s
/// pending elements and `delay`'s timed elements.
///
/// A class with raw storage rather than an array-backed struct: in unspecialised generic
/// code every operation of a generic struct looks up its metadata (and that of the array
/// and ranges it uses), which made zip cost ~4,000 instructions per element. Here an
/// operation is a few pointer moves through `Element`'s value witnesses. Not thread-safe:
/// owners guard it with their lock.
final class RingBuffer<Element> {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    private var head = 0
    private(set) var count = 0

    init(capacity: Int = 4) {
        self.capacity = Swift.max(capacity, 1)
        storage = .allocate(capacity: self.capacity)
    }

    deinit {
        removeAll()
        storage.deallocate()
    }

    /// `true` when nothing is queued.
    var isEmpty: Bool { count == 0 }

    /// The front element, or `nil` when empty.
    var first: Element? {
        count == 0 ? nil : storage[head]
    }

    /// Appends `element` at the back.
    func enqueue(_ element: Element) {
        if count == capacity {
            grow()
        }
        var tail = head + count
        if tail >= capacity { tail -= capacity }
        (storage + tail).initialize(to: element)
        count += 1
    }

    /// Removes and returns the front element; the queue must not be empty.
    func removeFirst() -> Element {
        precondition(count > 0, "RingBuffer.removeFirst on an empty queue")
        let element = (storage + head).move()
        head += 1
        if head == capacity { head = 0 }
        count -= 1
        return element
    }

    /// Removes and returns the front element, or `nil` when empty.
    func dequeue() -> Element? {
        count == 0 ? nil : removeFirst()
    }

    /// Removes every element, front first, keeping the storage.
    func removeAll() {
        while count > 0 {
            _ = removeFirst()
        }
    }

    private func grow() {
        let newCapacity = capacity * 2
        let newStorage = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        // The elements wrap around the end: move [head, capacity) then [0, rest).
        let firstPart = Swift.min(count, capacity - head)
        newStorage.moveInitialize(from: storage + head, count: firstPart)
        (newStorage + firstPart).moveInitialize(from: storage, count: count - firstPart)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
        head = 0
    }
}
