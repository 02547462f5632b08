/// Why an ``Action`` did not deliver, as in RxSwiftCommunity/Action.
public enum ActionError: Error {
    /// The action was disabled (its `enabledIf` was false, or it was already executing)
    /// when an input arrived; nothing ran.
    case notEnabled
    /// The work failed with this error.
    case underlyingError(Error)
}
