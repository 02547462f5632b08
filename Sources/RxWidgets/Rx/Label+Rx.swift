import RxCore

extension Reactive where Base: Label {
    /// The label's text.
    public var text: Binder<String?> {
        Binder(base) { label, text in
            label.text = text
        }
    }

    /// The label's text colour (`nil` restores black).
    public var textColor: Binder<Color?> {
        Binder(base) { label, color in
            label.textColor = color
        }
    }
}
