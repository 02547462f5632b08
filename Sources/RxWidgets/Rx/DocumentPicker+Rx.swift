import RxCore

extension Reactive where Base: DocumentPicker {
    /// The files of each pick, once every byte is in (UIKit's
    /// `documentPicker(_:didPickDocumentsAt:)`, with the contents instead of URLs; RxExample's
    /// `didFinishPickingMediaWithInfo` for images).
    public var didPickDocuments: ControlEvent<[PickedFile]> {
        hubEvent(\.pickHub)
    }

    /// Each file's bytes as they arrive: `0` when its upload begins, then after each chunk.
    public var progress: ControlEvent<UploadProgress> {
        hubEvent(\.progressHub)
    }

    /// The user cancelled a pick (RxExample's image picker's name).
    public var didCancel: ControlEvent<Void> {
        hubEvent(\.cancelHub)
    }

    /// The user cancelled a pick (UIKit's delegate name; same as ``didCancel``).
    public var documentPickerWasCancelled: ControlEvent<Void> {
        didCancel
    }

    /// An upload was refused or stopped: too large, aborted, out of order, not an
    /// allowed type. Its bytes are gone.
    public var uploadDidFail: ControlEvent<UploadError> {
        hubEvent(\.failureHub)
    }
}
