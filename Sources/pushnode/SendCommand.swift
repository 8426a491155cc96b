import Foundation
import PushCrypto
import PushNode
import PushProtocol
import PushSupport

/// `pushnode send --platform P --token T [--p256dh K --auth A] [--environment E] [--kind K]
/// [--ttl S] [--config FILE]`: one test push through the configured gateways; prints the
/// provider's status, its answer (shortened, token cut out) and the classification as JSON.
/// Exit 0 when delivered, 1 when not, 2 on bad input.
func runSend(_ args: Arguments) throws {
    let loaded = try loadConfig(args)
    let platformName = try args.required("platform")
    guard let platform = Platform(rawValue: platformName) else {
        throw CLIError("--platform must be one of \(Platform.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    let token = try args.required("token")
    var kind = NotifyKind.message
    if let name = args.options["kind"] {
        guard let parsed = NotifyKind(rawValue: name) else { throw CLIError("--kind must be one of \(NotifyKind.allCases.map(\.rawValue).joined(separator: ", "))") }
        kind = parsed
    }
    var ttl = 60
    if let text = args.options["ttl"] {
        guard let value = Int(text), (1...2_419_200).contains(value) else { throw CLIError("--ttl must be 1–2419200 seconds") }
        ttl = value
    }
    if platform == .webpush, args.options["p256dh"] == nil || args.options["auth"] == nil {
        throw CLIError("webpush needs --p256dh and --auth")
    }
    var environment = args.options["environment"] ?? ""
    if platform.provider == .apns && environment.isEmpty { environment = "production" }
    let address = DeliveryAddress(platform: platform, token: token,
                                  p256dh: args.options["p256dh"].flatMap { try? Base64.decodeURL($0) },
                                  auth: args.options["auth"].flatMap { try? Base64.decodeURL($0) }, environment: environment)
    let target = TestPush.Target(address: address, kind: kind, ttl: ttl)
    let report: TestPush.Report
    do { report = try TestPush.send(target, config: loaded.config) } catch { throw CLIError(error.description) }
    var object: [String: Any] = ["provider": report.provider.rawValue, "platform": platform.rawValue,
                                 "outcome": report.outcome]
    if let status = report.status { object["status"] = status }
    if let body = report.body { object["body"] = body }
    if let error = report.transportError { object["transportError"] = error }
    if let reason = report.reason { object["reason"] = reason.rawValue }
    if let detail = report.detail { object["detail"] = detail }
    Output.json(object)
    if let hint = ErrorHints.forReason(report.reason) { Output.hint(hint) }
    exit(report.delivered ? 0 : 1)
}
