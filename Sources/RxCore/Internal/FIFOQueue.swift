/// A first-in first-out queue with O(1) amortised enqueue and dequeue (an array and a
/// head index; the consumed prefix is dropped once it is at least half the storage).
///
/// `RingBuffer` is the cheaper queue on per-element paths; this one adds what `delay`
/// needs besides (a look at the head, emptying at once).
struct FIFOQueue<Element> {
    private var storage: ContiguousArray<Element> = []
    private var head = 0

    var isEmpty: Bool { head == storage.count }
    var count: Int { storage.count - head }

    /// The oldest element, if any.
    var first: Element? { isEmpty ? nil : storage[head] }

    mutating func enqueue(_ element: Element) {
        storage.append(element)
    }

    mutating func dequeue() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    mutating func removeAll() {
        storage.removeAll()
        head = 0
    }
}
