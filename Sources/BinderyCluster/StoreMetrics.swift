import BinderyProtocol
import BinderyRuntime
import CoreMetrics

/// The session store's swift-metrics instruments (on `/metrics` through the app's
/// Prometheus registry): `bindery_store_writes_total`, `bindery_store_write_seconds`,
/// `bindery_store_errors_total`, `bindery_store_fenced_total`,
/// `bindery_store_reconnects_total`, `bindery_store_takeovers_total`.
final class StoreMetrics {
    let writes = Counter(label: "bindery_store_writes_total")
    let writeLatency = CoreMetrics.Timer(label: "bindery_store_write_seconds")
    let errors = Counter(label: "bindery_store_errors_total")
    let fenced = Counter(label: "bindery_store_fenced_total")
    let reconnects = Counter(label: "bindery_store_reconnects_total")
    let takeovers = Counter(label: "bindery_store_takeovers_total")
}
