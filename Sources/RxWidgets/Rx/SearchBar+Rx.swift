import RxCore

extension Reactive where Base: SearchBar {
    /// The text, as RxCocoa's: the current text on subscription, then after each edit
    /// (`editingChanged`) and when editing ends. Writing the text it has does nothing.
    public var text: ControlProperty<String?> {
        value
    }

    /// The text (same as ``text``).
    public var value: ControlProperty<String?> {
        controlProperty(
            editingEvents: [.editingChanged, .editingDidEnd],
            getter: { searchBar in searchBar.text },
            setter: { searchBar, value in
                if searchBar.text != value { searchBar.text = value }
            })
    }

    /// Each press of the search button (Return).
    public var searchButtonClicked: ControlEvent<Void> {
        hubEvent(\.searchButtonHub)
    }

    /// Each press of the cancel button.
    public var cancelButtonClicked: ControlEvent<Void> {
        hubEvent(\.cancelButtonHub)
    }

    /// Editing began (the field got focus).
    public var textDidBeginEditing: ControlEvent<Void> {
        controlEvent(.editingDidBegin)
    }

    /// Editing ended (the field lost focus).
    public var textDidEndEditing: ControlEvent<Void> {
        controlEvent(.editingDidEnd)
    }
}
