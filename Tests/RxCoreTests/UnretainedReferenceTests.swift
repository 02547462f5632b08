import RxCore
import XCTest

final class UnretainedReferenceTests: XCTestCase {
    /// Ends its anchor in `deinit`, as a widget does.
    final class Anchored: LifetimeAnchored {
        private var storedAnchor: LifetimeAnchor?
        var lifetimeAnchor: LifetimeAnchor {
            if let storedAnchor { return storedAnchor }
            let anchor = LifetimeAnchor(self)
            storedAnchor = anchor
            return anchor
        }
        deinit { storedAnchor?.end() }
    }

    final class Plain {}

    func testAnAnchoredObjectIsNotKeptAliveAndReadsNilOnceGone() {
        var object: Anchored? = Anchored()
        weak let watched = object
        let reference = UnretainedReference(object!)
        XCTAssertTrue(reference.object === object)
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
        final class Target: LifetimeAnchored {
            var values: [Int] = []
            private var storedAnchor: LifetimeAnchor?
            var lifetimeAnchor: LifetimeAnchor {
                if let storedAnchor { return storedAnchor }
                let anchor = LifetimeAnchor(self)
                storedAnchor = anchor
                return anchor
            }
            deinit { storedAnchor?.end() }
        }
        var target: Target? = Target()
        var bound: [Int] = []
        let binder = Binder(target!) { target, value in
            target.values.append(value)
            bound.append(value)
        }
        binder.onNext(1)
        target = nil
        binder.onNext(2)
        XCTAssertEqual(bound, [1])
    }
}
