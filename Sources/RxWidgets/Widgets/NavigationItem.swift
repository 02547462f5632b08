/// What a screen shows in the navigation bar, as `UINavigationItem`: a title, the bar
/// button items on either side, and how its back button looks. Every view controller has
/// one (`navigationItem`); changes show at once on a pushed screen.
public final class NavigationItem {
    /// The title shown in the bar.
    public var title: String? { didSet { changed() } }
    /// The item on the left (instead of the back button, unless
    /// ``leftItemsSupplementBackButton``).
    public var leftBarButtonItem: BarButtonItem? { didSet { itemsChanged(old: oldValue) } }
    /// The item on the right.
    public var rightBarButtonItem: BarButtonItem? { didSet { itemsChanged(old: oldValue) } }
    /// Whether the back button is hidden (then the user cannot go back). Default `false`.
    public var hidesBackButton: Bool = false { didSet { changed() } }
    /// Whether a left item is shown beside the back button. Default `false`.
    public var leftItemsSupplementBackButton: Bool = false { didSet { changed() } }
    /// The back button's title on the screen pushed over this one (default: ``title``).
    public var backButtonTitle: String? { didSet { changed() } }

    /// Called when something the bar shows changed (the navigation controller listens).
    var onChange: (() -> Void)?
    /// Called when a bar button item was replaced (old one) so its widget can go.
    var onItemReplaced: ((BarButtonItem?) -> Void)?

    /// An item titled `title`.
    public init(title: String? = nil) {
        self.title = title
    }

    /// Sets ``hidesBackButton``.
    public func setHidesBackButton(_ hidesBackButton: Bool, animated: Bool) {
        self.hidesBackButton = hidesBackButton
    }

    /// Sets ``leftBarButtonItem``.
    public func setLeftBarButton(_ item: BarButtonItem?, animated: Bool) {
        leftBarButtonItem = item
    }

    /// Sets ``rightBarButtonItem``.
    public func setRightBarButton(_ item: BarButtonItem?, animated: Bool) {
        rightBarButtonItem = item
    }

    private func changed() { onChange?() }

    private func itemsChanged(old: BarButtonItem?) {
        onItemReplaced?(old)
        onChange?()
    }
}
