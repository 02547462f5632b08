import RxCore
import XCTest

final class UnretainedReferenceTests: XCTestCase {
    /// Ends its anchor in `deinit`, as a widget does.
    final class Anchored: LifetimeAnchored {
        private var storedAnchor: LifetimeAnchor?
        var lifetimeAnchor: LifetimeAnchor { LifetimeAnchor.anchor(of: self, in: &storedAnchor) }
        deinit { storedAnchor?.end() }
    }

    final class Plain {}

    func testAnAnchoredObjectIsNotKeptAliveAndReadsNilOnceGone() {
        var object: Anchored? = Anchored()
        weak let watched = object
        let reference = UnretainedReference(object!)
        XCTAssertTrue(reference.object === object)
        XCTAssertTrue(object!.lifetimeAnchor === object!.lifetimeAnchor, "one anchor per object")
        object = nil
        XCTAssertNil(watched, "the reference must not keep its object alive")
        XCTAssertNil(reference.object)
    }

    func testAPlainObjectIsReferencedWeakly() {
        var object: Plain? = Plain()
        let reference = UnretainedReference(object!)
        XCTAssertTrue(reference.object === object)
        object = nil
        XCTAssertNil(reference.object)
    }

    func testABinderDropsElementsOnceItsAnchoredTargetIsGone() {
        var target: Anchored? = Anchored()
        var bound: [Int] = []
        let binder = Binder(target!) { _, value in bound.append(value) }
        binder.onNext(1)
        target = nil
        binder.onNext(2)
        XCTAssertEqual(bound, [1])
    }
}
