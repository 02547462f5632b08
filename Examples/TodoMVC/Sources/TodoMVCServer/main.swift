// Serves TodoMVC: the `todomvc` scene, and the page in Public/ at http://127.0.0.1:8080/.
// `swift run TodoMVCServer` from this folder; `--help` lists the options (`--port`,
// `--public DIR`, …). Ctrl-C or SIGTERM stops it gracefully.

import Bindery
import TodoMVC

BinderyServer.main(name: "TodoMVCServer", configure: { configuration in
    // The page, its stylesheet and script, served over Bindery's own client files.
    if configuration.publicDirectory == nil {
        configuration.publicDirectory = "Public"
    }
}, scenes: registerTodoMVC)
