/// The observers of a subject, a share connection or a relay binding, type-erased to
/// `AnyObject` so that inserting, removing and snapshotting need no generic metadata (a
/// `Bag<ObserverNode<Element>>` looks up `Bag<…>`, `ContiguousArray<(key:value:)>`, the
/// tuple and `Optional<…>` metadata on every subscribe and dispose in unspecialised code).
/// Copy-on-write like ``Bag``, so a snapshot for emitting outside a lock is one retain.
struct ObserverBag {
    struct Entry {
        let key: BagKey
        let node: AnyObject
    }

    private var nextKey: UInt64 = 0
    private(set) var entries: ContiguousArray<Entry> = []

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    mutating func insert(_ node: AnyObject) -> BagKey {
        let key = BagKey(rawValue: nextKey)
        nextKey &+= 1
        entries.append(Entry(key: key, node: node))
        return key
    }

    /// Removes and returns the node for `key`, if still present.
    mutating func removeKey(_ key: BagKey) -> AnyObject? {
        var index = entries.count - 1
        while index >= 0 {
            if entries[index].key == key {
                return entries.remove(at: index).node
            }
            index -= 1
        }
        return nil
    }

    /// Empties the bag and returns what it held. The key counter is kept, so a stale key
    /// never matches a later observer.
    mutating func detachAll() -> ObserverBag {
        let all = self
        entries.removeAll()
        return all
    }

    /// Calls `body` with each node as an `ObserverNode<Element>` (every node inserted in a
    /// subject's bag is one; the cast is unchecked, so it needs no metadata).
    @inline(__always)
    func forEach<Element>(as _: ObserverNode<Element>.Type, _ body: (ObserverNode<Element>) -> Void) {
        // The caller's snapshot keeps every node alive: borrow them, no retain per node.
        entries.withUnsafeBufferPointer { buffer in
            for index in buffer.indices {
                let node = Unmanaged<ObserverNode<Element>>.fromOpaque(
                    Unmanaged.passUnretained(buffer[index].node).toOpaque()
                )
                node._withUnsafeGuaranteedRef(body)
            }
        }
    }
}
