/// A first-in first-out queue: `zip`'s per-source buffers and the inner sequences that
/// `merge(maxConcurrent:)` / `concatMap` hold back.
///
/// An array plus a read index, compacted when drained or when the consumed prefix is at
/// least half the storage, so both ends are amortised O(1) and at most half the storage
/// holds already-dequeued elements. Not thread-safe: owners guard it with their lock.
struct FIFO<Element> {
    private var storage: ContiguousArray<Element> = []
    private var head = 0

    init() {}

    /// `true` when nothing is queued.
    var isEmpty: Bool { head == storage.count }

    /// The number of queued elements.
    var count: Int { storage.count - head }

    /// Appends `element` at the back.
    mutating func enqueue(_ element: Element) {
        storage.append(element)
    }

    /// Removes and returns the front element; the queue must not be empty.
    mutating func removeFirst() -> Element {
        precondition(head < storage.count, "FIFO.removeFirst on an empty queue")
        let element = storage[head]
        head += 1
        if head == storage.count {
            // Drained: release every consumed element, keep the buffer for the next round.
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 16 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Removes and returns the front element, or `nil` when empty.
    mutating func dequeue() -> Element? {
        isEmpty ? nil : removeFirst()
    }

    /// Drops every element.
    mutating func removeAll() {
        storage.removeAll()
        head = 0
    }
}
