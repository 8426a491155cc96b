import Foundation
import PushNode
import PushProtocol
import PushSupport

/// `pushnode check [--config FILE] [--live]`: validates the config and the credential files it
/// names and prints the live platforms as JSON; exits 2 with every problem on stderr otherwise.
///
/// `--live` then asks each configured service (`LiveCheck`): the answer gains `"checks": [{"name",
/// "ok", "detail"}]` and `ok` is false, with exit status 1, when any service refused or could not
/// be reached.
func runCheck(_ args: Arguments) throws {
    let loaded = try loadConfig(args)
    let config = loaded.config
    let issues = config.credentialIssues()
    guard issues.isEmpty else { throw CLIError("invalid configuration:\n" + issues.joined(separator: "\n")) }
    let platforms = Platform.allCases.filter(config.enabledPlatforms.contains).map(\.rawValue)
    let disabled = Provider.allCases.filter { provider in
        !provider.platforms.allSatisfy(config.enabledPlatforms.contains)
    }.map(\.rawValue)
    var report: [String: Any] = [
        "ok": true,
        "listen": config.listen.description,
        "adminListen": config.adminListen?.description ?? "",
        "platforms": platforms,
        "disabledProviders": disabled,
        "warnings": loaded.warnings + config.unconfiguredProviderWarnings.map(\.fieldText),
    ]
    guard args.switches.contains("live") else { return Output.json(report) }
    let results = LiveCheck.run(config: config)
    report["checks"] = results.map { ["name": $0.name, "ok": $0.ok, "detail": $0.detail] as [String: Any] }
    let ok = results.allSatisfy(\.ok)
    report["ok"] = ok
    Output.json(report)
    if !ok { exit(1) }
}
