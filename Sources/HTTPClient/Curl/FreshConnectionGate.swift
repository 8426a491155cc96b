/// Decides how a request whose connection died is sent again.
///
/// libcurl 7.88 may hand a retry the very connection that just died (its liveness check
/// misses an HTTP/2 connection closed by the peer), so a retry needs
/// `CURLOPT_FRESH_CONNECT`. But when a connection with many streams dies, every stream
/// fails at once, and a fresh connection per retry would open hundreds of connections
/// one after another (the per-host limit lets only one exist). So the first retry to an
/// origin leads: it opens the fresh connection; the others follow once it has finished,
/// reusing that connection through ordinary multiplexing.
///
/// Pure bookkeeping: the event loop acts on its answers.
struct FreshConnectionGate<Waiter> {
    enum Decision: Equatable {
        /// Send now on a fresh connection; call `leaderFinished` when the attempt ends.
        case lead
        /// Parked: `leaderFinished` hands the request back.
        case follow
    }

    private var leaders: Set<String> = []
    private var followers: [String: [Waiter]] = [:]

    init() {}

    /// Whether a retry to `origin` leads or waits.
    mutating func admit(_ waiter: Waiter, origin: String) -> Decision {
        if leaders.insert(origin).inserted { return .lead }
        followers[origin, default: []].append(waiter)
        return .follow
    }

    /// The leader's attempt ended: the parked retries may go.
    mutating func leaderFinished(origin: String) -> [Waiter] {
        leaders.remove(origin)
        return followers.removeValue(forKey: origin) ?? []
    }

    /// Removes parked retries matching `predicate` (e.g. past their deadline).
    mutating func removeWaiters(where predicate: (Waiter) -> Bool) -> [Waiter] {
        var removed: [Waiter] = []
        for origin in Array(followers.keys) {
            var kept: [Waiter] = []
            for waiter in followers[origin] ?? [] {
                if predicate(waiter) { removed.append(waiter) } else { kept.append(waiter) }
            }
            followers[origin] = kept.isEmpty ? nil : kept
        }
        return removed
    }

    /// Every parked retry (at shutdown).
    mutating func removeAll() -> [Waiter] {
        defer { followers.removeAll(); leaders.removeAll() }
        return followers.values.flatMap { $0 }
    }

    var parkedCount: Int { followers.values.reduce(0) { $0 + $1.count } }
}

extension HTTPClient {
    /// `scheme://host:port` of an absolute URL, lowercased: the key of a connection pool.
    package static func origin(of url: String) -> String {
        guard let separator = url.range(of: "://") else { return url.lowercased() }
        let rest = url[separator.upperBound...]
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        return (url[..<separator.upperBound] + rest[..<end]).lowercased()
    }
}
