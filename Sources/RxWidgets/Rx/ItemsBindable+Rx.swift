import Foundation
import RxCore

/// A view that `rx.items(dataSource:)` feeds, ``TableView`` or ``CollectionView``: what
/// their `rx` extensions share (the binding, `rx.model(at:)`, the item events). Their
/// public members stay apart, named as RxCocoa names each.
protocol ItemsBindable: View {
    /// The view's data source protocol.
    associatedtype DataSource
    /// Where items come from (held weakly, as in UIKit).
    var dataSource: DataSource? { get set }
    /// The data source an `rx.items` binding installed (kept for `rx.model(at:)`).
    var rxDataSource: AnyObject? { get set }
    /// What a second `rx.items` binding reports while one is active.
    var dataSourceAlreadyBoundError: Error { get }
}

extension TableView: ItemsBindable {
    var dataSourceAlreadyBoundError: Error { TableViewError.dataSourceAlreadyBound(tableID: id) }
}

extension CollectionView: ItemsBindable {
    var dataSourceAlreadyBoundError: Error { CollectionViewError.dataSourceAlreadyBound(collectionViewID: id) }
}

extension Reactive where Base: ItemsBindable {
    /// `rx.items(dataSource:)`: makes `dataSource` (as `installed`) the view's data source
    /// until disposed, keeps it alive, and hands it every event of `source` through
    /// `observe`. A second binding while one is active goes to `Hooks.bindingErrorHandler`.
    func bindItems<Bound: AnyObject, Source: ObservableType>(
        _ source: Source, dataSource: Bound, installed: Base.DataSource,
        observe: @escaping (Bound, Base, Event<Source.Element>) -> Void
    ) -> Disposable {
        MainScheduler.ensureRunningOnMainThread()
        if base.rxDataSource != nil {
            Hooks.bindingErrorHandler(base.dataSourceAlreadyBoundError)
        }
        base.dataSource = installed
        base.rxDataSource = dataSource
        let subscription = source.subscribe { [weak base] event in
            guard let base else { return }
            observe(dataSource, base, event)
        }
        return Disposables.create(with: { [weak base] in
            subscription.dispose()
            if let base, base.rxDataSource === dataSource {
                base.rxDataSource = nil
                base.dataSource = nil
            }
        })
    }

    /// `rx.model(at:)`: the model at `indexPath` from the bound data source.
    func boundModel<T>(at indexPath: IndexPath) throws -> T {
        guard let dataSource = base.rxDataSource as? SectionedViewDataSourceType else {
            throw RxDataSourceError.itemsNotYetBound
        }
        let element = try dataSource.model(at: indexPath)
        guard let model = element as? T else {
            throw RxDataSourceError.castingError(expected: String(describing: T.self),
                                                 actual: String(describing: type(of: element)))
        }
        return model
    }

    /// `indexPaths` mapped to their models (`rx.modelSelected` and kin); a model of another
    /// type ends the sequence with an error.
    func modelEvent<T>(_ indexPaths: ControlEvent<IndexPath>) -> ControlEvent<T> {
        let source = indexPaths.asObservable().map { [weak base] indexPath -> T in
            guard let base else { throw RxDataSourceError.itemsNotYetBound }
            return try Reactive(base).boundModel(at: indexPath)
        }
        return ControlEvent(events: source)
    }
}
