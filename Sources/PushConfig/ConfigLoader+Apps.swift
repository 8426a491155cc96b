/// The `apps` list of `config.yaml` (PROTOCOL §10 "Apps").
///
/// Each entry is a mapping with an `id` and any of the provider sections `fcm`, `apns`,
/// `webpush`, `huawei`, `harmony`, whose keys are the top-level keys of the same name and parse the same way (one
/// home per key: `ConfigKey.all`). Unlike the top level, an unknown key in an entry is an error,
/// since a mistyped credential key would otherwise send an app's pushes with no credentials.
///
/// An entry's keys that say *where* (`fcm.baseURL`, `apns.useSandbox`, `apns.host`,
/// `apns.developmentHost`, `huawei.baseURL`, `huawei.tokenURL`, `harmony.baseURL`), the token timings (`apns.tokenRenewal`, `apns.tokenMinInterval`) and
/// `webpush.subject` default to the top-level value; credentials never do. `webpush.allowPrivateEndpoints` is the node's, not an app's.
///
/// Environment variables reach entries by position: `PUSHNODE_APPS_<i>_<KEY>`, `<i>` the
/// 0-based index of the entry in the file and `<KEY>` the top-level variable without
/// `PUSHNODE_` (`PUSHNODE_APPS_0_APNS_KEY_PATH` sets `apps[0].apns.keyPath`). They override keys
/// of entries the file has; they cannot add an entry or set an `id`.
extension ConfigLoader {
    /// The provider keys an entry may set.
    static var appKeys: [ConfigKey] {
        ConfigKey.all.filter { key in
            ["fcm.", "apns.", "webpush.", "huawei.", "harmony."].contains { key.path.hasPrefix($0) } && key.path != "webpush.allowPrivateEndpoints"
        }
    }

    static let appVariablePrefix = "PUSHNODE_APPS_"

    /// The entries of `apps`, each checked; every problem is added to `issues` naming its key
    /// (`apps[1].apns.keyPath`).
    static func apps(_ node: YAMLNode?, line: Int, base: NodeConfig, environment: [String: String],
                     issues: inout [String], warnings: inout [String]) -> [NodeConfig.App] {
        var entries: [YAMLNode] = []
        if let node, !node.isNull {
            guard case .sequence(let items) = node else {
                issues.append("apps: expected a list of apps (line \(line))")
                return []
            }
            entries = items
        }
        var apps: [NodeConfig.App] = []
        var ids: Set<String> = [NodeConfig.App.defaultID]
        for (index, entry) in entries.enumerated() {
            let prefix = "apps[\(index)]."
            guard let app = self.app(entry, index: index, base: base, environment: environment,
                                     issues: &issues, warnings: &warnings) else { continue }
            if app.id == NodeConfig.App.defaultID {
                issues.append("\(prefix)id: \"default\" is the app of the top-level sections")
            } else if !ids.insert(app.id).inserted {
                issues.append("\(prefix)id: duplicate app id \"\(app.id)\"")
            }
            apps.append(app)
        }
        for name in environment.keys.sorted() where name.hasPrefix(appVariablePrefix) {
            if appVariable(name, entries: entries.count) == nil {
                issues.append("\(name): no such key of an apps entry in the config file (PUSHNODE_APPS_<index>_<KEY>)")
            }
        }
        return apps
    }

    /// One entry, or nil when it is not a mapping.
    private static func app(_ entry: YAMLNode, index: Int, base: NodeConfig, environment: [String: String],
                            issues: inout [String], warnings: inout [String]) -> NodeConfig.App? {
        let prefix = "apps[\(index)]."
        guard case .mapping(var pairs) = entry else {
            issues.append("apps[\(index)]: expected a mapping with an id and provider sections")
            return nil
        }
        var id = ""
        if let at = pairs.firstIndex(where: { $0.key == "id" }) {
            if case .scalar(let text, _) = pairs[at].value { id = text } else {
                issues.append("\(prefix)id: expected a single value (line \(pairs[at].line))")
            }
            pairs.remove(at: at)
        }
        if id.isEmpty || id.count > 128 || id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            issues.append("\(prefix)id: required, 1–128 characters without control characters")
        }
        var scalars: [String: String] = [:]
        var entryIssues: [String] = []
        var unknown: [UnknownKey] = []
        flatten(pairs, prefix: "", keys: appKeys, into: &scalars, issues: &entryIssues, unknown: &unknown)
        issues += entryIssues.map { prefix + $0 }
        issues += unknown.map { "\(prefix)\($0.path): unknown key of an app (line \($0.line))" }

        // Where-keys and the subject default to the top level; credentials start empty.
        var scratch = NodeConfig()
        scratch.fcm.baseURL = base.fcm.baseURL
        scratch.apns.useSandbox = base.apns.useSandbox
        scratch.apns.host = base.apns.host
        scratch.apns.developmentHost = base.apns.developmentHost
        scratch.apns.tokenRenewal = base.apns.tokenRenewal
        scratch.apns.tokenMinInterval = base.apns.tokenMinInterval
        scratch.webpush.subject = base.webpush.subject
        scratch.huawei.baseURL = base.huawei.baseURL
        scratch.huawei.tokenURL = base.huawei.tokenURL
        scratch.harmony.baseURL = base.harmony.baseURL
        for key in appKeys {
            let variable = appVariablePrefix + "\(index)_" + key.environmentName.dropFirst("PUSHNODE_".count)
            let fromEnvironment = environment[variable]
            guard let text = fromEnvironment ?? scalars[key.path] else { continue }
            do {
                try key.apply(&scratch, text)
            } catch {
                let name = fromEnvironment != nil ? "\(variable) (\(prefix)\(key.path))" : prefix + key.path
                issues.append("\(name): \(error.message)")
            }
        }
        let missing = scratch.apns.missingKeys
        if !missing.isEmpty && missing.count < 4 {
            warnings.append("APNs is off for app \(id): \(missing.map { prefix + $0 }.joined(separator: ", ")) unset while other apns keys are set")
        }
        return NodeConfig.App(id: id, fcm: scratch.fcm, apns: scratch.apns, webpush: scratch.webpush,
                              huawei: scratch.huawei, harmony: scratch.harmony)
    }

    /// The entry index and key a `PUSHNODE_APPS_<i>_<KEY>` variable names, or nil when it names none.
    static func appVariable(_ name: String, entries: Int) -> (index: Int, key: ConfigKey)? {
        let rest = name.dropFirst(appVariablePrefix.count)
        guard let underscore = rest.firstIndex(of: "_"), let index = Int(rest[..<underscore]), (0..<entries).contains(index)
        else { return nil }
        let keyName = "PUSHNODE_" + rest[rest.index(after: underscore)...]
        guard let key = appKeys.first(where: { $0.environmentName == keyName }) else { return nil }
        return (index, key)
    }
}
