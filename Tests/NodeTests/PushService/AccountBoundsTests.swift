import Foundation
import PushCrypto
import PushProtocol
import Testing
@testable import PushHTTP
@testable import PushService

/// `limits.maxRegistrationsPerAccount`, `limits.maxSpacesPerAccount` and the owner of a Web Push
/// endpoint (PROTOCOL §3, §7).
@Suite struct AccountBoundsTests {
    static func limits(registrations: Int = 64, spaces: Int = 256) -> PushService.Configuration {
        .init(limits: Limits(maxRegistrationsPerAccount: registrations, maxSpacesPerAccount: spaces))
    }

    @Test func registrationsPastTheLimitAreRefusedButReplacementsPass() throws {
        let fixture = try ServiceFixture(Self.limits(registrations: 3))
        let me = account(1)
        for device in ["a", "b", "c"] { try fixture.register(me, device: device) }
        let refused = serviceRefusal { try fixture.register(me, device: "d") }
        #expect(refused?.code == .accountLimitReached)
        #expect(refused.flatMap { ErrorStatus.byCode[$0.code] } == 409)
        // The same token again, and a rotated token of a device it holds, replace: no growth.
        try fixture.register(me, device: "a")
        try fixture.register(me, device: "b", token: "rotated")
        #expect(try fixture.service.listTokens(caller: me.accountID).registrations.count == 3)
        // Another account is not charged, and a revoke makes room again.
        try fixture.register(account(2), device: "d")
        _ = try fixture.service.revokeToken(.init(.device("c")), caller: me.accountID)
        try fixture.register(me, device: "d")
    }

    @Test func takingAnotherAccountsTokenCountsAgainstTheTaker() throws {
        let fixture = try ServiceFixture(Self.limits(registrations: 1))
        try fixture.register(account(1), device: "a", token: "shared")
        try fixture.register(account(2), device: "b")
        #expect(serviceRefusal { try fixture.register(account(2), device: "c", token: "shared") }?.code == .accountLimitReached)
        #expect(try fixture.service.listTokens(caller: account(1).accountID).registrations.count == 1)
    }

    @Test func spacesPastTheLimitAreRefusedAgainIsNoChange() throws {
        let fixture = try ServiceFixture(Self.limits(spaces: 2))
        let me = account(1).accountID
        let spaces = (1...3).map { TestSpace(seed: UInt8($0)) }
        for space in spaces.prefix(2) { _ = try fixture.service.createSpace(space.registration(for: me), caller: me) }
        _ = try fixture.service.createSpace(spaces[0].registration(for: me), caller: me)
        let refused = serviceRefusal { _ = try fixture.service.createSpace(spaces[2].registration(for: me), caller: me) }
        #expect(refused?.code == .accountLimitReached)
        #expect(refused.flatMap { ErrorStatus.byCode[$0.code] } == 409)
        #expect(try fixture.store.spaces(ofAccount: me.string).count == 2)
        _ = try fixture.service.removeSpace(spaces[1].registration(for: me), caller: me)
        _ = try fixture.service.createSpace(spaces[2].registration(for: me), caller: me)
    }

    @Test func aWebPushEndpointKeepsItsOwnerWithoutTheSameAuth() throws {
        let fixture = try ServiceFixture()
        let url = "https://push.example.net/wp/owned"
        _ = try fixture.service.setToken(TokenServiceTests.webpush(url), caller: account(1).accountID)
        let otherAuth = [UInt8](repeating: 7, count: 16)
        let refused = serviceRefusal {
            _ = try fixture.service.setToken(TokenServiceTests.webpush(url, auth: otherAuth), caller: account(2).accountID)
        }
        #expect(refused?.code == .tokenInUse)
        #expect(refused?.field == "token")
        #expect(refused.flatMap { ErrorStatus.byCode[$0.code] } == 409)
        #expect(try fixture.store.registrations(ofAccount: account(1).accountID.string).map(\.address.auth) == [validAuth])
        // The owner may change its own keys; a browser re-registering with the same auth moves it.
        _ = try fixture.service.setToken(TokenServiceTests.webpush(url, auth: otherAuth), caller: account(1).accountID)
        _ = try fixture.service.setToken(TokenServiceTests.webpush(url, auth: otherAuth), caller: account(2).accountID)
        #expect(try fixture.store.registrations(ofAccount: account(1).accountID.string).isEmpty)
        #expect(try fixture.store.registrations(ofAccount: account(2).accountID.string).count == 1)
    }
}
