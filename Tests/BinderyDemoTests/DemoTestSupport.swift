import BinderyDemo
import BinderyTesting
import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

/// A test client of the demo scene `name`, built from the demo catalogue the way the
/// server builds it, with the host's virtual clock and viewer count and `now` as clock.
func demoClient(_ name: String, now: @escaping () -> Date = Date.init, file: StaticString = #filePath, line: UInt = #line) throws -> SceneTestClient {
    try SceneTestClient(scene: demoScene(name, now: now))
}

/// A host of the demo scene `name` (for shared scenes: connect several clients).
func demoHost(_ name: String) throws -> SceneTestHost {
    try SceneTestHost(build: demoScene(name))
}

/// The builder for the demo scene `name`.
func demoScene(_ name: String, now: @escaping () -> Date = Date.init) -> (SceneTestContext) throws -> SceneTestScene {
    { context in
        guard let definition = DemoScenes.named(name) else {
            throw SceneTestError(message: "no demo scene '\(name)'")
        }
        let environment = DemoEnvironment(scheduler: context.scheduler, now: now, viewers: context.viewers)
        let controller = definition.make(environment)
        return SceneTestScene(controller: controller, widgets: controller.sceneWidgets)
    }
}
