import Foundation
import PushProtocol
import PushSupport

/// `pushnode check [--config FILE]`: validates the config and the credential files it names and
/// prints the live platforms as JSON; exits 2 with every problem on stderr otherwise.
func runCheck(_ args: Arguments) throws {
    let loaded = try loadConfig(args)
    let config = loaded.config
    let issues = config.credentialIssues()
    guard issues.isEmpty else { throw CLIError("invalid configuration:\n" + issues.joined(separator: "\n")) }
    let platforms = Platform.allCases.filter(config.enabledPlatforms.contains).map(\.rawValue)
    let disabled = Provider.allCases.filter { provider in
        !provider.platforms.allSatisfy(config.enabledPlatforms.contains)
    }.map(\.rawValue)
    Output.json([
        "ok": true,
        "listen": config.listen.description,
        "adminListen": config.adminListen?.description ?? "",
        "platforms": platforms,
        "disabledProviders": disabled,
        "warnings": loaded.warnings + config.unconfiguredProviderWarnings.map(\.fieldText),
    ])
}
