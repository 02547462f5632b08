import Foundation
import RxWidgets

/// Client messages as a client sends them: what a shared scene's inbox and a session's
/// journal hold, read back with ``MessageDecoder``. Keys in a fixed
/// order; optional fields only when present; `uploadBegin`'s `last` only when false
/// (its default is true).
extension MessageEncoder {
    /// `message` as JSON text.
    public static func encode(_ message: ClientMessage) -> String {
        String(decoding: encodeUTF8(message), as: UTF8.self)
    }

    /// `message` as JSON, UTF-8 encoded.
    public static func encodeUTF8(_ message: ClientMessage) -> [UInt8] {
        var writer = JSONWriter(capacity: 96)
        switch message {
        case .event(let event): write(event, to: &writer)
        case .resync(let seq):
            writer.raw("{\"type\":\"resync\"")
            seqField(seq, to: &writer)
            writer.raw("}")
        case .bye: writer.raw("{\"type\":\"bye\"}")
        case .rows(let request): write(request, to: &writer)
        case .upload(let upload): write(upload, to: &writer)
        }
        return writer.bytes
    }

    /// `{"type":"event","seq":…,"target":…,"event":…,"value":…,"row":…,"toSection":…,
    /// "toIndex":…,"action":…}`, the optional fields only when set.
    package static func write(_ event: EventMessage, to writer: inout JSONWriter) {
        writer.raw("{\"type\":\"event\"")
        seqField(event.seq, to: &writer)
        writer.raw(",\"target\":")
        writer.string(event.target)
        writer.raw(",\"event\":")
        writer.string(event.event)
        if let value = event.value {
            writer.raw(",\"value\":")
            writer.widgetValue(value)
        }
        if let row = event.row {
            writer.raw(",\"row\":")
            writer.string(row)
        }
        if let toSection = event.toSection {
            writer.raw(",\"toSection\":")
            writer.string(toSection)
        }
        if let toIndex = event.toIndex {
            writer.raw(",\"toIndex\":")
            writer.number(toIndex)
        }
        if let action = event.action {
            writer.raw(",\"action\":")
            writer.number(action)
        }
        writer.raw("}")
    }

    /// `{"type":"rows","seq":…,"target":…,"from":…,"to":…}`.
    package static func write(_ request: RowsRequest, to writer: inout JSONWriter) {
        writer.raw("{\"type\":\"rows\"")
        seqField(request.seq, to: &writer)
        writer.raw(",\"target\":")
        writer.string(request.target)
        writer.raw(",\"from\":")
        writer.number(request.from)
        writer.raw(",\"to\":")
        writer.number(request.to)
        writer.raw("}")
    }

    /// `{"type":"upload…","seq":…,"target":…,"upload":…,<the step's fields>}`.
    package static func write(_ upload: UploadMessage, to writer: inout JSONWriter) {
        switch upload.step {
        case .begin: writer.raw("{\"type\":\"uploadBegin\"")
        case .chunk: writer.raw("{\"type\":\"uploadChunk\"")
        case .end: writer.raw("{\"type\":\"uploadEnd\"")
        case .cancel: writer.raw("{\"type\":\"uploadCancel\"")
        }
        seqField(upload.seq, to: &writer)
        writer.raw(",\"target\":")
        writer.string(upload.target)
        if let id = upload.upload {
            writer.raw(",\"upload\":")
            writer.string(id)
        }
        switch upload.step {
        case .begin(let name, let contentType, let size, let last):
            writer.raw(",\"name\":")
            writer.string(name)
            writer.raw(",\"contentType\":")
            writer.string(contentType)
            writer.raw(",\"size\":")
            writer.number(size)
            if !last { writer.raw(",\"last\":false") }
        case .chunk(let offset, let data):
            writer.raw(",\"offset\":")
            writer.number(offset)
            writer.raw(",\"data\":")
            writer.string(data.base64EncodedString())
        case .end, .cancel:
            break
        }
        writer.raw("}")
    }

    private static func seqField(_ seq: Int?, to writer: inout JSONWriter) {
        guard let seq else { return }
        writer.raw(",\"seq\":")
        writer.number(seq)
    }
}
