import Foundation
import PushProtocol

extension PostgresStore {
    package func saveRegistration(_ registration: Registration) throws -> Registration {
        let stored = registration.atStoragePrecision
        // One statement: a same-account save keeps createdAt, another account's takes the row over.
        let createdAt = try write { db -> Int64 in
            let row = try db.query("""
                INSERT INTO registrations (\(StoreColumns.registration)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                ON CONFLICT (id) DO UPDATE SET
                    created_at = CASE WHEN registrations.account = EXCLUDED.account
                                      THEN registrations.created_at ELSE EXCLUDED.created_at END,
                    last_delivery_at = CASE WHEN registrations.account = EXCLUDED.account
                                            THEN registrations.last_delivery_at END,
                    last_outcome = CASE WHEN registrations.account = EXCLUDED.account THEN registrations.last_outcome END,
                    account = EXCLUDED.account, device_id = EXCLUDED.device_id, platform = EXCLUDED.platform,
                    token = EXCLUDED.token, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, app_id = EXCLUDED.app_id,
                    environment = EXCLUDED.environment, updated_at = EXCLUDED.updated_at
                RETURNING created_at
                """, [.text(stored.id), .text(stored.account), .text(stored.deviceId), .text(stored.address.platform.rawValue),
                      .text(stored.address.token), .optionalBytes(stored.address.p256dh), .optionalBytes(stored.address.auth), .text(stored.address.appId),
                      .text(stored.address.environment), .integer(stored.createdAt.unixMilliseconds),
                      .integer(stored.updatedAt.unixMilliseconds)])
            // A device holds one token per platform and app: a new one replaces the rotated one.
            try db.run("""
                DELETE FROM registrations WHERE account = $1 AND device_id = $2 AND platform = $3 AND app_id = $4 AND id <> $5
                """, [.text(stored.account), .text(stored.deviceId), .text(stored.address.platform.rawValue), .text(stored.address.appId),
                      .text(stored.id)])
            return row.row(0).int64(0)
        }
        var result = stored
        result.createdAt = Date(unixMilliseconds: createdAt)
        return result
    }

    package func registrations(ofAccount account: String) throws -> [Registration] {
        try read { db in
            try db.query("""
                SELECT \(StoreColumns.registrationWithOutcome) FROM registrations WHERE account = $1
                ORDER BY created_at, id
                """, [.text(account)]).rows.map { try Registration(row: $0, withOutcome: true) }
        }
    }

    package func registration(id: String) throws -> Registration? {
        try read { db in
            try db.query("SELECT \(StoreColumns.registration) FROM registrations WHERE id = $1", [.text(id)])
                .rows.first.map { try Registration(row: $0) }
        }
    }
}

extension PostgresStore: SQLStore {
    package func writeStatement(_ sql: String, _ parameters: [SQLParameter]) throws -> Int {
        try write { db in try db.run(sql, parameters.map(PGValue.init)) }
    }

    package func readRows<T>(_ sql: String, _ parameters: [SQLParameter], _ map: (any StoreRow) throws -> T) throws -> [T] {
        try read { db in try db.query(sql, parameters.map(PGValue.init)).rows.map { try map($0) } }
    }
}
