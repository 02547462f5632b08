/// An action waiting in a queue; disposing it before it runs skips it.
final class ScheduledItem: Cancelable {
    private var action: (() -> Disposable)?
    private let disposable = SingleAssignmentDisposable()

    init<State>(state: State, action: @escaping (State) -> Disposable) {
        self.action = { action(state) }
    }

    var isDisposed: Bool { disposable.isDisposed }

    func invoke() {
        guard let action, !disposable.isDisposed else { return }
        self.action = nil
        disposable.setDisposable(action())
    }

    func dispose() {
        action = nil
        disposable.dispose()
    }
}
