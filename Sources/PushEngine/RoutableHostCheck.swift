import Foundation
import PushNet
import PushSupport

/// The Web Push private-address guard at send time: an endpoint host must resolve only to
/// publicly routable addresses (DNS can change after registration). Lookups are cached for a
/// minute so a busy origin is not resolved per push; the Web Push HTTP client checks the
/// address it actually connects to as well.
package final class RoutableHostCheck: Sendable {
    static let cacheLifetime: TimeInterval = 60
    static let capacity = 10_000

    private let resolver: any HostResolving
    private let clock: EngineClock
    private let cache = Protected<[String: (routable: Bool, at: Date)]>([:])

    package init(resolver: any HostResolving = SystemHostResolver(), clock: EngineClock = .system) {
        self.resolver = resolver
        self.clock = clock
    }

    /// Whether `host` (lowercased, IPv6 without brackets) may receive a push now.
    package func isRoutable(_ host: String) -> Bool {
        if let literal = IPAddress(host) { return AddressClass.of(literal).isPubliclyRoutable }
        let now = clock.now()
        if let hit = cache.withLock({ $0[host] }), now.timeIntervalSince(hit.at) < Self.cacheLifetime {
            return hit.routable
        }
        let routable: Bool
        switch resolver.resolve(host) {
        case .addresses(let addresses):
            routable = !addresses.contains { !AddressClass.of($0).isPubliclyRoutable }
        case .notFound:
            routable = false
        case .temporaryFailure:
            return true  // cannot tell now: the connect-time check of the client decides
        }
        cache.withLock { cache in
            if cache.count >= Self.capacity { cache.removeAll(keepingCapacity: true) }
            cache[host] = (routable, now)
        }
        return routable
    }
}
