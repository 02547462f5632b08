import RxCore

extension Reactive where Base: TextView {
    /// The text, as RxCocoa's: the current text on subscription, then after each edit.
    /// Writing the text it has does nothing.
    public var text: ControlProperty<String?> {
        value
    }

    /// The text (same as ``text``).
    public var value: ControlProperty<String?> {
        controlProperty(
            editingEvents: [.editingChanged],
            getter: { textView in textView.text },
            setter: { textView, value in
                if textView.text != value { textView.text = value }
            })
    }

    /// Editing began (it got focus).
    public var didBeginEditing: ControlEvent<Void> {
        controlEvent(.editingDidBegin)
    }

    /// Editing ended (it lost focus).
    public var didEndEditing: ControlEvent<Void> {
        controlEvent(.editingDidEnd)
    }

    /// The user changed the text.
    public var didChange: ControlEvent<Void> {
        controlEvent(.editingChanged)
    }
}
