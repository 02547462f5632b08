import RxWidgets

/// Widget snapshots and values outside a message: a shared scene's stored snapshot, a
/// compacted journal, and values compared by their JSON. Written as a `scene` message
/// writes them, so a mirror serves the same bytes the owner would.
extension MessageEncoder {
    /// `widgets` as a JSON array, as in a `scene` message's `widgets`.
    package static func encodeWidgets(_ widgets: [WidgetSnapshot]) -> String {
        var writer = JSONWriter(capacity: 256)
        write(widgets, to: &writer)
        return writer.text
    }

    /// `[{"id":…,"kind":…,"props":{…}},…]`.
    package static func write(_ widgets: [WidgetSnapshot], to writer: inout JSONWriter) {
        writer.raw("[")
        for (index, widget) in widgets.enumerated() {
            if index > 0 { writer.raw(",") }
            write(widget, to: &writer)
        }
        writer.raw("]")
    }

    /// `value`'s JSON: to compare values that went through the decoder's lossy reading
    /// (a colour comes back as its string).
    package static func encodeValue(_ value: WidgetValue) -> [UInt8] {
        var writer = JSONWriter(capacity: 32)
        writer.widgetValue(value)
        return writer.bytes
    }
}
