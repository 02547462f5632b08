import BinderyProtocol
import BinderyRuntime

/// An accepted event as the journal keeps it: the client message's JSON, read back with
/// ``MessageDecoder`` when a session is replayed.
extension EventMessage {
    package var journalJSON: String {
        var writer = JSONWriter()
        writer.raw("{\"type\":\"event\"")
        if let seq {
            writer.raw(",\"seq\":")
            writer.number(seq)
        }
        writer.raw(",\"target\":")
        writer.string(target)
        writer.raw(",\"event\":")
        writer.string(event)
        if let value {
            writer.raw(",\"value\":")
            writer.widgetValue(value)
        }
        if let row {
            writer.raw(",\"row\":")
            writer.string(row)
        }
        if let toSection {
            writer.raw(",\"toSection\":")
            writer.string(toSection)
        }
        if let toIndex {
            writer.raw(",\"toIndex\":")
            writer.number(toIndex)
        }
        if let action {
            writer.raw(",\"action\":")
            writer.number(action)
        }
        writer.raw("}")
        return writer.text
    }
}
