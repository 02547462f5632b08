import Bindery
import BinderyDemo
import BinderyTesting
import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

/// A registry holding the demo scenes, registered as the `bindery` executable does.
func demoRegistry() -> SceneRegistry {
    let registry = SceneRegistry()
    registerDemoScenes(registry)
    return registry
}

/// A test client of the demo scene `name`, on `scheduler` (by default a virtual clock
/// at 0 s since 1970).
func demoClient(_ name: String, scheduler: TestScheduler? = nil) throws -> SceneTestClient {
    try SceneTestClient(scene: name, registry: demoRegistry(), scheduler: scheduler)
}

/// A virtual clock starting at `date` (whole seconds), one tick a second, with no
/// processing delay: the `date` scene reads it as "now".
func demoClock(at date: Date) -> TestScheduler {
    TestScheduler(initialClock: Int(date.timeIntervalSince1970), simulateProcessingDelay: false)
}
