// UIKit's names for Bindery's widgets, so code written for UIKit and RxCocoa compiles
// by changing its imports: `import UIKit`, `import RxSwift` and `import RxCocoa` become
// `import UIKitCompat` (which brings Foundation, RxCore and RxWidgets along).

@_exported import Foundation
@_exported import RxCore
@_exported import RxWidgets

/// `UIView` is ``View``.
public typealias UIView = View
/// `UIStackView` is ``StackView``.
public typealias UIStackView = StackView
/// `UILabel` is ``Label``.
public typealias UILabel = Label
/// `UIButton` is ``Button``.
public typealias UIButton = Button
/// `UITextField` is ``TextField``.
public typealias UITextField = TextField
/// `UISlider` is ``Slider``.
public typealias UISlider = Slider
/// `UISwitch` is ``Switch``.
public typealias UISwitch = Switch
/// `UISegmentedControl` is ``SegmentedControl``.
public typealias UISegmentedControl = SegmentedControl
/// `UIDatePicker` is ``DatePicker``.
public typealias UIDatePicker = DatePicker
/// `UIStepper` is ``Stepper``.
public typealias UIStepper = Stepper
/// `UIProgressView` is ``ProgressView``.
public typealias UIProgressView = ProgressView
/// `UIActivityIndicatorView` is ``ActivityIndicator``.
public typealias UIActivityIndicatorView = ActivityIndicator
/// `UIImageView` is ``ImageView``.
public typealias UIImageView = ImageView
/// `UIImage` is ``Image`` (a URL the client loads).
public typealias UIImage = Image
/// `UIControl` is ``Control`` (so `UIControl.Event` and `UIControl.State` work).
public typealias UIControl = Control
/// `UIColor` is ``Color``.
public typealias UIColor = Color
/// `UIViewController` is ``ViewController``.
public typealias UIViewController = ViewController
/// `UITextContentType` is ``TextContentType``.
public typealias UITextContentType = TextContentType
/// `UITableView` is ``TableView``.
public typealias UITableView = TableView
/// `UITableViewCell` is ``TableViewCell`` (with `CellStyle`, `AccessoryType`,
/// `SelectionStyle`, `EditingStyle`).
public typealias UITableViewCell = TableViewCell
/// `UITableViewDataSource` is ``TableViewDataSource``.
public typealias UITableViewDataSource = TableViewDataSource
/// `UIAlertController` is ``AlertController``.
public typealias UIAlertController = AlertController
/// `UIAlertAction` is ``AlertAction``.
public typealias UIAlertAction = AlertAction
/// `UINavigationController` is ``NavigationController``.
public typealias UINavigationController = NavigationController
/// `UINavigationItem` is ``NavigationItem``.
public typealias UINavigationItem = NavigationItem
/// `UIBarButtonItem` is ``BarButtonItem``.
public typealias UIBarButtonItem = BarButtonItem
/// `UISearchBar` is ``SearchBar``.
public typealias UISearchBar = SearchBar
/// `UITextView` is ``TextView``.
public typealias UITextView = TextView
/// `UIPickerView` is ``PickerView``.
public typealias UIPickerView = PickerView
/// `UIDocumentPickerViewController` is ``DocumentPicker`` (a file input and drop target in
/// the browser; the files arrive whole through `rx.didPickDocuments`).
public typealias UIDocumentPickerViewController = DocumentPicker
/// `UIGestureRecognizer` is ``GestureRecognizer``.
public typealias UIGestureRecognizer = GestureRecognizer
/// `UITapGestureRecognizer` is ``TapGestureRecognizer``.
public typealias UITapGestureRecognizer = TapGestureRecognizer
/// `UILongPressGestureRecognizer` is ``LongPressGestureRecognizer``.
public typealias UILongPressGestureRecognizer = LongPressGestureRecognizer
/// `UISwipeGestureRecognizer` is ``SwipeGestureRecognizer``.
public typealias UISwipeGestureRecognizer = SwipeGestureRecognizer
/// `UICollectionView` is ``CollectionView``.
public typealias UICollectionView = CollectionView
/// `UICollectionViewCell` is ``CollectionViewCell``.
public typealias UICollectionViewCell = CollectionViewCell
/// `UICollectionReusableView` is ``CollectionReusableView``.
public typealias UICollectionReusableView = CollectionReusableView
/// `UICollectionViewDataSource` is ``CollectionViewDataSource``.
public typealias UICollectionViewDataSource = CollectionViewDataSource
/// `UICollectionViewLayout` is ``CollectionViewLayout``.
public typealias UICollectionViewLayout = CollectionViewLayout
/// `UICollectionViewFlowLayout` is ``CollectionViewFlowLayout``.
public typealias UICollectionViewFlowLayout = CollectionViewFlowLayout
/// `UIRefreshControl` is ``RefreshControl``.
public typealias UIRefreshControl = RefreshControl
/// `UIPageControl` is ``PageControl``.
public typealias UIPageControl = PageControl
