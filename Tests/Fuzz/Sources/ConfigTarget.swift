@testable import PushConfig

/// `config.yaml` through libyaml and the schema (`ConfigLoader.load(yaml:)`), with a few
/// `PUSHNODE_*` variables taken from the input's last line so the environment path is reached too.
enum ConfigTarget {
    static func run(_ bytes: [UInt8]) {
        let text = bytes.text
        let lastLine = text.split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        let environment = ["PUSHNODE_LIMITS_MAX_BODY_BYTES": lastLine, "PUSHNODE_ANYSYNC_PROTOCOL_VERSIONS": lastLine]
        _ = try? ConfigLoader.load(yaml: text)
        _ = try? ConfigLoader.load(yaml: text, environment: environment)
    }
}
