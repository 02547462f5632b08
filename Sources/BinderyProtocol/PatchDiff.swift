import Foundation
import RxWidgets

/// Turns a widget tree's change records into patch changes.
public enum PatchDiff {
    /// One ``PatchChange`` per record, in order. A list's `items` become keyed operations
    /// (``ListRow/changesWithFewestMoves(from:to:maximumMoves:)``) unless the full array encodes smaller (or the rows
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
        if case .rows = change.value, let ops = listChanges(change) {
            return PatchChange(target: change.widgetID, prop: change.property, update: .ops(ops))
        }
        return PatchChange(target: change.widgetID, prop: change.property, update: .value(change.value))
    }

    /// A list change as keyed operations, when they encode smaller than the full rows.
    private static func listChanges(_ change: WidgetChange) -> [ListChange]? {
        guard case .rows(let new) = change.value, case .rows(let old) = change.oldValue,
              // Fewest moves: one row dragged far is one move, not one per row it passed.
              let ops = ListRow.changesWithFewestMoves(from: old, to: new, maximumMoves: max(256, new.count / 8),
                                                       idsAreUnique: change.rowIDsAreUnique) else { return nil }
        var opsWriter = JSONWriter()
        MessageEncoder.write(ops, to: &opsWriter)
        return encodesLarger(new, than: opsWriter.bytes.count) ? ops : nil
    }

    /// Whether `rows` as a full array encode to more than `limit` bytes. Stops writing
    /// once past it, so one insert into a 10,000-row table does not encode all of them.
    static func encodesLarger(_ rows: [ListRow], than limit: Int) -> Bool {
        var writer = JSONWriter()
        writer.raw("[")
        for (index, row) in rows.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.row(row)
            if writer.bytes.count > limit { return true }
        }
        writer.raw("]")
        return writer.bytes.count > limit
    }

    /// Whether the value a client sent is what the widget now holds (so the client need
    /// not be told): equal numbers, strings, Booleans; a date string naming the same
    /// instant (to the millisecond); `null` for an empty text.
    public static func sameValue(sent: WidgetValue, applied: WidgetValue) -> Bool {
        // One value at a time: `switch (sent, applied)` copies both into a tuple.
        switch sent {
        case .string(let text):
            if case .date(let date) = applied {
                guard let parsed = ISO8601.date(from: text) else { return false }
                return abs(parsed.timeIntervalSince(date)) < 0.001
            }
        case .null:
            if case .string(let text) = applied { return text.isEmpty }
        default:
            break
        }
        return sent == applied
    }
}

