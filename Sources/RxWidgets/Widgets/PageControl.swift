import Foundation
/// A row of dots, one per page, the current one highlighted, as `UIPageControl`. Users
/// pick a page (a dot, or the arrow keys in the browser): ``currentPage`` changes, then
/// `.valueChanged` is sent.
open class PageControl: Control {
    /// The number of pages (dots); never negative. Default 0. Lowering it moves
    /// ``currentPage`` onto the last page, as UIKit does.
    public var numberOfPages: Int = 0 {
        didSet {
            if numberOfPages < 0 { numberOfPages = 0; return }
            if numberOfPages != oldValue {
                changed(PageProperty.numberOfPages, .number(Double(oldValue)), .number(Double(numberOfPages)))
                currentPage = min(currentPage, max(numberOfPages - 1, 0))
            }
        }
    }

    /// The current page, `0..<numberOfPages` (other values are clamped, as in UIKit).
    /// Default 0.
    public var currentPage: Int {
        get { storedPage }
        set {
            let clamped = min(max(newValue, 0), max(numberOfPages - 1, 0))
            let old = storedPage
            storedPage = clamped
            if clamped != old { changed(PageProperty.currentPage, .number(Double(old)), .number(Double(clamped))) }
        }
    }

    private var storedPage = 0

    /// Whether the dots hide when there is only one page. Default `false`.
    public var hidesForSinglePage: Bool = false {
        didSet {
            if hidesForSinglePage != oldValue {
                changed(PageProperty.hidesForSinglePage, .bool(oldValue), .bool(hidesForSinglePage))
            }
        }
    }

    /// The dots' colour; `nil` (the default) is the client's.
    public var pageIndicatorTintColor: Color? {
        didSet {
            if pageIndicatorTintColor != oldValue {
                changed(PageProperty.pageIndicatorTintColor, WidgetValue(oldValue), WidgetValue(pageIndicatorTintColor))
            }
        }
    }

    /// The current dot's colour; `nil` (the default) is the client's.
    public var currentPageIndicatorTintColor: Color? {
        didSet {
            if currentPageIndicatorTintColor != oldValue {
                changed(PageProperty.currentPageIndicatorTintColor, WidgetValue(oldValue),
                        WidgetValue(currentPageIndicatorTintColor))
            }
        }
    }

    /// A page control with no pages.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    override public var kind: String { "pageControl" }

    override public var valueProperty: String? { PageProperty.currentPage }

    override public var userEvents: Event { [.valueChanged] }

    /// A user's page: a whole number in `0..<numberOfPages` (a user cannot pick a page
    /// that has no dot, so others are errors, not clamped).
    override func applyValue(_ value: WidgetValue) throws(WidgetInputError) -> WidgetValue {
        guard case .number(let number) = value, number == number.rounded(), number >= 0,
              number < Double(numberOfPages) else {
            throw badValue(PageProperty.currentPage, "a page in 0..<\(numberOfPages)", value)
        }
        currentPage = Int(number)
        return .number(Double(currentPage))
    }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[PageProperty.numberOfPages] = .number(Double(numberOfPages))
        properties[PageProperty.currentPage] = .number(Double(storedPage))
        properties[PageProperty.hidesForSinglePage] = .bool(hidesForSinglePage)
        if let pageIndicatorTintColor { properties[PageProperty.pageIndicatorTintColor] = .color(pageIndicatorTintColor) }
        if let currentPageIndicatorTintColor {
            properties[PageProperty.currentPageIndicatorTintColor] = .color(currentPageIndicatorTintColor)
        }
    }
}

enum PageProperty {
    static let numberOfPages = "numberOfPages"
    static let currentPage = "currentPage"
    static let hidesForSinglePage = "hidesForSinglePage"
    static let pageIndicatorTintColor = "pageIndicatorTintColor"
    static let currentPageIndicatorTintColor = "currentPageIndicatorTintColor"
}
