// `Reactive` and `ReactiveCompatible` live in RxCore, as in RxSwift 6; the widget members
// are added by the `*+Rx.swift` files. Re-exported so that code importing only RxWidgets
// keeps seeing the `rx` namespace.
@_exported import protocol RxCore.ReactiveCompatible
@_exported import struct RxCore.Reactive
