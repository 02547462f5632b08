import Bindery
import Foundation
import RxCore
import RxWidgets

/// A photo in the `gallery` scene: its title is its identity (the item's key).
public struct GalleryPhoto: IdentifiableType, Equatable, Sendable {
    /// "Sunset" (unique in the gallery).
    public let title: String
    /// What the (drawn) picture shows.
    public let motif: Motif
    /// The sky's colour.
    public let color: Color

    /// The shapes a picture is drawn with.
    public enum Motif: String, Sendable {
        /// A sun over the sea.
        case sun
        /// Waves.
        case sea
        /// A peak.
        case peak
        /// Towers.
        case city
    }

    /// A photo.
    public init(title: String, motif: Motif, color: Color) {
        self.title = title
        self.motif = motif
        self.color = color
    }

    /// The title.
    public var identity: String { title }

    /// The picture: a small SVG drawn from the motif and colour, as a `data:` URL.
    public var image: Image {
        let sky = color.hexString.prefix(7)
        let shape: String
        switch motif {
        case .sun: shape = "<circle cx='60' cy='52' r='18' fill='#ffb347'/><rect y='62' width='120' height='34' fill='#3a8dde'/>"
        case .sea: shape = "<path d='M0 60 Q15 50 30 60 T60 60 T90 60 T120 60 V96 H0Z' fill='#2f7fc1'/>"
        case .peak: shape = "<path d='M0 96 L45 30 L70 62 L85 45 L120 96Z' fill='#5b6b7c'/><path d='M45 30 L55 45 L35 45Z' fill='#fff'/>"
        case .city: shape = "<rect x='10' y='40' width='20' height='56' fill='#44475a'/><rect x='38' y='25' width='24' height='71' fill='#5a5d73'/><rect x='70' y='50' width='18' height='46' fill='#44475a'/><rect x='94' y='35' width='16' height='61' fill='#5a5d73'/>"
        }
        let svg = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 120 96'><rect width='120' height='96' fill='\(sky)'/>\(shape)</svg>"
        let encoded = svg.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return Image(url: URL(string: "data:image/svg+xml,\(encoded)")!)
    }
}

/// An album: one page of the gallery, one animatable section of the grid.
public typealias GalleryAlbum = AnimatableSectionModel<String, GalleryPhoto>

/// The `gallery` scene (issue 12's collection view, refresh, pages, swipes and focus):
/// a grid of photos, one album per page; the dots or a swipe turn the page, Refresh
/// adds the album's next photo, a tap selects a photo, Alt+←/→ moves it, and Rename
/// moves the focus to the caption field (Return renames it and ends editing).
public final class GalleryViewController: ViewController, Scene {
    /// The album's photos, a grid.
    public let photoGrid: CollectionView
    /// One dot per album.
    public let albumPages = PageControl()
    /// "Beach · 4 photos".
    public let albumLabel = Label()
    /// "Selected: Sunset" or a hint.
    public let selectionLabel = Label()
    /// The selected photo's new title.
    public let captionField = TextField()
    /// Focuses the caption field.
    public let renameButton = Button()
    /// Ends editing (`view.endEditing(true)`).
    public let doneButton = Button()
    /// Pull (or the Refresh button) adds a photo.
    public let refresh = RefreshControl()
    /// Swipe left: the next album.
    public let swipeLeft = SwipeGestureRecognizer()
    /// Swipe right: the previous album.
    public let swipeRight = SwipeGestureRecognizer()

    /// The albums (the model); the grid shows `albums[page]`.
    public let albums = BehaviorRelay(value: GalleryViewController.initialAlbums)
    /// The album shown.
    public let page = BehaviorRelay(value: 0)
    private let selected = BehaviorRelay<GalleryPhoto?>(value: nil)
    private let scheduler: SchedulerType
    private let bag = DisposeBag()

    /// How long a refresh takes (virtual time in tests).
    public static let refreshDelay: RxTimeInterval = .milliseconds(600)

    /// The albums as the page opens.
    public static var initialAlbums: [GalleryAlbum] { [
        GalleryAlbum(model: "Beach", items: [
            GalleryPhoto(title: "Sunset", motif: .sun, color: Color(red: 1, green: 0.78, blue: 0.55, alpha: 1)),
            GalleryPhoto(title: "Shells", motif: .sea, color: Color(red: 0.98, green: 0.9, blue: 0.8, alpha: 1)),
            GalleryPhoto(title: "Waves", motif: .sea, color: Color(red: 0.6, green: 0.82, blue: 0.98, alpha: 1)),
            GalleryPhoto(title: "Palm", motif: .sun, color: Color(red: 0.7, green: 0.9, blue: 0.7, alpha: 1)),
        ]),
        GalleryAlbum(model: "Mountains", items: [
            GalleryPhoto(title: "Summit", motif: .peak, color: Color(red: 0.85, green: 0.9, blue: 0.98, alpha: 1)),
            GalleryPhoto(title: "Camp", motif: .peak, color: Color(red: 0.8, green: 0.9, blue: 0.75, alpha: 1)),
            GalleryPhoto(title: "Lake", motif: .peak, color: Color(red: 0.7, green: 0.85, blue: 0.9, alpha: 1)),
        ]),
        GalleryAlbum(model: "City", items: [
            GalleryPhoto(title: "Skyline", motif: .city, color: Color(red: 0.95, green: 0.8, blue: 0.85, alpha: 1)),
            GalleryPhoto(title: "Tram", motif: .city, color: Color(red: 1, green: 0.92, blue: 0.6, alpha: 1)),
        ]),
    ] }

    /// What Refresh adds to each album, in turn.
    static let newPhotos: [String: [String]] = [
        "Beach": ["Boat", "Crab", "Kite"],
        "Mountains": ["Goat", "Snow", "Trail"],
        "City": ["Cafe", "Bridge", "Museum"],
    ]
    static let motifs: [String: GalleryPhoto.Motif] = ["Beach": .sea, "Mountains": .peak, "City": .city]

    /// The gallery on `scheduler` (the main loop's in the app, virtual time in tests).
    public init(scheduler: SchedulerType) {
        self.scheduler = scheduler
        let layout = CollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 120, height: 96)
        layout.minimumInteritemSpacing = 8
        layout.minimumLineSpacing = 8
        layout.headerReferenceSize = CGSize(width: 0, height: 28)
        photoGrid = CollectionView(frame: .zero, collectionViewLayout: layout)
        super.init()
    }

    /// The widgets, under the ids in docs/Demo.md.
    public var sceneWidgets: [(id: String, widget: View)] {
        [("albumLabel", albumLabel), ("photoGrid", photoGrid), ("albumPages", albumPages),
         ("selectionLabel", selectionLabel), ("captionField", captionField),
         ("renameButton", renameButton), ("doneButton", doneButton)]
    }

    /// The grid, its dots under it, then the caption row.
    public var sceneLayout: SceneLayout? {
        .column([.widget("albumLabel"), .widget("photoGrid"), .widget("albumPages"), .widget("selectionLabel"),
                 .row([.widget("captionField", caption: "New title"), .widget("renameButton"), .widget("doneButton")])])
    }

    /// Binds the grid, the pages, the swipes, the refresh and the caption.
    override public func viewDidLoad() {
        super.viewDidLoad()
        photoGrid.accessibilityLabel = "Photos"
        albumPages.accessibilityLabel = "Albums"
        albumPages.numberOfPages = albums.value.count
        renameButton.setTitle("Rename", for: .normal)
        doneButton.setTitle("Done", for: .normal)
        captionField.placeholder = "Select a photo, then Rename"
        photoGrid.refreshControl = refresh
        swipeLeft.direction = .left
        swipeRight.direction = .right
        photoGrid.addGestureRecognizer(swipeLeft)
        photoGrid.addGestureRecognizer(swipeRight)

        let dataSource = RxCollectionViewSectionedAnimatedDataSource<GalleryAlbum>(
            configureCell: { _, _, _, photo in
                let cell = CollectionViewCell(reuseIdentifier: "Photo")
                cell.textLabel.text = photo.title
                cell.imageView.image = photo.image
                cell.backgroundColor = photo.color
                return cell
            },
            configureSupplementaryView: { dataSource, _, kind, indexPath in
                guard kind == CollectionView.elementKindSectionHeader else { return nil }
                let header = CollectionReusableView(reuseIdentifier: "Album")
                header.textLabel.text = dataSource[indexPath.section].model
                return header
            },
            canMoveItemAtIndexPath: { _, _ in true })
        let shown = Observable.combineLatest(albums.asObservable(), page.asObservable()) { albums, page in
            [albums[min(page, albums.count - 1)]]
        }.share(replay: 1)
        shown.bind(to: photoGrid.rx.items(dataSource: dataSource)).disposed(by: bag)
        shown.map { albums in
            let album = albums[0]
            return "\(album.model) · \(album.items.count) photo\(album.items.count == 1 ? "" : "s")"
        }
        .bind(to: albumLabel.rx.text).disposed(by: bag)

        // Pages: the dots, and swipes (left = next, as turning a page).
        page.bind(to: albumPages.rx.currentPage).disposed(by: bag)
        albumPages.rx.controlEvent(.valueChanged)
            .map { [albumPages] in albumPages.currentPage }
            .bind(to: page).disposed(by: bag)
        let count = albums.value.count
        swipeLeft.rx.event.map { [page] _ in min(page.value + 1, count - 1) }.bind(to: page).disposed(by: bag)
        swipeRight.rx.event.map { [page] _ in max(page.value - 1, 0) }.bind(to: page).disposed(by: bag)
        page.distinctUntilChanged().skip(1).map { _ in nil }.bind(to: selected).disposed(by: bag)

        // Refresh: the album's next photo arrives after a moment, at the front.
        refresh.rx.controlEvent(.valueChanged)
            .flatMapLatest { [scheduler] in Observable.just(()).delay(Self.refreshDelay, scheduler: scheduler) }
            .subscribe(onNext: { [unowned self] in
                self.addPhoto()
                self.refresh.endRefreshing()
            })
            .disposed(by: bag)

        // Reordering (Alt+←/→ in the browser): the grid moved its item; the model follows.
        photoGrid.rx.itemMoved
            .subscribe(onNext: { [unowned self] event in
                var all = self.albums.value
                let index = min(self.page.value, all.count - 1)
                let photo = all[index].items.remove(at: event.sourceIndex.item)
                all[index].items.insert(photo, at: event.destinationIndex.item)
                self.albums.accept(all)
            })
            .disposed(by: bag)

        // Selection and the caption.
        photoGrid.rx.modelSelected(GalleryPhoto.self).map(Optional.some).bind(to: selected).disposed(by: bag)
        selected.map { $0.map { "Selected: \($0.title)" } ?? "Tap a photo to select it." }
            .bind(to: selectionLabel.rx.text).disposed(by: bag)
        selected.map { $0 != nil }.bind(to: renameButton.rx.isEnabled).disposed(by: bag)
        renameButton.rx.tap
            .subscribe(onNext: { [unowned self] in
                self.captionField.text = self.selected.value?.title
                self.captionField.becomeFirstResponder()
            })
            .disposed(by: bag)
        captionField.rx.controlEvent(.editingDidEndOnExit)
            .subscribe(onNext: { [unowned self] in
                self.rename(to: self.captionField.text ?? "")
                self.view.endEditing(true)
            })
            .disposed(by: bag)
        doneButton.rx.tap
            .subscribe(onNext: { [unowned self] in self.view.endEditing(true) })
            .disposed(by: bag)
    }

    private func addPhoto() {
        var all = albums.value
        let index = min(page.value, all.count - 1)
        let name = all[index].model
        let taken = Set(all.flatMap(\.items).map(\.title))
        guard let next = (Self.newPhotos[name] ?? []).first(where: { !taken.contains($0) }) else { return }
        let hue = Double(all[index].items.count % 5) / 5
        all[index].items.insert(GalleryPhoto(title: next, motif: Self.motifs[name] ?? .sun,
                                             color: Color(red: 0.75 + hue / 4, green: 0.85, blue: 1 - hue / 4, alpha: 1)),
                                at: 0)
        albums.accept(all)
    }

    private func rename(to title: String) {
        let title = title.trimmingCharacters(in: .whitespaces)
        guard let photo = selected.value, !title.isEmpty, title != photo.title else { return }
        var all = albums.value
        guard !all.flatMap(\.items).contains(where: { $0.title == title }) else {
            selectionLabel.text = "“\(title)” is taken."
            return
        }
        for section in all.indices {
            if let item = all[section].items.firstIndex(of: photo) {
                let renamed = GalleryPhoto(title: title, motif: photo.motif, color: photo.color)
                all[section].items[item] = renamed
                albums.accept(all)
                selected.accept(renamed)
                captionField.text = ""
                return
            }
        }
    }
}
