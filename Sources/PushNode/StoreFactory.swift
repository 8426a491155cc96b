import Foundation
import PushConfig
import PushStore

/// Opens the store `storage.driver` names, and the replay cache that goes with it: in memory for
/// SQLite (one node per file), in the database for PostgreSQL (shared by every node).
package enum StoreFactory {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package static let sqliteFileName = "pushnode.sqlite"

    package static func open(config: NodeConfig) throws -> any PushStore {
        switch config.storage.driver {
        case .sqlite:
            return try SQLiteStore(path: config.dataDir + "/" + sqliteFileName,
                                   configuration: .init(outcomeRetention: config.storage.outcomeRetention))
        case .postgres:
            return try PostgresStore(
                url: config.storage.url, nodeID: try NodeIdentity.loadOrCreate(dataDir: config.dataDir),
                configuration: .init(claimLease: config.storage.claimLease, poolSize: config.storage.poolSize,
                                     outcomeRetention: config.storage.outcomeRetention))
        }
    }

    /// The shared replay cache in postgres mode (migrations applied first); nil means "keep the
    /// node's in-memory cache".
    package static func replayCache(config: NodeConfig) throws -> (any ReplayCache)? {
        guard config.storage.driver == .postgres else { return nil }
        try PostgresSchema.prepare(url: config.storage.url)
        return PostgresReplayCache(url: config.storage.url, poolSize: max(2, config.storage.poolSize / 2))
    }
}
