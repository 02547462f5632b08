import RxCore

extension Reactive where Base: ListView {
    /// Binds a sequence of element arrays to the list's rows, as RxCocoa's
    /// `tableView.rx.items`: each array replaces the rows, each element made into a row
    /// by `rowFactory(list, index, element)`.
    ///
    /// ```swift
    /// viewModel.$repos
    ///     .bind(to: repoList.rx.items) { _, _, repo in
    ///         ListRow(id: repo.name, fields: ["name": .string(repo.name), "author": .string(repo.author)])
    ///     }
    ///     .disposed(by: bag)
    /// ```
    /// Row ids must be unique: an array whose rows repeat an id is reported to
    /// `Hooks.bindingErrorHandler` and leaves the rows as they were. Errors go there
    /// too; completion keeps the last rows.
    public func items<Sequence: Swift.Sequence, Source: ObservableType>(
        _ source: Source
    ) -> (_ rowFactory: @escaping (ListView, Int, Sequence.Element) -> ListRow) -> Disposable
    where Source.Element == Sequence {
        { rowFactory in
            let binder = Binder<Sequence>(base) { list, elements in
                let rows = elements.enumerated().map { index, element in
                    rowFactory(list, index, element)
                }
                var seen = Set<String>()
                for row in rows where !seen.insert(row.id).inserted {
                    Hooks.bindingErrorHandler(ListViewError.duplicateRowID(listID: list.id, rowID: row.id))
                    return
                }
                list.items = rows
            }
            return source.subscribe(binder)
        }
    }
}

/// A mistake in rows bound to a ``ListView``.
public enum ListViewError: Error, Equatable, CustomStringConvertible {
    /// Two rows of one array share `rowID`.
    case duplicateRowID(listID: String, rowID: String)

    /// A readable message.
    public var description: String {
        switch self {
        case .duplicateRowID(let listID, let rowID):
            return "list '\(listID)': duplicate row id '\(rowID)'"
        }
    }
}
