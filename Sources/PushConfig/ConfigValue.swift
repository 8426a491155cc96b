import Foundation
import PushNet

/// Parsers for the scalar forms configuration values take (from YAML or environment variables).
enum ConfigValue {
    static func int(_ text: String, minimum: Int) throws(ConfigValueError) -> Int {
        guard let n = Int(text.replacingUnderscores()) else { throw ConfigValueError("expected an integer, got \"\(text)\"") }
        guard n >= minimum else { throw ConfigValueError("must be at least \(minimum), got \(n)") }
        return n
    }

    static func number(_ text: String) throws(ConfigValueError) -> Double {
        guard let n = Double(text.replacingUnderscores()), n.isFinite else {
            throw ConfigValueError("expected a number, got \"\(text)\"")
        }
        guard n > 0 else { throw ConfigValueError("must be positive, got \(text)") }
        return n
    }

    /// One of an enumeration's raw values, e.g. `log.level`'s `debug|info|warn|error`.
    static func oneOf<T: RawRepresentable & CaseIterable>(_ text: String, _: T.Type) throws(ConfigValueError) -> T
        where T.RawValue == String {
        guard let value = T(rawValue: text) else {
            let names = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigValueError("expected one of \(names), got \"\(text)\"")
        }
        return value
    }

    static func bool(_ text: String) throws(ConfigValueError) -> Bool {
        switch text.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw ConfigValueError("expected true or false, got \"\(text)\"")
        }
    }

    /// A duration in seconds from `<number><unit>` with unit `ms`, `s`, `m` or `h` (`0` alone is
    /// also accepted).
    static func duration(_ text: String) throws(ConfigValueError) -> Double {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        if text == "0" { return 0 }
        for (unit, scale) in units where text.hasSuffix(unit) {
            let number = text.dropLast(unit.count)
            // "ms" also ends in "s": make sure the number part is a number.
            guard let value = Double(number), value.isFinite, value >= 0, !number.hasPrefix("+") else { continue }
            return value * scale
        }
        throw ConfigValueError("expected a duration like 300s, 10m, 1h or 500ms, got \"\(text)\"")
    }

    /// An absolute `http` or `https` URL with a host.
    static func url(_ text: String) throws(ConfigValueError) {
        let lower = text.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else {
            throw ConfigValueError("expected an http(s) URL")
        }
        let rest = text.drop { $0 != "/" }.dropFirst(2)
        guard let first = rest.first, first != "/", !text.contains(" ") else { throw ConfigValueError("expected an http(s) URL with a host") }
    }

    /// `low-high` or a single version.
    static func versionRange(_ text: String) throws(ConfigValueError) -> ClosedRange<Int> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let low = Int(parts[0]), let high = Int(parts[parts.count - 1]),
              low >= 0, low <= high else {
            throw ConfigValueError("expected a version range like 5-14, got \"\(text)\"")
        }
        return low...high
    }

    /// A comma-separated list of CIDR blocks (`10.0.0.0/8, ::1`); empty text is the empty list.
    static func networks(_ text: String) throws(ConfigValueError) -> [IPNetwork] {
        var networks: [IPNetwork] = []
        for part in text.split(separator: ",") {
            let item = part.trimmingCharacters(in: .whitespaces)
            guard let network = IPNetwork(item) else { throw ConfigValueError("\"\(item)\" is not an address or CIDR block") }
            networks.append(network)
        }
        return networks
    }
}

extension String {
    fileprivate func replacingUnderscores() -> String { String(filter { $0 != "_" }) }
}
