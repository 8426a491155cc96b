import Foundation

/// The node's host lookups, bounded so that no name an attacker controls can hold a thread for
/// long (issue 26): at most `maxConcurrent` lookups run at once, each on a thread of its own; a
/// caller waits at most `budget` seconds, then gets `.temporaryFailure` while the lookup goes on
/// in the background; at most `maxWaiting` callers wait at once (the others get
/// `.temporaryFailure` at once, the lookup still started, so that a retry finds the answer), which
/// keeps most of the HTTP server's threads free whatever the names registered; answers are kept `answerLifetime`, failures (a timeout included)
/// `failureLifetime`, and an expired answer is still served, up to `staleLifetime`, while a fresh
/// one is looked up. A caller that must not block at all asks `cached(_:)`.
///
/// Callers decide what an unknown answer means: registration refuses (fail closed), the send-time
/// check leaves it to the connect-time check of the address actually dialled.
package final class CachingResolver: HostResolving, @unchecked Sendable {
    package struct Settings: Sendable {
        package var maxConcurrent = 8
        package var maxWaiting = 2
        package var budget: Double = 2
        package var answerLifetime: Double = 300
        package var failureLifetime: Double = 30
        package var staleLifetime: Double = 3600
        package var capacity = 10_000

        package init() {}
    }

    private struct Entry {
        var resolution: HostResolution
        var at: Double
    }

    /// The process's resolver, shared by registration, the send-time check and the HTTP/2 engine.
    package static let shared = CachingResolver(base: SystemHostResolver())

    private let base: any HostResolving
    private let settings: Settings
    private let now: @Sendable () -> Double
    /// Guards the three below; waiters sleep on it and every finished lookup wakes them all.
    private let condition = NSCondition()
    private var entries: [String: Entry] = [:]
    private var running: Set<String> = []
    private var waiting = 0

    package init(base: any HostResolving, settings: Settings = Settings(),
                 now: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }) {
        self.base = base
        self.settings = settings
        self.now = now
    }

    /// Lookups running now (each holds a thread until the system resolver returns).
    package var lookupsRunning: Int { condition.withLock { running.count } }

    /// Blocks at most `budget` seconds.
    package func resolve(_ host: String) -> HostResolution {
        condition.lock()
        defer { condition.unlock() }
        if let fresh = freshEntry(host) { return fresh }
        startLookup(host)
        let waits = running.contains(host) && waiting < settings.maxWaiting
        if waits {
            waiting += 1
            let deadline = Date().addingTimeInterval(settings.budget)
            while running.contains(host) {
                guard condition.wait(until: deadline) else { break }
            }
            waiting -= 1
        }
        if let fresh = freshEntry(host) { return fresh }
        if let stale = staleEntry(host) { return stale }
        // Out of budget: remembered as a failure, so the next caller does not wait again while the
        // lookup still runs. A caller that did not wait leaves nothing: its lookup may answer soon.
        if waits, running.contains(host) { store(host, .temporaryFailure) }
        return .temporaryFailure
    }

    /// Never blocks: the answer known now (fresh or stale), else nil; starts a lookup when the
    /// answer is missing or expired.
    package func cached(_ host: String) -> HostResolution? {
        condition.lock()
        defer { condition.unlock() }
        if let fresh = freshEntry(host) { return fresh }
        startLookup(host)
        return staleEntry(host)
    }

    private func lifetime(of resolution: HostResolution) -> Double {
        if case .addresses = resolution { return settings.answerLifetime }
        return settings.failureLifetime
    }

    private func freshEntry(_ host: String) -> HostResolution? {
        guard let entry = entries[host], now() - entry.at < lifetime(of: entry.resolution) else { return nil }
        return entry.resolution
    }

    private func staleEntry(_ host: String) -> HostResolution? {
        guard let entry = entries[host], case .addresses = entry.resolution,
              now() - entry.at < settings.staleLifetime else { return nil }
        return entry.resolution
    }

    /// Under the lock.
    private func store(_ host: String, _ resolution: HostResolution) {
        if case .temporaryFailure = resolution, staleEntry(host) != nil { return }  // keep the last good answer
        if entries.count >= settings.capacity, entries[host] == nil { entries.removeAll(keepingCapacity: true) }
        entries[host] = Entry(resolution: resolution, at: now())
    }

    /// Under the lock: a lookup of `host` on its own thread, unless one runs or every slot is taken.
    private func startLookup(_ host: String) {
        guard !running.contains(host), running.count < settings.maxConcurrent else { return }
        running.insert(host)
        let thread = Thread { [self] in
            let resolution = base.resolve(host)
            condition.lock()
            running.remove(host)
            store(host, resolution)
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "pushnode-dns"
        thread.start()
    }
}
