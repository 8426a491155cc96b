/// One autocommit statement (or a few) on a pooled connection, run once more on a fresh connection
/// when the first was lost before answering. For statements that are safe to repeat.
enum PGRetry {
    static func run<T>(_ pool: PGPool, _ body: (PGConnection) throws -> T) throws -> T {
        do {
            return try pool.withConnection(body)
        } catch let error as PGError where error.connectionLost {
            return try pool.withConnection(body)
        }
    }
}
