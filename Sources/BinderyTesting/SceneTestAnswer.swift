import Bindery
import RxWidgets

/// The server's one answer to an event: a `patch` carrying the event's `seq` as `ack`
/// (possibly with no changes), or an `error`.
public enum SceneTestAnswer: Equatable, Sendable, CustomStringConvertible {
    /// The changes the event caused, minus the sender's own value (the client already
    /// shows it) unless a binding or a clamp changed it.
    case patch(PatchMessage)
    /// The event was refused, or a binding failed; the session goes on.
    case error(ErrorMessage)
    /// No answer came: the client is closed or the session ended.
    case noAnswer

    /// The changes of a patch; empty otherwise.
    public var changes: [PatchChange] {
        if case .patch(let patch) = self { return patch.changes }
        return []
    }

    /// The changes as short strings (`canvas.backgroundColor = #404040ff`), to compare.
    public var changeDescriptions: [String] { changes.map(\.testDescription) }

    /// The error's code (`unknown-target`, `bad-value`, `disabled`, ...), or `nil`.
    public var errorCode: String? {
        if case .error(let error) = self { return error.code.rawValue }
        return nil
    }

    /// `patch ack 3 [...]`, `error disabled: ...` or `no answer`.
    public var description: String {
        switch self {
        case .patch(let patch): return patch.testDescription
        case .error(let error): return "error \(error.code.rawValue): \(error.message)"
        case .noAnswer: return "no answer"
        }
    }
}

extension PatchChange {
    /// `target.prop = value`, or `target.prop ops [insert 20 rows at 20]` for keyed list
    /// operations: short and readable in test failures.
    public var testDescription: String {
        switch update {
        case .value(let value): return "\(target).\(prop) = \(value)"
        case .ops(let ops): return "\(target).\(prop) ops \(ops.map(Self.describe))"
        }
    }

    private static func describe(_ change: ListChange) -> String {
        switch change {
        case .insert(let index, let rows): return "insert \(rows.count) rows at \(index)"
        case .remove(let index, let count): return "remove \(count) at \(index)"
        case .update(let index, let row): return "update \(index) (\(row.id))"
        case .move(let from, let to): return "move \(from) to \(to)"
        }
    }
}

extension PatchMessage {
    /// `patch ack 3 [...]` or `patch push [...]` (no `ack`: not caused by this client).
    public var testDescription: String {
        "patch \(ack.map { "ack \($0)" } ?? "push") \(changes.map(\.testDescription))"
    }
}
