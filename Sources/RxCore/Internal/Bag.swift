/// A key handed out by ``Bag`` and ``ObserverBag``.
struct BagKey: Hashable, Sendable {
    let rawValue: UInt64
}

/// An insertion-ordered collection with removal by key: ``CompositeDisposable``'s
/// disposables (observers go in the non-generic ``ObserverBag``).
struct Bag<Element> {
    private var nextKey: UInt64 = 0
    private(set) var entries: ContiguousArray<(key: BagKey, value: Element)> = []

    var count: Int { entries.count }

    mutating func insert(_ element: Element) -> BagKey {
        let key = BagKey(rawValue: nextKey)
        nextKey &+= 1
        entries.append((key, element))
        return key
    }

    /// Removes and returns the element for `key`, if still present.
    mutating func removeKey(_ key: BagKey) -> Element? {
        // Newest first: the usual removal is of a recent subscription.
        var index = entries.count - 1
        while index >= 0 {
            if entries[index].key == key {
                return entries.remove(at: index).value
            }
            index -= 1
        }
        return nil
    }

    @inline(__always)
    func forEach(_ body: (Element) throws -> Void) rethrows {
        for entry in entries {
            try body(entry.value)
        }
    }
}
