/// The last `limit` elements (or all of them) of a ``ReplaySubject``, in a ring so a full
/// buffer takes a new element without allocating.
///
/// Elements are numbered from 1 in arrival order; ``total`` is the number of the newest,
/// which lets a subscriber joining outside the lock ask for only what it has not seen.
struct ReplayBuffer<Element> {
    /// Maximum number of elements kept; `nil` keeps all.
    private let limit: Int?
    private var storage: ContiguousArray<Element> = []
    /// Index in `storage` of the oldest element once the ring is full.
    private var head = 0
    /// How many elements were ever appended: the number of the newest one.
    private(set) var total: UInt64 = 0

    init(limit: Int?) {
        precondition((limit ?? 0) >= 0, "ReplaySubject: bufferSize must not be negative")
        self.limit = limit
    }

    /// Inlined: a call to a method of this generic struct would need its metadata, looked
    /// up on every element.
    @inline(__always)
    mutating func append(_ element: Element) {
        total &+= 1
        guard let limit else {
            storage.append(element)
            return
        }
        if storage.count < limit {
            storage.append(element)
        } else if limit > 0 {
            storage[head] = element
            head = head + 1 == limit ? 0 : head + 1
        }
    }

    /// Calls `body` with each kept element numbered above `seen`, oldest first.
    func forEach(after seen: UInt64, _ body: (Element) -> Void) {
        let count = storage.count
        let oldest = total - UInt64(count) + 1
        var offset = seen >= oldest ? Int(seen - oldest + 1) : 0
        while offset < count {
            let index = head + offset < count ? head + offset : head + offset - count
            body(storage[index])
            offset += 1
        }
    }

    mutating func removeAll() {
        storage = []
        head = 0
    }
}
