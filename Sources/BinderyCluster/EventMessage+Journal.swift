import BinderyProtocol
import BinderyRuntime

/// An accepted event as the journal keeps it: the client message's JSON, read back with
/// ``MessageDecoder`` when a session is replayed.
extension EventMessage {
    /// This event as a client sends it (``MessageEncoder``'s client form).
    package var journalJSON: String {
        MessageEncoder.encode(.event(self))
    }
}
