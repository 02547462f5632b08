import RxCore

/// The handlers of one kind of widget event (a table's `itemSelected`, an alert's
/// action), called in registration order. What a `UIControl`'s target list is for
/// control events, for events that carry a value. Loop-confined, like the widgets.
final class EventHub<Value> {
    private var handlers: [(id: Int, handler: (Value) -> Void)] = []
    private var nextID = 0

    /// Calls `handler` for every value sent until the returned disposable is disposed.
    func register(_ handler: @escaping (Value) -> Void) -> Disposable {
        let id = nextID
        nextID += 1
        handlers.append((id, handler))
        return Disposables.create(with: { [weak self] in
            self?.handlers.removeAll { $0.id == id }
        })
    }

    /// Sends `value` to every handler registered now.
    func send(_ value: Value) {
        for entry in handlers {
            entry.handler(value)
        }
    }

    /// Whether anybody listens.
    var isEmpty: Bool { handlers.isEmpty }
}
