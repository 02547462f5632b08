// Serves Expenses: the `expenses` scene, auto-rendered at http://127.0.0.1:8080/scene/expenses.
// `swift run ExpensesServer [--port N] [--public DIR]`; Ctrl-C stops it gracefully.

import Bindery
import EventLoop
import Foundation
import Expenses

var port = 8080
var publicDirectory: String? = nil  // the browser client's directory (today: the repo's public/)
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    switch (flag, arguments.popFirst()) {
    case ("--port", let value?): port = Int(value) ?? port
    case ("--public", let value?): publicDirectory = value
    default: FileHandle.standardError.write(Data("usage: ExpensesServer [--port N] [--public DIR]\n".utf8)); exit(2)
    }
}

let registry = SceneRegistry()
registerExpenses(registry)
let app = BinderyApp(registry: registry, configuration: .init(port: port, publicDirectory: publicDirectory))
let loop = try EventLoop()
try app.start(on: loop)
let signals = try SignalWatcher.termination(loop: loop) { _ in
    app.shutdown(timeout: .seconds(5)) { loop.stop() }
}
print("Expenses on http://127.0.0.1:\(app.port)/scene/expenses")
loop.run()
signals.close()
loop.execute { loop.stop() }
loop.run()
