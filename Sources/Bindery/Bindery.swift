// The `Bindery` product: one import for apps and their tests, whichever layer a name
// lives in (docs/Architecture.md).
@_exported import BinderyCluster
@_exported import BinderyProtocol
@_exported import BinderyRuntime
@_exported import BinderyServer
