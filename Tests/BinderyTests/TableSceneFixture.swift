import Bindery
import BinderyTesting
import Foundation
import RxTesting
import RxWidgets

/// What the table, rows and collection protocol tests share: a session store over virtual
/// time holding their scenes, and the session's answers as JSON text.
struct TableSceneFixture {
    let store: SessionStore

    /// A store with the scenes `register` adds: 5 sessions, 3 per address, binding errors
    /// reported but not fatal.
    init(_ register: (SceneRegistry) -> Void) {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let registry = SceneRegistry()
        register(registry)
        store = SessionStore(registry: registry,
                             configuration: SessionStore.Configuration(gracePeriod: .seconds(30), maxSessions: 5,
                                                                       maxSessionsPerAddress: 3, strictBindingErrors: false),
                             scheduler: scheduler, flushScheduler: scheduler)
    }

    /// The session's answer to the message `json`, encoded.
    func send(_ session: Session, _ json: String) -> String {
        MessageEncoder.encode(session.handle(text: json)!)
    }

    /// An error answer's ack and code (`"5 unknown-row"`, `"- bad-message"`), or `"no error"`.
    func code(_ session: Session, _ json: String) -> String {
        guard case .error(let error)? = session.handle(text: json) else { return "no error" }
        return "\(error.ack.map(String.init) ?? "-") \(error.code.rawValue)"
    }
}
