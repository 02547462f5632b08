import RxCore

/// A sectioned data source that reloads the table for each new array of sections, as
/// RxDataSources' `RxTableViewSectionedReloadDataSource` (rows keyed by position; the
/// selection is cleared, as `reloadData` does):
///
/// ```swift
/// let dataSource = RxTableViewSectionedReloadDataSource<SectionModel<String, Int>>(
///     configureCell: { _, tableView, indexPath, item in
///         let cell = TableViewCell(style: .default, reuseIdentifier: nil)
///         cell.textLabel?.text = "\(item)"
///         return cell
///     },
///     titleForHeaderInSection: { dataSource, index in dataSource.sectionModels[index].model })
/// sections.bind(to: tableView.rx.items(dataSource: dataSource)).disposed(by: bag)
/// ```
open class RxTableViewSectionedReloadDataSource<Section: SectionModelType>
    : TableViewSectionedDataSource<Section>, RxTableViewDataSourceType {
    /// Each element is the whole list of sections.
    public typealias Element = [Section]

    /// Shows each list of sections; errors go to `Hooks.bindingErrorHandler`.
    open func tableView(_ tableView: TableView, observedEvent: Event<[Section]>) {
        Binder(self) { dataSource, sections in
            dataSource.setSections(sections)
            tableView.reloadData()
        }.on(observedEvent)
    }
}
