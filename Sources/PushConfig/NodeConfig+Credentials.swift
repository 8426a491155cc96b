import Foundation
import PushProtocol
import PushSupport

extension NodeConfig {
    /// Checks that every credential file that is set can be read and looks like what it should
    /// be (PROTOCOL §7: set but unreadable or malformed credentials stop the start, naming the
    /// key). Only the shape is checked here; the gateways parse the keys themselves.
    package func credentialIssues() -> [String] {
        var issues: [String] = []
        func read(_ key: String, _ path: String) -> String? {
            guard !path.isEmpty else { return nil }
            guard let data = FileManager.default.contents(atPath: path) else {
                issues.append("\(key): cannot read \(path)")
                return nil
            }
            guard let text = String(data: data, encoding: .utf8) else {
                issues.append("\(key): \(path) is not a text file")
                return nil
            }
            return text
        }
        for (index, app) in allApps.enumerated() {
            let prefix = Self.keyPrefix(ofApp: index)
            if let text = read(prefix + "fcm.credentialsPath", app.fcm.credentialsPath) {
                let object = JSON.object(text.utf8)
                if object?["client_email"] is String == false || object?["private_key"] is String == false {
                    issues.append("\(prefix)fcm.credentialsPath: \(app.fcm.credentialsPath) is not a service-account JSON (client_email and private_key required)")
                }
            }
            if let text = read(prefix + "harmony.serviceAccountPath", app.harmony.serviceAccountPath) {
                let object = JSON.object(text.utf8)
                if ["key_id", "sub_account", "private_key"].contains(where: { object?[$0] is String == false }) {
                    issues.append("\(prefix)harmony.serviceAccountPath: \(app.harmony.serviceAccountPath) is not a Huawei service-account JSON "
                                  + "(key_id, sub_account and private_key required)")
                }
            }
            if let text = read(prefix + "apns.keyPath", app.apns.keyPath), !text.contains("-----BEGIN PRIVATE KEY-----") {
                issues.append("\(prefix)apns.keyPath: \(app.apns.keyPath) is not a PEM private key (.p8)")
            }
            if let text = read(prefix + "webpush.vapidKeyPath", app.webpush.vapidKeyPath), !text.contains("PRIVATE KEY-----") {
                issues.append("\(prefix)webpush.vapidKeyPath: \(app.webpush.vapidKeyPath) is not a PEM private key")
            }
        }
        if let text = read("tls.caFile", tls.caFile), !text.contains("-----BEGIN CERTIFICATE-----") {
            issues.append("tls.caFile: \(tls.caFile) holds no PEM certificate")
        }
        _ = read("anysync.peerKeyPath", anysync.peerKeyPath)
        return issues
    }
}
