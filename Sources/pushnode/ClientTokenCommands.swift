import Foundation
import PushClient
import PushProtocol

/// `pushnode client token set|revoke|list --account FILE [--node URL] [--ca-file PEM] …`.
///
/// - `set --device ID --platform P --token T [--p256dh B64URL --auth B64URL] [--environment E] [--app-id A]`
///   → `{"registrationId"}`
/// - `revoke (--device ID | --token T --platform P)` → `{"success": true}`
/// - `list` → `{"registrations": [...]}` (never tokens)
/// - `test --registration ID` → what the provider said to one test push (`POST /v1/tokens/test`)
enum ClientTokenCommands {
    static func set(_ args: Arguments) throws {
        let context = try ClientContext(args)
        let (device, platform, token) = (try args.required("device"), try platform(args), try args.required("token"))
        let registration: PushSubscriber.TokenRegistration
        do {
            registration = try .init(deviceId: device, platform: platform, token: token, p256dh: args.options["p256dh"],
                                     auth: args.options["auth"], appId: args.options["app-id"],
                                     environment: args.options["environment"])
        } catch { throw context.failure(error, platform: platform) }
        let subscriber = context.subscriber
        let id = try context.call(platform: registration.platform) { try await subscriber.setToken(registration) }
        Output.json(["registrationId": id])
        if registration.platform == .apnsVoip { Output.hint(ErrorHints.voipTakesOnlyCalls) }
    }

    static func revoke(_ args: Arguments) throws {
        let context = try ClientContext(args)
        let subscriber = context.subscriber
        let result: PushSubscriber.RevokeResult
        if let device = args.options["device"] {
            result = try context.call { await subscriber.revokeToken(deviceId: device) }
        } else {
            let token = try args.required("token")
            let platform = try platform(args)
            result = try context.call { await subscriber.revokeToken(token: token, platform: platform) }
        }
        switch result {
        case .revoked: Output.json(["success": true])
        case .abandoned(let error): throw context.failure(error)
        case .retryingInBackground: throw CLIError("the node at \(context.nodeURL) did not answer; the revoke was not confirmed")
        }
    }

    static func list(_ args: Arguments) throws {
        let context = try ClientContext(args)
        let subscriber = context.subscriber
        let registrations = try context.call { try await subscriber.registrations() }
        Output.json(["registrations": registrations.map { r -> [String: Any] in
            ["registrationId": r.registrationId, "deviceId": r.deviceId, "platform": r.platform.rawValue,
             "appId": r.appId, "environment": r.environment, "createdAt": r.createdAt, "updatedAt": r.updatedAt]
        }])
    }

    static func test(_ args: Arguments) throws {
        let context = try ClientContext(args)
        let subscriber = context.subscriber
        let id = try args.required("registration")
        let r = try context.call { try await subscriber.testToken(registrationId: id) }
        var document: [String: Any] = ["registrationId": r.registrationId, "app": r.app, "platform": r.platform.rawValue,
                                       "outcome": r.outcome.rawValue, "status": r.status, "latencyMs": r.latencyMs]
        if let reason = r.reason { document["reason"] = reason }
        if let providerReason = r.providerReason { document["providerReason"] = providerReason }
        Output.json(document)
    }

    private static func platform(_ args: Arguments) throws -> Platform {
        let text = try args.required("platform")
        guard let platform = Platform(rawValue: text) else {
            throw CLIError("--platform must be one of \(Platform.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return platform
    }
}
