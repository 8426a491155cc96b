import Foundation
import PushProtocol

extension SQLiteStore {
    static let registrationColumns =
        "id, account, deviceId, platform, token, p256dh, auth, appId, environment, createdAt, updatedAt"

    /// Reads a registration from columns `offset…offset+10` in `registrationColumns` order.
    package static func registration(_ row: SQLiteRow, offset: Int32 = 0) throws -> Registration {
        let platformName = row.text(offset + 3)
        guard let platform = Platform(rawValue: platformName) else {
            throw StoreError.corruptRecord("unknown platform \(platformName)")
        }
        return Registration(
            id: row.text(offset), account: row.text(offset + 1), deviceId: row.text(offset + 2), platform: platform,
            token: row.text(offset + 4), p256dh: row.optionalBlob(offset + 5), auth: row.optionalBlob(offset + 6),
            appId: row.text(offset + 7), environment: row.text(offset + 8),
            createdAt: Date(unixMilliseconds: row.int64(offset + 9)), updatedAt: Date(unixMilliseconds: row.int64(offset + 10)))
    }

    package func saveRegistration(_ registration: Registration) throws -> Registration {
        try write { db in
            var stored = registration
            let previous = try db.queryFirst("SELECT account, createdAt FROM registrations WHERE id = ?",
                                             [.text(registration.id)]) { ($0.text(0), $0.int64(1)) }
            if let previous, previous.0 == registration.account {
                stored.createdAt = Date(unixMilliseconds: previous.1)
            }
            // An upsert, not a REPLACE: the same account keeps the last outcome and delivery; another
            // account taking the token over starts without them.
            try db.run("""
                INSERT INTO registrations (\(Self.registrationColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET
                    lastDeliveryAt = CASE WHEN account = excluded.account THEN lastDeliveryAt END,
                    lastOutcome = CASE WHEN account = excluded.account THEN lastOutcome END,
                    account = excluded.account, deviceId = excluded.deviceId, platform = excluded.platform,
                    token = excluded.token, p256dh = excluded.p256dh, auth = excluded.auth, appId = excluded.appId,
                    environment = excluded.environment, createdAt = excluded.createdAt, updatedAt = excluded.updatedAt
                """, [.text(stored.id), .text(stored.account), .text(stored.deviceId), .text(stored.platform.rawValue),
                      .text(stored.token), .optionalBlob(stored.p256dh), .optionalBlob(stored.auth), .text(stored.appId),
                      .text(stored.environment), .integer(stored.createdAt.unixMilliseconds),
                      .integer(stored.updatedAt.unixMilliseconds)])
            // A device holds one token per platform and app: a new one replaces the rotated one.
            try db.run("""
                DELETE FROM registrations WHERE account = ? AND deviceId = ? AND platform = ? AND appId = ? AND id <> ?
                """, [.text(stored.account), .text(stored.deviceId), .text(stored.platform.rawValue), .text(stored.appId),
                      .text(stored.id)])
            return stored.atStoragePrecision
        }
    }

    package func registrations(ofAccount account: String) throws -> [Registration] {
        try read { db in
            try db.query("""
                SELECT \(Self.registrationColumns), lastDeliveryAt, lastOutcome FROM registrations WHERE account = ?
                ORDER BY createdAt, id
                """, [.text(account)]) { row in
                var registration = try Self.registration(row)
                registration.lastDeliveryAt = row.optionalInt64(11).map { Date(unixMilliseconds: $0) }
                registration.lastOutcome = row.optionalText(12)
                return registration
            }
        }
    }

    package func deleteRegistrations(ofAccount account: String, deviceId: String) throws -> Int {
        try write { db in
            try db.run("DELETE FROM registrations WHERE account = ? AND deviceId = ?", [.text(account), .text(deviceId)])
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
            try db.run("DELETE FROM registrations WHERE id = ? AND updatedAt <= ?",
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
}
