// Serves TodoMVC: the `todomvc` scene, and the page in Public/ at http://127.0.0.1:8080/.
// `swift run TodoMVCServer [--port N] [--public DIR]`; Ctrl-C stops it gracefully.

import Bindery
import EventLoop
import Foundation
import TodoMVC

var port = 8080
var publicDirectory = "Public"
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    switch (flag, arguments.popFirst()) {
    case ("--port", let value?): port = Int(value) ?? port
    case ("--public", let value?): publicDirectory = value
    default: FileHandle.standardError.write(Data("usage: TodoMVCServer [--port N] [--public DIR]\n".utf8)); exit(2)
    }
}

let registry = SceneRegistry()
registerTodoMVC(registry)
let app = BinderyApp(registry: registry, configuration: .init(port: port, publicDirectory: publicDirectory))
let loop = try EventLoop()
try app.start(on: loop)
let signals = try SignalWatcher.termination(loop: loop) { _ in
    app.shutdown(timeout: .seconds(5)) { loop.stop() }
}
print("TodoMVC on http://127.0.0.1:\(app.port)/")
loop.run()
signals.close()
loop.execute { loop.stop() }
loop.run()
