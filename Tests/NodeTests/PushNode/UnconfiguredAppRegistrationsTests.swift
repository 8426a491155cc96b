import Testing
@testable import PushConfig
@testable import PushNode
import PushSupport

/// The start's warning about registrations stored under an app the config does not have
/// (PROTOCOL §10): one record, counts per `appId`, nothing for configured apps.
@Suite struct UnconfiguredAppRegistrationsTests {
    var config: NodeConfig {
        var config = NodeConfig()
        config.apps = [NodeConfig.App(id: "chat")]
        return config
    }

    @Test func configuredAppsAndTheDefaultAreNotWarnedAbout() {
        #expect(UnconfiguredAppRegistrations.warning(counts: [:], config: config) == nil)
        #expect(UnconfiguredAppRegistrations.warning(counts: ["default": 5, "": 2, "chat": 3], config: config) == nil)
    }

    @Test func unconfiguredAppsAreCountedInOneWarning() throws {
        let record = try #require(UnconfiguredAppRegistrations.warning(
            counts: ["default": 5, "chat": 3, "old": 2, "gamma": 7], config: config))
        #expect(record.level == .warn && record.event == "registrations_app_unconfigured")
        #expect(record["registrations"] == .int(9))
        #expect(record["apps"] == .string("gamma=7,old=2"))
    }

    @Test func manyAppsAreCountedWithoutNamingEveryOne() throws {
        let counts = Dictionary(uniqueKeysWithValues: (0..<25).map { ("app\($0 < 10 ? "0" : "")\($0)" + String(repeating: "x", count: 100), 1) })
        let record = try #require(UnconfiguredAppRegistrations.warning(counts: counts, config: config))
        guard case .string(let apps) = record["apps"] else { Issue.record("no apps field"); return }
        let named = apps.split(separator: ",").map(String.init)
        let first: String = "app00" + String(repeating: "x", count: 59) + "=1"
        #expect(named.count == 21 && named.last == "(5 more apps)")
        #expect(named.first == first)
        #expect(record["registrations"] == .int(25))
    }
}
