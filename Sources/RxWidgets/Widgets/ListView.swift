import Foundation
/// A list of keyed rows, like a one-section `UITableView` whose cells are plain data.
///
/// Bind it with `rx.items`: `repos.bind(to: list.rx.items) { list, index, repo in
/// ListRow(id: repo.name, fields: ["name": .string(repo.name)]) }`. Row ids must be
/// unique; they let the server send keyed changes (``ListRow/changes(from:to:)``)
/// instead of the whole list.
open class ListView: View {
    /// The rows, in order. Default empty.
    public var items: [ListRow] = [] {
        didSet {
            if items != oldValue {
                changed(PropertyName.items, .rows(oldValue), .rows(items))
            }
        }
    }

    /// An empty list.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// UIKit's archive initializer: Bindery has no archives, so this is the plain view.
    public required convenience init?(coder: NSCoder) {
        self.init(frame: .zero)
    }

    override public var kind: String { "listView" }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[PropertyName.items] = .rows(items)
    }
}
