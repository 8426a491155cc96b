import PushNet

/// One configuration key: its dotted path in `config.yaml`, its environment variable, and how a
/// scalar is applied to `NodeConfig`.
struct ConfigKey {
    let path: String
    let apply: (inout NodeConfig, String) throws(ConfigValueError) -> Void

    /// `PUSHNODE_` + the path's parts in upper snake case: `apns.keyPath` → `PUSHNODE_APNS_KEY_PATH`.
    var environmentName: String {
        "PUSHNODE_" + path.split(separator: ".").map { Self.upperSnake(String($0)) }.joined(separator: "_")
    }

    /// `keyPath` → `KEY_PATH`, `baseURL` → `BASE_URL`, `maxBodyBytes` → `MAX_BODY_BYTES`.
    static func upperSnake(_ camel: String) -> String {
        let chars = Array(camel)
        var out = ""
        for (i, c) in chars.enumerated() {
            if c.isUppercase, i > 0 {
                let previous = chars[i - 1]
                let nextIsLower = i + 1 < chars.count && chars[i + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) { out += "_" }
            }
            out += c.uppercased()
        }
        return out
    }

    static func string(_ path: String, _ keyPath: WritableKeyPath<NodeConfig, String>) -> ConfigKey {
        ConfigKey(path: path) { config, text throws(ConfigValueError) in config[keyPath: keyPath] = text }
    }

    static func int(_ path: String, _ keyPath: WritableKeyPath<NodeConfig, Int>, minimum: Int = 1) -> ConfigKey {
        ConfigKey(path: path) { config, text throws(ConfigValueError) in
            config[keyPath: keyPath] = try ConfigValue.int(text, minimum: minimum)
        }
    }

    static func number(_ path: String, _ keyPath: WritableKeyPath<NodeConfig, Double>) -> ConfigKey {
        ConfigKey(path: path) { config, text throws(ConfigValueError) in
            config[keyPath: keyPath] = try ConfigValue.number(text)
        }
    }

    /// One of an enumeration's raw values (`log.level`, `delivery.httpEngine`).
    static func oneOf<T: RawRepresentable & CaseIterable>(_ path: String, _ keyPath: WritableKeyPath<NodeConfig, T>) -> ConfigKey
        where T.RawValue == String {
        ConfigKey(path: path) { config, text throws(ConfigValueError) in
            config[keyPath: keyPath] = try ConfigValue.oneOf(text, T.self)
        }
    }

    static func bool(_ path: String, _ keyPath: WritableKeyPath<NodeConfig, Bool>) -> ConfigKey {
        ConfigKey(path: path) { config, text throws(ConfigValueError) in
            config[keyPath: keyPath] = try ConfigValue.bool(text)
        }
    }

    /// A duration that must be positive.
    static func duration(_ path: String, _ keyPath: WritableKeyPath<NodeConfig, Double>) -> ConfigKey {
        ConfigKey(path: path) { config, text throws(ConfigValueError) in
            let seconds = try ConfigValue.duration(text)
            guard seconds > 0 else { throw ConfigValueError("must be longer than 0") }
            config[keyPath: keyPath] = seconds
        }
    }

    static func url(_ path: String, _ keyPath: WritableKeyPath<NodeConfig, String>, optional: Bool) -> ConfigKey {
        ConfigKey(path: path) { config, text throws(ConfigValueError) in
            if !(optional && text.isEmpty) { try ConfigValue.url(text) }
            config[keyPath: keyPath] = text
        }
    }

    /// An address; the empty string means "off" when `optional`.
    static func address(_ path: String, _ keyPath: WritableKeyPath<NodeConfig, ListenAddress?>) -> ConfigKey {
        ConfigKey(path: path) { config, text throws(ConfigValueError) in
            config[keyPath: keyPath] = text.isEmpty ? nil : try ListenAddress(parsing: text)
        }
    }
}
