import Foundation

/// What a blocking operator has collected. The source may send from another thread
/// while the caller times out, so every field is guarded by `lock`.
final class BlockingState<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var elements: [Element] = []
    private var error: Swift.Error?
    private var done = false

    /// `true` once the answer is known.
    var isDone: Bool {
        lock.lock()
        defer { lock.unlock() }
        return done
    }

    /// Appends `element` (when not `nil`) unless already done; returns `true` when this
    /// makes `max` elements, which ends the wait.
    func append(if element: Element?, max: Int?) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !done else { return false }
        if let element {
            elements.append(element)
        }
        if let max, elements.count >= max {
            done = true
            return true
        }
        return false
    }

    /// Ends collection with `error` (`nil`: completed) unless already done; returns `true`
    /// when this call ended it.
    func finish(_ error: Swift.Error?) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !done else { return false }
        done = true
        self.error = error
        return true
    }

    /// The elements and how collection ended.
    var result: MaterializedSequenceResult<Element> {
        lock.lock()
        defer { lock.unlock() }
        if let error {
            return .failed(elements: elements, error: error)
        }
        return .completed(elements: elements)
    }
}
