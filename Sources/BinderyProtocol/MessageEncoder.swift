import RxWidgets

/// Encodes messages of both directions as compact JSON (see PROTOCOL.md for the shapes):
/// server messages here, client messages in `MessageEncoder+Client.swift`, widget
/// snapshots in `MessageEncoder+Widgets.swift`. Keys are written in a fixed order;
/// widget properties and row fields in key order. ``MessageDecoder`` reads it all back.
/// Pure.
public enum MessageEncoder {
    /// `message` as JSON text.
    public static func encode(_ message: ServerMessage) -> String {
        String(decoding: encodeUTF8(message), as: UTF8.self)
    }

    /// `message` as JSON, UTF-8 encoded (what a WebSocket frame carries).
    // Inlined into `OutgoingMessage.utf8`, on the per-event path.
    @inline(__always)
    public static func encodeUTF8(_ message: ServerMessage) -> [UInt8] {
        var writer = JSONWriter(capacity: 128)
        switch message {
        case .scene(let scene): write(scene, to: &writer)
        case .patch(let patch): write(patch, to: &writer)
        case .error(let error): write(error, to: &writer)
        case .bye(let reason):
            writer.raw("{\"type\":\"bye\",\"reason\":")
            writer.string(reason)
            writer.raw("}")
        case .rows(let rows): write(rows, to: &writer)
        }
        return writer.bytes
    }

    /// `{"type":"scene",…}`: the session, the scene, its widgets and layout.
    package static func write(_ scene: SceneMessage, to writer: inout JSONWriter) {
        writer.raw("{\"type\":\"scene\"")
        if let ack = scene.ack {
            writer.raw(",\"ack\":")
            writer.number(ack)
        }
        writer.raw(",\"protocol\":")
        writer.number(binderyProtocolVersion)
        writer.raw(",\"session\":")
        writer.string(scene.session)
        writer.raw(",\"scene\":")
        writer.string(scene.scene)
        writer.raw(",\"title\":")
        writer.string(scene.title)
        if let description = scene.description {
            writer.raw(",\"description\":")
            writer.string(description)
        }
        writer.raw(",\"resumed\":")
        writer.bool(scene.resumed)
        if let restored = scene.restored {
            writer.raw(",\"restored\":")
            writer.bool(restored)
        }
        writer.raw(",\"widgets\":")
        write(scene.widgets, to: &writer)
        if let layout = scene.layout {
            writer.raw(",\"layout\":")
            write(layout, to: &writer)
        }
        writer.raw("}")
    }

    /// `{"id":…,"kind":…,"props":{…}}`, props in key order.
    package static func write(_ widget: WidgetSnapshot, to writer: inout JSONWriter) {
        writer.raw("{\"id\":")
        writer.string(widget.id)
        writer.raw(",\"kind\":")
        writer.string(widget.kind)
        writer.raw(",\"props\":{")
        for (offset, key) in widget.properties.keys.sorted().enumerated() {
            if offset > 0 { writer.raw(",") }
            writer.string(key)
            writer.raw(":")
            writer.widgetValue(widget.properties[key]!)
        }
        writer.raw("}}")
    }

    /// A layout as PROTOCOL.md writes it: a bare id, or an object per stack, grid or group.
    package static func write(_ layout: SceneLayout, to writer: inout JSONWriter) {
        func children(_ items: [SceneLayout]) {
            writer.raw("[")
            for (index, item) in items.enumerated() {
                if index > 0 { writer.raw(",") }
                write(item, to: &writer)
            }
            writer.raw("]")
        }
        func stack(_ axis: String, _ items: [SceneLayout], _ alignment: SceneLayout.Alignment,
                   _ distribution: SceneLayout.Distribution, _ spacing: Double?) {
            writer.raw("{")
            writer.string(axis)
            writer.raw(":")
            children(items)
            if alignment != .fill {
                writer.raw(",\"alignment\":")
                writer.string(alignment.rawValue)
            }
            if distribution != .fill {
                writer.raw(",\"distribution\":")
                writer.string(distribution.rawValue)
            }
            spacingField(spacing)
            writer.raw("}")
        }
        func spacingField(_ spacing: Double?) {
            guard let spacing else { return }
            writer.raw(",\"spacing\":")
            writer.number(spacing)
        }
        switch layout {
        case .widget(let id, nil):
            writer.string(id)
        case .widget(let id, let caption?):
            writer.raw("{\"widget\":")
            writer.string(id)
            writer.raw(",\"caption\":")
            writer.string(caption)
            writer.raw("}")
        case .row(let items, let alignment, let distribution, let spacing):
            stack("row", items, alignment, distribution, spacing)
        case .column(let items, let alignment, let distribution, let spacing):
            stack("column", items, alignment, distribution, spacing)
        case .grid(let items, let columns, let spacing):
            writer.raw("{\"grid\":")
            children(items)
            writer.raw(",\"columns\":")
            writer.number(max(1, columns))
            spacingField(spacing)
            writer.raw("}")
        case .group(let title, let items):
            writer.raw("{\"group\":")
            writer.string(title)
            writer.raw(",\"children\":")
            children(items)
            writer.raw("}")
        }
    }

    /// `{"type":"patch","ack":…,"removed":[…],"added":[…],"changes":[…]}`.
    package static func write(_ patch: PatchMessage, to writer: inout JSONWriter) {
        writer.raw("{\"type\":\"patch\"")
        if let ack = patch.ack {
            writer.raw(",\"ack\":")
            writer.number(ack)
        }
        if !patch.removed.isEmpty {
            writer.raw(",\"removed\":[")
            for (index, id) in patch.removed.enumerated() {
                if index > 0 { writer.raw(",") }
                writer.string(id)
            }
            writer.raw("]")
        }
        if !patch.added.isEmpty {
            writer.raw(",\"added\":[")
            for (index, widget) in patch.added.enumerated() {
                if index > 0 { writer.raw(",") }
                write(widget, to: &writer)
            }
            writer.raw("]")
        }
        writer.raw(",\"changes\":[")
        for (index, change) in patch.changes.enumerated() {
            if index > 0 { writer.raw(",") }
            write(change, to: &writer)
        }
        writer.raw("]}")
    }

    /// `{"target":…,"prop":…,"value":…}` or `{…,"ops":[…]}`.
    package static func write(_ change: PatchChange, to writer: inout JSONWriter) {
        writer.raw("{\"target\":")
        writer.string(change.target)
        writer.raw(",\"prop\":")
        writer.string(change.prop)
        switch change.update {
        case .value(let value):
            writer.raw(",\"value\":")
            writer.widgetValue(value)
        case .ops(let ops):
            writer.raw(",\"ops\":")
            write(ops, to: &writer)
        }
        writer.raw("}")
    }

    /// Keyed list operations: `[{"op":"insert","index":…,"rows":[…]},…]`.
    package static func write(_ ops: [ListChange], to writer: inout JSONWriter) {
        writer.raw("[")
        for (index, op) in ops.enumerated() {
            if index > 0 { writer.raw(",") }
            switch op {
            case .insert(let at, let rows):
                writer.raw("{\"op\":\"insert\",\"index\":")
                writer.number(at)
                writer.raw(",\"rows\":")
                writer.rows(rows)
            case .remove(let at, let count):
                writer.raw("{\"op\":\"remove\",\"index\":")
                writer.number(at)
                writer.raw(",\"count\":")
                writer.number(count)
            case .update(let at, let row):
                writer.raw("{\"op\":\"update\",\"index\":")
                writer.number(at)
                writer.raw(",\"row\":")
                writer.row(row)
            case .move(let from, let to):
                writer.raw("{\"op\":\"move\",\"from\":")
                writer.number(from)
                writer.raw(",\"to\":")
                writer.number(to)
            }
            writer.raw("}")
        }
        writer.raw("]")
    }

    /// `{"type":"rows","ack":…,"target":…,"from":…,"count":…,"rows":[…]}`.
    package static func write(_ rows: RowsMessage, to writer: inout JSONWriter) {
        writer.raw("{\"type\":\"rows\"")
        if let ack = rows.ack {
            writer.raw(",\"ack\":")
            writer.number(ack)
        }
        writer.raw(",\"target\":")
        writer.string(rows.target)
        writer.raw(",\"from\":")
        writer.number(rows.from)
        writer.raw(",\"count\":")
        writer.number(rows.count)
        writer.raw(",\"rows\":")
        writer.rows(rows.rows)
        writer.raw("}")
    }

    /// `{"type":"error","ack":…,"code":…,"message":…,"target":…}`.
    package static func write(_ error: ErrorMessage, to writer: inout JSONWriter) {
        writer.raw("{\"type\":\"error\"")
        if let ack = error.ack {
            writer.raw(",\"ack\":")
            writer.number(ack)
        }
        writer.raw(",\"code\":")
        writer.string(error.code.rawValue)
        writer.raw(",\"message\":")
        writer.string(error.message)
        if let target = error.target {
            writer.raw(",\"target\":")
            writer.string(target)
        }
        writer.raw("}")
    }
}
