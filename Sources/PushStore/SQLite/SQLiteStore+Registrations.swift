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

    package func deleteRegistrations(ofAccount account: String, deviceId: String) throws -> Int {
        try write { db in
            try db.run("DELETE FROM registrations WHERE account = ? AND device_id = ?", [.text(account), .text(deviceId)])
        }
    }

    package func deleteRegistrations(ofAccount account: String, platform: Platform, token: String) throws -> Int {
        try write { db in
            try db.run("DELETE FROM registrations WHERE account = ? AND platform = ? AND token = ?",
                       [.text(account), .text(platform.rawValue), .text(token)])
        }
    }

    package func pruneRegistration(_ registrationId: String, notUpdatedAfter: Date) throws -> Bool {
        try write { db in
            try db.run("DELETE FROM registrations WHERE id = ? AND updated_at <= ?",
                       [.text(registrationId), .integer(notUpdatedAfter.unixMilliseconds)]) > 0
        }
    }
}

extension SQLiteStore {
    package func registrationCounts() throws -> [Platform: Int] {
        try read { db in
            let rows = try db.query("SELECT platform, count(*) FROM registrations GROUP BY platform") { row in
                (Platform(rawValue: row.text(0)), Int(row.int64(1)))
            }
            return rows.reduce(into: [:]) { counts, row in if let platform = row.0 { counts[platform] = row.1 } }
        }
    }

    package func registrationCountsByApp() throws -> [String: Int] {
        try read { db in
            let rows = try db.query("SELECT app_id, count(*) FROM registrations GROUP BY app_id") { row in
                (row.text(0), Int(row.int64(1)))
            }
            return Dictionary(uniqueKeysWithValues: rows)
        }
    }
}
