/// A view model told when one of its ``SubjectProperty`` values changes, whoever changed
/// it (itself or a view through `$property`). Set it as the property's `delegate` and
/// give each property a `key`.
public protocol BindableObject: AnyObject {
    /// The property with `key` has a new value.
    func didChanged(key: AnyHashable)
}
