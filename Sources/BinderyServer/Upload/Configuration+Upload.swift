import BinderyCluster
import BinderyProtocol
import BinderyRuntime
import HTTPServer

extension SessionStore.Configuration {
    /// This configuration with ``maxUploadSize`` set (`--max-upload-size`).
    public func with(maxUploadSize: Int) -> Self {
        var configuration = self
        configuration.maxUploadSize = maxUploadSize
        return configuration
    }
}

extension HTTPServer.Configuration {
    /// This configuration with a body limit that takes an upload of `maxUploadSize`
    /// bytes (`POST /api/sessions/<id>/uploads/<picker>`), plus 64 KiB; never lower than it was.
    public func with(bodiesForUploadsOf maxUploadSize: Int) -> Self {
        var configuration = self
        configuration.limits.maxBodySize = max(configuration.limits.maxBodySize, maxUploadSize + (64 << 10))
        return configuration
    }
}
