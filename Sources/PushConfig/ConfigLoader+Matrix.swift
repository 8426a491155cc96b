import PushMatrix
import PushProtocol

/// The two list keys of the `matrix` section (PROTOCOL §10 "Matrix Push Gateway door"):
/// `allowedSources`, a list of CIDR blocks (or, like `PUSHNODE_MATRIX_ALLOWED_SOURCES`, one
/// comma-separated string), and `apps`, a list of `{appId, app, platform, environment?}`.
extension ConfigLoader {
    /// Takes `matrix.apps` out of the document (the scalar keys are read the usual way) and turns a
    /// list under `matrix.allowedSources` into its comma-separated form.
    static func takeMatrixLists(_ pairs: inout [YAMLNode.Pair]) -> YAMLNode.Pair? {
        guard let at = pairs.firstIndex(where: { $0.key == "matrix" }), case .mapping(var inner) = pairs[at].value else { return nil }
        var apps: YAMLNode.Pair?
        if let index = inner.firstIndex(where: { $0.key == "apps" }) { apps = inner.remove(at: index) }
        if let index = inner.firstIndex(where: { $0.key == "allowedSources" }), case .sequence(let items) = inner[index].value {
            let texts = items.compactMap { item -> String? in
                if case .scalar(let text, _) = item { return text }
                return nil
            }
            inner[index].value = texts.count == items.count ? .scalar(texts.joined(separator: ","), plain: false) : .mapping([])
        }
        pairs[at].value = .mapping(inner)
        return apps
    }

    /// The entries of `matrix.apps`, each checked against the node's apps (`apps`: the app ids
    /// the config defines, `default` among them).
    static func matrixApps(_ pair: YAMLNode.Pair?, apps: Set<String>, issues: inout [String]) -> [MatrixAppRoute] {
        guard let pair, !pair.value.isNull else { return [] }
        guard case .sequence(let entries) = pair.value else {
            issues.append("matrix.apps: expected a list of {appId, app, platform} (line \(pair.line))")
            return []
        }
        var routes: [MatrixAppRoute] = []
        for (index, entry) in entries.enumerated() {
            let name = "matrix.apps[\(index)]"
            guard case .mapping(let members) = entry else {
                issues.append("\(name): expected a mapping {appId, app, platform, environment?}")
                continue
            }
            var fields: [String: String] = [:]
            for member in members {
                guard ["appId", "app", "platform", "environment"].contains(member.key) else {
                    issues.append("\(name).\(member.key): unknown key (line \(member.line))")
                    continue
                }
                guard case .scalar(let text, _) = member.value else {
                    issues.append("\(name).\(member.key): expected a single value (line \(member.line))")
                    continue
                }
                fields[member.key] = text
            }
            if let route = matrixRoute(fields, name: name, apps: apps, issues: &issues) { routes.append(route) }
        }
        return routes
    }

    private static func matrixRoute(_ fields: [String: String], name: String, apps: Set<String>,
                                    issues: inout [String]) -> MatrixAppRoute? {
        let count = issues.count
        let appId = fields["appId"] ?? ""
        if appId.isEmpty || appId == "*" || appId.utf8.count > 256 {
            issues.append("\(name).appId: required, a pusher app_id or a prefix ending in * (at most 256 bytes)")
        }
        let app = fields["app"] ?? "default"
        if !apps.contains(app) {
            issues.append("\(name).app: no app \"\(app)\" (known: \(apps.sorted().joined(separator: ", ")))")
        }
        let platform = fields["platform"].flatMap(Platform.init(rawValue:))
        if platform == nil || !MatrixAppRoute.platforms.contains(platform!) {
            issues.append("\(name).platform: expected one of \(MatrixAppRoute.platforms.map(\.rawValue).joined(separator: ", "))")
        }
        let environment = fields["environment"] ?? ""
        if !environment.isEmpty && (platform != .apns || !["production", "development"].contains(environment)) {
            issues.append("\(name).environment: only for apns, production or development")
        }
        guard issues.count == count, let platform else { return nil }
        return MatrixAppRoute(appId: appId, app: app, platform: platform, environment: environment)
    }
}
