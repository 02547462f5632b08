import Foundation

/// A file picker, as `UIDocumentPickerViewController` (and `UIImagePickerController` for
/// images): in the browser a file input and a drop target. Picked files go up in chunks
/// and arrive whole through `rx.didPickDocuments`; `rx.progress` reports bytes as they come,
/// `rx.didCancel` a cancelled pick, `rx.uploadDidFail` a refused or aborted upload.
///
/// ```swift
/// let picker = DocumentPicker(allowedContentTypes: ["image/*", "text/plain"])
/// picker.maxFileSize = 1 << 20
/// picker.rx.didPickDocuments
///     .subscribe(onNext: { files in model.add(files) })
///     .disposed(by: disposeBag)
/// ```
///
/// The server holds a file's bytes only while it uploads (and until the pick's last file
/// is in); they are freed on completion, cancel, error, the client's disconnect and the
/// session's end. Loop-confined, like every widget.
open class DocumentPicker: Control {
    /// What the picker accepts: MIME types (`image/png`), wildcards (`image/*`) or file
    /// extensions (`.txt`) — the HTML `accept` forms; UIKit's `UTType`s name the same
    /// things. Empty (the default): anything.
    public var allowedContentTypes: [String] {
        didSet {
            if allowedContentTypes != oldValue {
                changed(DocumentPickerProperty.allowedContentTypes, .strings(oldValue), .strings(allowedContentTypes))
            }
        }
    }

    /// Whether the user may pick several files at once (UIKit's name). Default `false`.
    public var allowsMultipleSelection: Bool = false {
        didSet {
            if allowsMultipleSelection != oldValue {
                changed(DocumentPickerProperty.allowsMultipleSelection, .bool(oldValue), .bool(allowsMultipleSelection))
            }
        }
    }

    /// The largest file in bytes; nil (the default): the server's cap
    /// (`--max-upload-size`). The smaller of the two applies.
    public var maxFileSize: Int? {
        didSet {
            if maxFileSize != oldValue {
                changed(DocumentPickerProperty.maxFileSize, Self.value(oldValue), Self.value(maxFileSize))
            }
        }
    }

    /// Uploads one picker takes at once; one more is refused (`rate-limited`).
    public static let maxConcurrentUploads = 4

    let pickHub = EventHub<[PickedFile]>()
    let progressHub = EventHub<UploadProgress>()
    let cancelHub = EventHub<Void>()
    let failureHub = EventHub<UploadError>()

    /// A file on its way up.
    struct Upload {
        let name: String
        let contentType: String
        let size: Int
        let last: Bool
        let owner: ObjectIdentifier?
        var data = Data()
    }

    /// Uploads in progress, by id.
    var uploads: [String: Upload] = [:]
    /// The current pick's files that are in, waiting for its last one.
    var picked: [PickedFile] = []

    /// A picker that accepts `allowedContentTypes` (empty: anything).
    public init(allowedContentTypes: [String] = []) {
        self.allowedContentTypes = allowedContentTypes
        super.init(frame: .zero)
    }

    /// UIKit's archive initializer: Bindery has no archives, so this is the plain view.
    public required convenience init?(coder: NSCoder) {
        self.init(allowedContentTypes: [])
    }

    override public var kind: String { "documentPicker" }

    /// None: a picker's input arrives as uploads, not control events.
    override public var userEvents: Event { [] }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[DocumentPickerProperty.allowedContentTypes] = .strings(allowedContentTypes)
        properties[DocumentPickerProperty.allowsMultipleSelection] = .bool(allowsMultipleSelection)
        properties[DocumentPickerProperty.maxFileSize] = Self.value(maxFileSize)
    }

    private static func value(_ size: Int?) -> WidgetValue {
        size.map { .number(Double($0)) } ?? .null
    }

    /// Bytes held for uploads in progress and for the current pick's finished files.
    public var bufferedByteCount: Int {
        uploads.values.reduce(0) { $0 + $1.data.count } + picked.reduce(0) { $0 + $1.size }
    }

    /// The ids of the uploads in progress.
    public var uploadsInProgress: [String] { uploads.keys.sorted() }
}

enum DocumentPickerProperty {
    static let allowedContentTypes = "allowedContentTypes"
    static let allowsMultipleSelection = "allowsMultipleSelection"
    static let maxFileSize = "maxFileSize"
}
