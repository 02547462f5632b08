import Foundation
import RxWidgets

/// Turns a widget tree's change records into patch changes.
public enum ChangeSet {
    /// One ``PatchChange`` per record, in order. A list's `items` become keyed operations
    /// (``ListRow/changes(from:to:)``) unless the full array encodes smaller (or the rows
    /// have duplicate ids).
    public static func patchChanges(_ changes: [WidgetChange]) -> [PatchChange] {
        var result: [PatchChange] = []
        result.reserveCapacity(changes.count)
        for change in changes {
            result.append(patchChange(change))
        }
        return result
    }

    /// The patch change for one record.
    public static func patchChange(_ change: WidgetChange) -> PatchChange {
        if case .rows(let new) = change.value, case .rows(let old) = change.oldValue,
           let ops = ListRow.changes(from: old, to: new) {
            var opsWriter = JSONWriter()
            MessageEncoder.write(ops, to: &opsWriter)
            var fullWriter = JSONWriter()
            fullWriter.rows(new)
            if opsWriter.text.utf8.count < fullWriter.text.utf8.count {
                return PatchChange(target: change.widgetID, prop: change.property, update: .ops(ops))
            }
        }
        return PatchChange(target: change.widgetID, prop: change.property, update: .value(change.value))
    }

    /// Whether the value a client sent is what the widget now holds (so the client need
    /// not be told): equal numbers, strings, Booleans; a date string naming the same
    /// instant (to the millisecond); `null` for an empty text.
    public static func sameValue(sent: WidgetValue, applied: WidgetValue) -> Bool {
        switch (sent, applied) {
        case (.string(let text), .date(let date)):
            guard let parsed = ISO8601.date(from: text) else { return false }
            return abs(parsed.timeIntervalSince(date)) < 0.001
        case (.null, .string(let text)):
            return text.isEmpty
        default:
            return sent == applied
        }
    }
}
