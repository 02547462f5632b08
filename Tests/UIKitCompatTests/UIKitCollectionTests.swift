import RxTesting
import UIKitCompat
import XCTest

// RxCocoa / RxDataSources collection, refresh, page, swipe and responder code as written
// for iOS, with `import UIKitCompat`.

private struct Photo: IdentifiableType, Equatable {
    let title: String
    var identity: String { title }
}

private final class PhotoCell: UICollectionViewCell {
    func configure(with photo: Photo) {
        textLabel.text = photo.title
    }
}

private final class AlbumViewController: UIViewController {
    let bag = DisposeBag()
    let collectionView: UICollectionView
    let refreshControl = UIRefreshControl()
    let pageControl = UIPageControl()
    let searchField = UITextField()
    let titleLabel = UILabel()
    let swipe = UISwipeGestureRecognizer()
    let albums = BehaviorRelay(value: [
        AnimatableSectionModel(model: "Summer", items: [Photo(title: "Beach"), Photo(title: "Boat")]),
        AnimatableSectionModel(model: "Winter", items: [Photo(title: "Snow")]),
    ])

    override init() {
        let layout = UICollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 100, height: 100)
        layout.minimumInteritemSpacing = 4
        layout.headerReferenceSize = CGSize(width: 0, height: 30)
        collectionView = UICollectionView(frame: .zero, collectionViewLayout: layout)
        super.init()
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        collectionView.register(PhotoCell.self, forCellWithReuseIdentifier: "Photo")
        collectionView.register(UICollectionReusableView.self,
                                forSupplementaryViewOfKind: UICollectionView.elementKindSectionHeader,
                                withReuseIdentifier: "Header")
        let dataSource = RxCollectionViewSectionedAnimatedDataSource<AnimatableSectionModel<String, Photo>>(
            configureCell: { _, collectionView, indexPath, photo in
                let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "Photo", for: indexPath) as! PhotoCell
                cell.configure(with: photo)
                return cell
            },
            configureSupplementaryView: { dataSource, collectionView, kind, indexPath in
                let header = collectionView.dequeueReusableSupplementaryView(ofKind: kind, withReuseIdentifier: "Header", for: indexPath)
                header.textLabel.text = dataSource[indexPath.section].model
                return header
            })
        albums.bind(to: collectionView.rx.items(dataSource: dataSource)).disposed(by: bag)
        collectionView.rx.modelSelected(Photo.self).map(\.title).bind(to: titleLabel.rx.text).disposed(by: bag)

        collectionView.refreshControl = refreshControl
        refreshControl.rx.controlEvent(.valueChanged)
            .subscribe(onNext: { [unowned self] in
                var value = self.albums.value
                value[0].items.append(Photo(title: "Sunset"))
                self.albums.accept(value)
            })
            .disposed(by: bag)
        refreshControl.rx.controlEvent(.valueChanged).map { false }
            .bind(to: refreshControl.rx.isRefreshing).disposed(by: bag)

        pageControl.numberOfPages = 2
        swipe.direction = .left
        collectionView.addGestureRecognizer(swipe)
        swipe.rx.event.map { [pageControl] _ in pageControl.currentPage + 1 }
            .bind(to: pageControl.rx.currentPage).disposed(by: bag)

        pageControl.rx.controlEvent(.valueChanged)
            .subscribe(onNext: { [unowned self] in self.searchField.becomeFirstResponder() })
            .disposed(by: bag)
    }
}

final class UIKitCollectionTests: XCTestCase {
    func testCollectionRefreshPagesSwipesAndFocusWithUIKitNames() throws {
        let controller = AlbumViewController()
        controller.loadViewIfNeeded()
        let collectionView = controller.collectionView
        XCTAssertEqual(collectionView.numberOfSections, 2)
        XCTAssertEqual(collectionView.numberOfItems(inSection: 0), 2)
        XCTAssertEqual(collectionView.sectionRows.map { $0["header"] }, [.string("Summer"), .string("Winter")])
        XCTAssertEqual(collectionView.snapshot()["itemWidth"], .number(100))

        try collectionView.receive(WidgetEvent(name: "itemSelected", row: "Snow"))
        XCTAssertEqual(controller.titleLabel.text, "Snow")
        XCTAssertEqual(collectionView.indexPathsForSelectedItems, [IndexPath(item: 0, section: 1)])

        try controller.refreshControl.sendUserEvent(.valueChanged)
        XCTAssertEqual(collectionView.rows.map(\.id), ["Beach", "Boat", "Sunset", "Snow"])
        XCTAssertFalse(controller.refreshControl.isRefreshing, "ended by the binding")
        XCTAssertEqual(collectionView.indexPathsForSelectedItems, [IndexPath(item: 0, section: 1)])

        try controller.swipe.receive(WidgetEvent(name: "recognized"))
        XCTAssertEqual(controller.pageControl.currentPage, 1)

        XCTAssertFalse(controller.searchField.isFirstResponder)
        try controller.pageControl.sendUserEvent(.valueChanged, value: .number(0))
        XCTAssertTrue(controller.searchField.isFirstResponder)
        XCTAssertTrue(controller.searchField.resignFirstResponder())
        XCTAssertFalse(controller.searchField.isFirstResponder)
    }

    func testArrayBindingWithACellIdentifier() {
        let collectionView = UICollectionView(frame: .zero, collectionViewLayout: UICollectionViewFlowLayout())
        collectionView.register(PhotoCell.self, forCellWithReuseIdentifier: "Photo")
        let bag = DisposeBag()
        Observable.just([Photo(title: "One"), Photo(title: "Two")])
            .bind(to: collectionView.rx.items(cellIdentifier: "Photo", cellType: PhotoCell.self)) { _, photo, cell in
                cell.configure(with: photo)
            }
            .disposed(by: bag)
        XCTAssertEqual(collectionView.rows.map { $0["text"] }, [.string("One"), .string("Two")])
        Observable.just([1, 2, 3])
            .bind(to: UICollectionView().rx.items) { collectionView, row, number in
                let cell = UICollectionViewCell()
                cell.textLabel.text = "\(row): \(number)"
                return cell
            }
            .disposed(by: bag)
    }
}
