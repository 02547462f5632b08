import RxCore
import XCTest

final class CompositeDisposableTests: XCTestCase {
    func testEveryArityDisposesAll() {
        var disposed: [Int] = []
        func make(_ id: Int) -> Disposable { Disposables.create { disposed.append(id) } }

        CompositeDisposable(make(1), make(2)).dispose()
        CompositeDisposable(make(3), make(4), make(5)).dispose()
        let four = CompositeDisposable(make(6), make(7), make(8), make(9))
        XCTAssertEqual(four.count, 4)
        four.dispose()
        let many = CompositeDisposable(make(10), make(11), make(12), make(13), make(14), make(15))
        XCTAssertEqual(many.count, 6)
        many.dispose()
        CompositeDisposable(disposables: [make(16), make(17)]).dispose()
        XCTAssertEqual(disposed, Array(1...17))
    }

    func testInsertAfterDisposeDisposesAtOnce() {
        let group = CompositeDisposable()
        group.dispose()
        var disposed = false
        XCTAssertNil(group.insert(Disposables.create { disposed = true }))
        XCTAssertTrue(disposed)
    }
}
