import BinderyProtocol

/// What a shared scene's Redis streams carry: the wire protocol's own JSON, written and
/// read by the protocol's codec (``MessageEncoder``, ``MessageDecoder``), so nothing new is
/// invented and the mirror re-sends exactly what the owner produced.
///
/// - inbox (`scene:<name>:in`), `m`: an event as a client sends it
///   (`MessageEncoder.encode(.event(_:))`, read with ``decodeEvent(_:)``).
/// - outbox (`scene:<name>:out`), `a` and `p`: the answer and the patch as a client
///   receives them (`MessageEncoder.encode(_:)`, `MessageDecoder.decodeServerMessage`).
/// - snapshot, `widgets`: the widgets as a `scene` message has them
///   (`MessageEncoder.encodeWidgets`, `MessageDecoder.decodeWidgets`).
package enum SharedSceneWire {
    /// Why a stream entry could not be read.
    package struct DecodeError: Error, CustomStringConvertible {
        let reason: String
        package var description: String { "shared scene: bad stream entry: \(reason)" }
    }

    /// The event in an inbox entry's `m` (decoded exactly as a client's); any other
    /// message is refused, since only events go through the inbox.
    package static func decodeEvent(_ json: String) throws(DecodeError) -> EventMessage {
        guard case .success(.event(let event)) = MessageDecoder.decode(json) else {
            throw DecodeError(reason: "not an event: \(json.prefix(80))")
        }
        return event
    }
}
