import BinderyProtocol
import RxWidgets

/// How a per-connection scene's session is rebuilt on another process (a takeover after
/// its owner died, a drain, a resume routed elsewhere) when a durable store is configured.
/// Declared at registration: `registry.register("date", restoration: .encoded) { ... }`.
public enum SceneRestoration: String, Sendable, CaseIterable {
    /// A fresh view controller, then the journal of accepted events sent through the
    /// normal event path, their answers discarded (LiveView's form recovery made general).
    /// The default: right for scenes whose state follows from their events alone.
    case replay
    /// The scene's own state, written with each acknowledged event through
    /// ``StateRestoring/encodeRestorableState(with:)`` and read back into a fresh view
    /// controller with ``StateRestoring/decodeRestorableState(with:)`` (UIKit's names).
    /// For scenes that read the clock, run timers or do I/O, where a replay would differ.
    case encoded
    /// A fresh mount, as without a store; the session keeps its token.
    case none
}
