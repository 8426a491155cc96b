import Foundation

/// Reads `config.yaml` (or nothing: the embedded default), applies `PUSHNODE_*` environment
/// overrides (the variable wins over the file), and validates.
///
/// Unknown keys are warnings (in an `apps` entry, errors: `ConfigLoader+Apps.swift`); values of the wrong type or form are errors naming the key (and
/// the variable, when the value came from one). Values of free-form string keys are never
/// repeated in messages, since some (`storage.url`) may hold secrets.
package enum ConfigLoader {
    /// A usable configuration and the warnings to log once.
    package struct Loaded: Sendable {
        package var config: NodeConfig
        package var warnings: [String]
    }

    /// Loads from a file, or the embedded default when `path` is nil.
    package static func load(path: String?,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws(ConfigError) -> Loaded {
        guard let path else { return try load(yaml: "", environment: environment) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(["cannot read config file \(path)"])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(["config file \(path) is not UTF-8"])
        }
        return try load(yaml: text, environment: environment)
    }

    /// Loads from YAML text (empty = all defaults).
    package static func load(yaml: String, environment: [String: String] = [:]) throws(ConfigError) -> Loaded {
        let root: YAMLNode
        do {
            root = try YAMLNode.parse(yaml)
        } catch {
            throw ConfigError(["config is not valid YAML: \(error)"])
        }
        let keys = ConfigKey.all
        var scalars: [String: String] = [:]
        var issues: [String] = []
        var warnings: [String] = []
        var appsPair: YAMLNode.Pair?
        var matrixApps: YAMLNode.Pair?
        if !root.isNull {
            guard case .mapping(var pairs) = root else { throw ConfigError(["config must be a mapping of keys"]) }
            if let at = pairs.firstIndex(where: { $0.key == "apps" }) { appsPair = pairs.remove(at: at) }
            matrixApps = takeMatrixLists(&pairs)
            var unknown: [UnknownKey] = []
            flatten(pairs, prefix: "", keys: keys, into: &scalars, issues: &issues, unknown: &unknown)
            warnings += unknown.map { "unknown config key \($0.path) (line \($0.line)) ignored" }
        }

        var config = NodeConfig()
        for key in keys {
            let fromEnvironment = environment[key.environmentName]
            guard let text = fromEnvironment ?? scalars[key.path] else { continue }
            do {
                try key.apply(&config, text)
            } catch {
                let name = fromEnvironment != nil ? "\(key.environmentName) (\(key.path))" : key.path
                issues.append("\(name): \(error.message)")
            }
        }
        config.apps = apps(appsPair?.value, line: appsPair?.line ?? 0, base: config, environment: environment,
                           issues: &issues, warnings: &warnings)
        config.matrix.apps = self.matrixApps(matrixApps, apps: Set([NodeConfig.App.defaultID] + config.apps.map(\.id)),
                                             issues: &issues)
        validate(config, issues: &issues, warnings: &warnings)
        guard issues.isEmpty else { throw ConfigError(issues) }
        return Loaded(config: config, warnings: warnings)
    }

    /// A key `flatten` does not know, for the caller to judge (a warning at the top level, an
    /// error in an `apps` entry).
    struct UnknownKey {
        var path: String
        var line: Int
    }

    /// Collects `section.key → scalar text` for known keys; nulls are left out (= default).
    static func flatten(_ pairs: [YAMLNode.Pair], prefix: String, keys: [ConfigKey],
                        into scalars: inout [String: String], issues: inout [String], unknown: inout [UnknownKey]) {
        var seen: Set<String> = []
        for pair in pairs {
            let path = prefix.isEmpty ? pair.key : prefix + "." + pair.key
            guard seen.insert(pair.key).inserted else {
                issues.append("\(path): duplicate key (line \(pair.line))")
                continue
            }
            let isKey = keys.contains { $0.path == path }
            let isSection = keys.contains { $0.path.hasPrefix(path + ".") }
            switch pair.value {
            case _ where pair.value.isNull:
                continue
            case .scalar(let text, _) where isKey:
                scalars[path] = text
            case .mapping(let inner) where isSection:
                flatten(inner, prefix: path, keys: keys, into: &scalars, issues: &issues, unknown: &unknown)
            case _ where isKey:
                issues.append("\(path): expected a single value (line \(pair.line))")
            case _ where isSection:
                issues.append("\(path): expected a mapping of keys (line \(pair.line))")
            default:
                unknown.append(UnknownKey(path: path, line: pair.line))
            }
        }
    }

    /// Rules that span keys.
    private static func validate(_ config: NodeConfig, issues: inout [String], warnings: inout [String]) {
        if config.delivery.maxBackoff < config.delivery.initialBackoff {
            issues.append("delivery.maxBackoff: must not be shorter than delivery.initialBackoff")
        }
        if config.storage.driver == .postgres && config.storage.url.isEmpty {
            issues.append("storage.url: required when storage.driver is postgres")
        }
        if let admin = config.adminListen, admin == config.listen, admin.port != 0 {
            issues.append("adminListen: must differ from listen")
        }
        let missing = config.apns.missingKeys
        if !missing.isEmpty && missing.count < 4 {
            warnings.append("APNs is off: \(missing.joined(separator: ", ")) unset while other apns keys are set")
        }
    }
}
