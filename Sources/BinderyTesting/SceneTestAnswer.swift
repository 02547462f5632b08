import RxWidgets

/// One property change as the wire protocol sends it: `{"target", "prop", "value"}`.
public struct SceneTestChange: Equatable, Sendable, CustomStringConvertible {
    /// The widget's id.
    public let target: String
    /// The property's name (`text`, `backgroundColor`, ...).
    public let prop: String
    /// The new value.
    public let value: WidgetValue

    /// A change.
    public init(target: String, prop: String, value: WidgetValue) {
        self.target = target
        self.prop = prop
        self.value = value
    }

    /// `target.prop = value` (`canvas.backgroundColor = #404040ff`), short to compare.
    public var description: String { "\(target).\(prop) = \(value)" }
}

/// One `patch` message a client received: the answer to its event (with `ack`) or
/// changes it did not cause (timers, other clients; no `ack`).
public struct SceneTestPatch: Equatable, Sendable, CustomStringConvertible {
    /// The `seq` of the event this answers, or `nil` for a patch the server pushed.
    public let ack: Int?
    /// The changes, in the order properties first changed.
    public let changes: [SceneTestChange]

    /// A patch.
    public init(ack: Int?, changes: [SceneTestChange]) {
        self.ack = ack
        self.changes = changes
    }

    /// `ack 3: [a.text = "x"]` or `push: [...]`.
    public var description: String {
        "\(ack.map { "ack \($0)" } ?? "push"): \(changes.map(\.description))"
    }
}

/// The server's one answer to an event: a patch (possibly empty) or an error.
public enum SceneTestAnswer: Equatable, Sendable, CustomStringConvertible {
    /// The changes the event caused, minus the sender's own value (the client already
    /// shows it) unless a binding or a clamp changed it.
    case patch([SceneTestChange])
    /// The event was refused (or a binding failed); the session goes on.
    case error(code: String, message: String)

    /// The changes of a patch; empty for an error.
    public var changes: [SceneTestChange] {
        if case .patch(let changes) = self { return changes }
        return []
    }

    /// The changes as `target.prop = value` strings.
    public var changeDescriptions: [String] { changes.map(\.description) }

    /// The error code (`unknown-target`, `bad-value`, `disabled`, ...), or `nil` for a
    /// patch.
    public var errorCode: String? {
        if case .error(let code, _) = self { return code }
        return nil
    }

    /// `patch [...]` or `error code: message`.
    public var description: String {
        switch self {
        case .patch(let changes): return "patch \(changes.map(\.description))"
        case .error(let code, let message): return "error \(code): \(message)"
        }
    }
}

/// The wire protocol's error codes that an event can get in-process.
public enum SceneTestErrorCode {
    /// No widget with that id.
    public static let unknownTarget = "unknown-target"
    /// The widget does not send that event (or it is not a `Control.Event` name).
    public static let unknownEvent = "unknown-event"
    /// The value has the wrong type or is out of range.
    public static let badValue = "bad-value"
    /// The control is disabled.
    public static let disabled = "disabled"
    /// A binding failed while handling the event.
    public static let bindingFailed = "binding-failed"
}
