import Foundation

/// The process gauges under the names Prometheus's client libraries use, so the usual dashboards
/// and alerts read them: resident memory, open and allowed file descriptors. Read from `/proc`
/// (Linux) when the registry renders; elsewhere the gauges render no sample.
package enum ProcessMetrics {
    /// Registers the gauges, sampled while `owner` lives (the node: the registry holds it weakly).
    package static func register<Owner: AnyObject & Sendable>(in registry: MetricsRegistry, while owner: Owner) {
        registry.gauge("process_resident_memory_bytes", help: "Resident memory size in bytes.",
                       labels: [], of: owner) { _ in residentBytes().map { [([], $0)] } ?? [] }
        registry.gauge("process_open_fds", help: "Number of open file descriptors.",
                       labels: [], of: owner) { _ in openFileDescriptors().map { [([], $0)] } ?? [] }
        registry.gauge("process_max_fds", help: "Maximum number of open file descriptors.",
                       labels: [], of: owner) { _ in maxFileDescriptors().map { [([], $0)] } ?? [] }
    }

    /// The second field of `/proc/self/statm` (resident pages) times the page size.
    static func residentBytes() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return nil }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The entries of `/proc/self/fd`, less the one the listing itself holds open.
    static func openFileDescriptors() -> Double? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return nil }
        return Double(max(0, entries.count - 1))
    }

    /// The soft `RLIMIT_NOFILE` (none when unlimited).
    static func maxFileDescriptors() -> Double? {
        var limit = rlimit()
        #if canImport(Glibc)
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        #else
        guard getrlimit(RLIMIT_NOFILE, &limit) == 0 else { return nil }
        #endif
        return limit.rlim_cur == rlim_t.max ? nil : Double(limit.rlim_cur)  // rlim_t.max: RLIM_INFINITY on Linux
    }
}
