import Foundation
import RxCore

extension Reactive where Base: PickerView {
    /// Binds arrays of elements to the picker's rows, titled by `titleForRow(row,
    /// element)`, as RxCocoa's `rx.itemTitles`. Errors go to `Hooks.bindingErrorHandler`.
    public func itemTitles<Items: Sequence, Source: ObservableType>(
        _ source: Source
    ) -> (_ titleForRow: @escaping (Int, Items.Element) -> String?) -> Disposable where Source.Element == Items {
        { titleForRow in
            source.subscribe(Binder<Items>(base) { picker, items in
                let elements = Array(items)
                picker.models = elements
                picker.setTitles(elements.enumerated().map { titleForRow($0.offset, $0.element) ?? "" })
            })
        }
    }

    /// Each row the user picks, as RxCocoa's: `(row, component)`.
    public var itemSelected: ControlEvent<(row: Int, component: Int)> {
        let source = controlEvent(.valueChanged).asObservable().map { [weak base] _ -> (row: Int, component: Int) in
            (row: base?.selectedRow(inComponent: 0) ?? -1, component: 0)
        }
        return ControlEvent(events: source)
    }

    /// The models of the rows the user picks, one per component (RxCocoa's shape).
    ///
    /// A model of another type ends the sequence with ``RxDataSourceError/castingError(expected:actual:)``.
    public func modelSelected<T>(_ modelType: T.Type) -> ControlEvent<[T]> {
        let source = itemSelected.asObservable().map { [weak base] selection -> [T] in
            guard let base, base.models.indices.contains(selection.row) else {
                throw RxDataSourceError.outOfBounds(indexPath: IndexPath(row: selection.row, section: selection.component))
            }
            let model = base.models[selection.row]
            guard let typed = model as? T else {
                throw RxDataSourceError.castingError(expected: String(describing: T.self),
                                                     actual: String(describing: type(of: model)))
            }
            return [typed]
        }
        return ControlEvent(events: source)
    }
}
