import BinderyDemo
import BinderyTesting
import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

/// A test client of the demo scene `name`, built from the demo catalogue the way the
/// server builds it, on `scheduler` (by default a virtual clock at 0 s since 1970).
func demoClient(_ name: String, scheduler: TestScheduler? = nil) throws -> SceneTestClient {
    try SceneTestClient(scheduler: scheduler, scene: demoScene(name))
}

/// A host of the demo scene `name` (for shared scenes: connect several clients).
func demoHost(_ name: String) throws -> SceneTestHost {
    try SceneTestHost(build: demoScene(name))
}

/// A virtual clock starting at `date` (whole seconds), one tick a second, with no
/// processing delay: the `date` scene reads it as "now".
func demoClock(at date: Date) -> TestScheduler {
    TestScheduler(initialClock: Int(date.timeIntervalSince1970), simulateProcessingDelay: false)
}

/// The builder for the demo scene `name`: the host's scheduler (and so its clock) and
/// viewer count become the scene's environment, as the server's scene context does.
func demoScene(_ name: String) -> (SceneTestContext) throws -> SceneTestScene {
    { context in
        guard let definition = DemoScenes.named(name) else {
            throw SceneTestError(message: "no demo scene '\(name)'")
        }
        let environment = DemoEnvironment(scheduler: context.scheduler, viewers: context.viewerCount)
        let controller = definition.make(environment)
        return SceneTestScene(controller: controller, widgets: controller.sceneWidgets)
    }
}
