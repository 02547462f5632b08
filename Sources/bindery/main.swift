// bindery: the demo app. Its scenes (BinderyDemo) served with Bindery's standard command
// line (`bindery --help`), the browser client from the library and ./public (the demo's
// attach-mode example pages) over it when there is one.

import Bindery
import BinderyDemo
import Foundation

BinderyServer.main(name: "bindery", configure: { configuration in
    var isDirectory: ObjCBool = false
    if configuration.publicDirectory == nil,
       FileManager.default.fileExists(atPath: "public", isDirectory: &isDirectory), isDirectory.boolValue {
        configuration.publicDirectory = "public"
    }
}) { scenes in
    registerDemoScenes(scenes)
}
