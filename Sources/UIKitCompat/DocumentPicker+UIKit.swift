import RxWidgets

extension DocumentPicker {
    /// UIKit's initializer, with content types as MIME types, wildcards or extensions
    /// (`"image/*"`, `"text/plain"`, `".csv"`) where UIKit takes `UTType`s. `asCopy` is
    /// always true here: the server gets the bytes, never a file of the user's.
    public convenience init(forOpeningContentTypes contentTypes: [String], asCopy: Bool = true) {
        self.init(allowedContentTypes: contentTypes)
    }
}
