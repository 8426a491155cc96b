/// A bounded pool of connections to one database.
///
/// At most `size` connections are in use at once (callers beyond that wait); idle ones are kept.
/// A connection that failed is dropped instead of returned, and the next checkout connects anew,
/// so a restarted server or a cut network costs the requests in flight at that moment only.
typealias PGPool = ConnectionPool<PGConnection>

extension ConnectionPool where Connection == PGConnection {
    /// Up to `size` connections made with `conninfo`.
    static func postgres(conninfo: String, size: Int) -> PGPool {
        let size = max(1, size)
        return PGPool(maxInUse: size, maxIdle: size) { try PGConnection(conninfo: conninfo) }
    }
}

extension PGConnection: PooledConnection {
    /// A connection left inside a transaction (a caller's bug or a failed rollback) or a pipeline
    /// is not reused, nor one the server or the network closed.
    var isReusable: Bool { isHealthy && !isInTransaction && !isInPipeline }
}
