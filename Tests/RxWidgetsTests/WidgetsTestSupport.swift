import Foundation
import RxCore
import RxWidgets
import XCTest

/// Adds `widgets` to a new tree under the given ids (test scenes are built correctly,
/// so a failure to add is a test failure).
func widgetTestTree(_ widgets: KeyValuePairs<String, View>, file: StaticString = #filePath, line: UInt = #line) -> WidgetTree {
    let tree = WidgetTree()
    for (id, widget) in widgets {
        do {
            try tree.add(widget, id: id)
        } catch {
            XCTFail("could not add \(id): \(error)", file: file, line: line)
        }
    }
    return tree
}

/// The changes taken from `tree`, as `id.property = value` strings (short to compare).
func widgetTestChanges(_ tree: WidgetTree) -> [String] {
    tree.takeChanges().map(\.description)
}

/// Runs `body` with `Hooks.bindingErrorHandler` collecting errors, and returns them.
func widgetTestBindingErrors(_ body: () throws -> Void) rethrows -> [String] {
    let previous = Hooks.bindingErrorHandler
    defer { Hooks.bindingErrorHandler = previous }
    let collected = WidgetTestBox<[String]>([])
    Hooks.bindingErrorHandler = { collected.value.append("\($0)") }
    try body()
    return collected.value
}

/// A mutable box the tests' closures share (the tests run on the main thread only).
final class WidgetTestBox<Value>: @unchecked Sendable {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// An error for tests.
struct WidgetTestError: Error, Equatable, CustomStringConvertible {
    let name: String

    init(_ name: String = "boom") {
        self.name = name
    }

    var description: String { name }
}

/// `ActionError` as a comparable string: `notEnabled`, `underlyingError(boom)`.
func widgetTestDescribe(_ error: Error) -> String {
    switch error {
    case ActionError.notEnabled: return "notEnabled"
    case ActionError.underlyingError(let underlying): return "underlyingError(\(underlying))"
    default: return "\(error)"
    }
}
