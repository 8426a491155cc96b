import Foundation
import PushProtocol

extension MemoryStore {
    package func saveRegistration(_ registration: Registration) throws -> Registration {
        try write { tables in
            var stored = registration.atStoragePrecision
            if let previous = tables.registrations[registration.id], previous.account == registration.account {
                stored.createdAt = previous.createdAt
            }
            // The same account keeps the last outcome and delivery; another account starts without them.
            let previous = tables.registrations[registration.id].flatMap { $0.account == stored.account ? $0 : nil }
            var kept = stored
            (kept.lastDeliveryAt, kept.lastOutcome) = (previous?.lastDeliveryAt, previous?.lastOutcome)
            tables.insert(kept)
            // A device holds one token per platform and app: a new one replaces the rotated one.
            for id in tables.registrationIDs[stored.account] ?? [] where id != stored.id {
                guard let other = tables.registrations[id] else { continue }
                if stored.replaces(other) { tables.removeRegistration(id) }
            }
            return stored
        }
    }

    package func registrations(ofAccount account: String) throws -> [Registration] {
        try read { $0.registrations(ofAccount: account) }
    }

    package func registration(id: String) throws -> Registration? {
        try read { tables in
            tables.registrations[id].map { registration in
                var found = registration
                (found.lastDeliveryAt, found.lastOutcome) = (nil, nil)
                return found
            }
        }
    }

    package func deleteRegistrations(ofAccount account: String, deviceId: String) throws -> Int {
        try write { tables in
            tables.removeRegistrations(ofAccount: account) { $0.deviceId == deviceId }
        }
    }

    package func deleteRegistrations(ofAccount account: String, platform: Platform, token: String) throws -> Int {
        try write { tables in
            tables.removeRegistrations(ofAccount: account) { $0.address.platform == platform && $0.address.token == token }
        }
    }

    package func pruneRegistration(_ registrationId: String, notUpdatedAfter: Date) throws -> Bool {
        // Both sides at millisecond precision, where the comparison is the SQL stores' one.
        let horizon = Date(unixMilliseconds: notUpdatedAfter.unixMilliseconds)
        return try write { tables in
            guard let registration = tables.registrations[registrationId], registration.updatedAt <= horizon else {
                return false
            }
            return tables.removeRegistration(registrationId)
        }
    }
}

private extension MemoryTables {
    /// Removes the account's registrations that `matches` selects; returns how many.
    mutating func removeRegistrations(ofAccount account: String, where matches: (Registration) -> Bool) -> Int {
        let doomed = (registrationIDs[account] ?? []).filter { registrations[$0].map(matches) ?? false }
        for id in doomed { removeRegistration(id) }
        return doomed.count
    }
}

extension MemoryStore {
    package func registrationCounts() throws -> [Platform: Int] {
        try read { tables in tables.registrations.values.reduce(into: [:]) { $0[$1.address.platform, default: 0] += 1 } }
    }

    package func registrationCountsByApp() throws -> [String: Int] {
        try read { tables in tables.registrations.values.reduce(into: [:]) { $0[$1.address.appId, default: 0] += 1 } }
    }
}
