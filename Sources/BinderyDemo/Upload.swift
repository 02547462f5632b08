import Bindery
import Foundation
import RxCore
import RxWidgets

/// A file the `upload` scene received: what its table shows.
public struct UploadedFile: Equatable, Sendable {
    /// The file's name.
    public let name: String
    /// Its MIME type.
    public let contentType: String
    /// Its size in bytes.
    public let size: Int
    /// For a text file, its first line (at most 80 characters); else nil.
    public let firstLine: String?
    /// For a small image (≤ 256 KiB), a `data:` URL of it, shown as a thumbnail; else nil.
    public let thumbnail: Image?

    /// Summarises `file` (the bytes are not kept).
    public init(_ file: PickedFile) {
        name = file.name
        contentType = file.contentType
        size = file.size
        if file.contentType.hasPrefix("text/") || file.contentType == "application/json" {
            let text = String(decoding: file.data.prefix(4096), as: UTF8.self)
            let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            firstLine = String(line.prefix(80))
        } else {
            firstLine = nil
        }
        if file.contentType.hasPrefix("image/"), file.size <= 256 << 10,
           let url = URL(string: "data:\(file.contentType);base64,\(file.data.base64EncodedString())") {
            thumbnail = Image(url: url)
        } else {
            thumbnail = nil
        }
    }

    /// `text/plain · 1.2 KiB · "first line"`: the row's detail text.
    public var summary: String {
        var parts = [contentType, UploadViewController.formatted(size)]
        if let firstLine { parts.append("“\(firstLine)”") }
        return parts.joined(separator: " · ")
    }
}

/// The `upload` scene (issue 12's upload): pick or drop files, watch them go up, and see
/// each in a table (name, type, size, a text file's first line, an image's thumbnail).
/// Files over 1 MiB are refused with a clear error before their bytes are sent.
public final class UploadViewController: ViewController, Scene {
    /// The file input and drop target.
    public let picker = DocumentPicker()
    /// The current file's progress.
    public let progressView = ProgressView()
    /// "Uploading notes.txt: 32 KiB of 100 KiB", "2 files received", or the error.
    public let statusLabel = Label()
    /// The files received, newest last.
    public let filesTable = TableView()

    /// The largest file this scene takes.
    public static let maxFileSize = 1 << 20

    /// What was received (public for tests).
    public let files = BehaviorRelay<[UploadedFile]>(value: [])
    private let bag = DisposeBag()

    /// An empty scene.
    override public init() {
        super.init()
    }

    /// The scene's widgets under their contract ids, in display order.
    public var sceneWidgets: [(id: String, widget: View)] {
        [("picker", picker), ("progress", progressView), ("status", statusLabel), ("files", filesTable)]
    }

    /// The picker over its progress and status, then the table.
    public var sceneLayout: SceneLayout? {
        .column([.widget("picker", caption: "Files"), .widget("progress", caption: "Progress"), .widget("status"),
                 .widget("files", caption: "Received")])
    }

    /// Binds the picker's progress, picks, cancels and failures to the bar, the status
    /// line and the table.
    override public func viewDidLoad() {
        super.viewDidLoad()
        picker.allowsMultipleSelection = true
        picker.maxFileSize = Self.maxFileSize
        picker.accessibilityLabel = "Files to upload"
        filesTable.accessibilityLabel = "Received files"
        filesTable.allowsSelection = false
        statusLabel.text = "Choose files or drop them here (up to \(Self.formatted(Self.maxFileSize)) each)."

        picker.rx.progress
            .map { Float($0.fractionCompleted) }
            .bind(to: progressView.rx.progress)
            .disposed(by: bag)
        picker.rx.progress
            .filter { !$0.isFinished }
            .map { "Uploading \($0.fileName): \(Self.formatted($0.completedUnitCount)) of \(Self.formatted($0.totalUnitCount))" }
            .bind(to: statusLabel.rx.text)
            .disposed(by: bag)
        picker.rx.didPickDocuments
            .map { [files] picked in files.value + picked.map(UploadedFile.init) }
            .bind(to: files)
            .disposed(by: bag)
        picker.rx.didPickDocuments
            .map { $0.count == 1 ? "Received \($0[0].name)." : "Received \($0.count) files." }
            .bind(to: statusLabel.rx.text)
            .disposed(by: bag)
        picker.rx.didCancel
            .map { "Upload cancelled." }
            .bind(to: statusLabel.rx.text)
            .disposed(by: bag)
        picker.rx.uploadDidFail
            .map { "Not uploaded: \($0.message)" }
            .bind(to: statusLabel.rx.text)
            .disposed(by: bag)
        Observable.merge(picker.rx.didCancel.map { Float(0) }, picker.rx.uploadDidFail.map { _ in Float(0) })
            .bind(to: progressView.rx.progress)
            .disposed(by: bag)

        files
            .bind(to: filesTable.rx.items) { tableView, _, file in
                let cell = TableViewCell(style: .subtitle, reuseIdentifier: nil)
                cell.textLabel?.text = file.name
                cell.detailTextLabel?.text = file.summary
                cell.imageView?.image = file.thumbnail
                return cell
            }
            .disposed(by: bag)
    }

    /// `512 bytes`, `12.5 KiB`, `1.0 MiB`.
    public static func formatted(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        if bytes < 1 << 20 { return String(format: "%.1f KiB", Double(bytes) / 1024) }
        return String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
    }
}
