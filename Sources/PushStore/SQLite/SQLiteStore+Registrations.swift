import Foundation
import PushProtocol

extension SQLiteStore {
    package func saveRegistration(_ registration: Registration) throws -> Registration {
        try write { db in
            var stored = registration
            let previous = try db.queryFirst("SELECT account, created_at FROM registrations WHERE id = ?",
                                             [.text(registration.id)]) { ($0.text(0), $0.int64(1)) }
            if let previous, previous.0 == registration.account {
                stored.createdAt = Date(unixMilliseconds: previous.1)
            }
            // An upsert, not a REPLACE: the same account keeps the last outcome and delivery; another
            // account taking the token over starts without them.
            try db.run("""
                INSERT INTO registrations (\(StoreColumns.registration)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET
                    last_delivery_at = CASE WHEN account = excluded.account THEN last_delivery_at END,
                    last_outcome = CASE WHEN account = excluded.account THEN last_outcome END,
                    account = excluded.account, device_id = excluded.device_id, platform = excluded.platform,
                    token = excluded.token, p256dh = excluded.p256dh, auth = excluded.auth, app_id = excluded.app_id,
                    environment = excluded.environment, created_at = excluded.created_at, updated_at = excluded.updated_at
                """, [.text(stored.id), .text(stored.account), .text(stored.deviceId), .text(stored.address.platform.rawValue),
                      .text(stored.address.token), .optionalBlob(stored.address.p256dh), .optionalBlob(stored.address.auth), .text(stored.address.appId),
                      .text(stored.address.environment), .integer(stored.createdAt.unixMilliseconds),
                      .integer(stored.updatedAt.unixMilliseconds)])
            // A device holds one token per platform and app: a new one replaces the rotated one.
            try db.run("""
                DELETE FROM registrations WHERE account = ? AND device_id = ? AND platform = ? AND app_id = ? AND id <> ?
                """, [.text(stored.account), .text(stored.deviceId), .text(stored.address.platform.rawValue), .text(stored.address.appId),
                      .text(stored.id)])
            return stored.atStoragePrecision
        }
    }

    package func registrations(ofAccount account: String) throws -> [Registration] {
        try read { db in
            try db.query("""
                SELECT \(StoreColumns.registrationWithOutcome) FROM registrations WHERE account = ?
                ORDER BY created_at, id
                """, [.text(account)]) { try Registration(row: $0, withOutcome: true) }
        }
    }

    package func registration(id: String) throws -> Registration? {
        try read { db in
            try db.queryFirst("SELECT \(StoreColumns.registration) FROM registrations WHERE id = ?", [.text(id)]) {
                try Registration(row: $0)
            }
        }
    }
}

extension SQLiteStore: SQLStore {
    package func writeStatement(_ sql: String, _ parameters: [SQLParameter]) throws -> Int {
        try write { db in try db.run(sql, parameters.map(SQLiteValue.init)) }
    }

    package func readRows<T>(_ sql: String, _ parameters: [SQLParameter], _ map: (any StoreRow) throws -> T) throws -> [T] {
        try read { db in try db.query(sql, parameters.map(SQLiteValue.init)) { try map($0) } }
    }
}
