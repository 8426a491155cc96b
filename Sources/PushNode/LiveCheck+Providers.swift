import Foundation
import PushConfig
import PushDelivery
import PushProtocol

extension LiveCheck {
    /// The all-zero device token: APNs never issues it, so once the provider token, team and
    /// topic pass it answers 400 `BadDeviceToken` and nothing reaches a device.
    package static let dummyAPNsToken = String(repeating: "0", count: 64)

    /// Mints an access token the way the node does (assertion, token endpoint exchange).
    static func fcm(config: NodeConfig) -> Result {
        let assembly: DeliveryAssembly
        do { assembly = try DeliveryAssembly(config: config, platforms: [.android]) } catch {
            return Result("fcm", ok: false, error.description)
        }
        defer { assembly.transport.shutdown() }
        guard let credentials = assembly.route(for: .fcm)?.credentials else { return Result("fcm", ok: false, "no FCM route") }
        guard credentials.prepare(now: Date()) else {
            // The token endpoint's own words (`invalid_grant: Invalid JWT Signature.`) or why it
            // could not be reached (`transport.connect_failed`).
            return Result("fcm", ok: false, "no access token: " + (credentials.lastFailure ?? "none could be minted"))
        }
        return Result("fcm", ok: true, "access token minted by the service account's token_uri")
    }

    /// One push for the dummy token through the node's APNs gateway and transport.
    static func apns(config: NodeConfig) -> Result {
        let target = TestPush.Target(address: DeliveryAddress(
            platform: .apns, token: dummyAPNsToken, environment: config.apns.useSandbox ? "development" : "production"))
        let report: TestPush.Report
        do { report = try TestPush.send(target, config: config) } catch {
            return Result("apns", ok: false, error.description)
        }
        let host = config.apns.host.isEmpty ? (config.apns.useSandbox ? "sandbox" : "production") : "apns.host"
        if let transportError = report.transportError {
            return Result("apns", ok: false, "unreachable (\(host)): \(transportError)")
        }
        guard let status = report.status else {
            return Result("apns", ok: false, "refused before sending: \(report.reason?.rawValue ?? report.outcome)")
        }
        // The APNs gateway's classifier reads the answer; `detail` is APNs' own `reason`. A dead
        // token is the one refusal that proves key, team and topic were accepted.
        let words = report.detail ?? String(status)
        if report.delivered || report.reason == .apnsBadDeviceToken {
            return Result("apns", ok: true, "key, team and topic accepted (\(host): \(status) \(words) for a dummy token)")
        }
        return Result("apns", ok: false, "refused (\(host)): \(status) \(words)")
    }

    /// A token Huawei never issues: once the credential and the app or project pass, Push Kit
    /// answers 80300007 (all tokens invalid) and nothing reaches a device.
    package static let dummyPushKitToken = "pushnode-check-live-dummy-token"

    /// Mints the credential (`huawei`: an access token from `huawei.tokenURL`; `harmony`: a
    /// PS256 JWT) and sends one probe (`validate_only` on v1, a test message on v3) to the dummy
    /// token through the node's gateway and transport.
    static func pushKit(_ platform: Platform, config: NodeConfig) -> Result {
        let name = platform.rawValue
        let report: TestPush.Report
        do { report = try TestPush.send(TestPush.Target(address: DeliveryAddress(platform: platform, token: dummyPushKitToken)), config: config, probe: true) } catch {
            return Result(name, ok: false, error.description)
        }
        if let transportError = report.transportError {
            return Result(name, ok: false, "unreachable: \(transportError)")
        }
        guard let status = report.status else {
            return Result(name, ok: false, "no credential: \(report.detail ?? report.reason?.rawValue ?? report.outcome)")
        }
        // Push Kit's own result code, from the answer (a success has no reason to carry it).
        let answer = report.body.flatMap { JSON.object($0.utf8) }
        let words = "\(status) \(answer?["code"] as? String ?? report.detail ?? "")"
        switch report.classified {
        case .delivered, .dead:
            let what = platform == .huawei ? "access token and app id" : "service-account JWT and project id"
            return Result(name, ok: true, "\(what) accepted (\(words) for a dummy token)")
        default:
            return Result(name, ok: false, "refused: \(words)")
        }
    }

    /// The VAPID key a start would use.
    static func webPush(config: NodeConfig, app: NodeConfig.App? = nil) -> Result {
        do {
            guard let key = try VAPIDKeyFile.loadExisting(app: app ?? config.allApps[0], config: config) else {
                let place = config.storage.driver == .postgres ? "in the database" : "in dataDir"
                return Result("webpush", ok: true, "no VAPID key yet: the first start generates one \(place)")
            }
            return Result("webpush", ok: true, "VAPID key loads (public key \(key.publicKeyBase64URL))")
        } catch let error as VAPIDKeyFile.Failure {
            return Result("webpush", ok: false, error.description)
        } catch {
            // postgres mode: the shared key is read from the database.
            let cause = PostgresURL.redacting("\(error)", in: config.storage.url)
            return Result("webpush", ok: false, "cannot read the VAPID key stored in the database: \(cause)")
        }
    }
}
