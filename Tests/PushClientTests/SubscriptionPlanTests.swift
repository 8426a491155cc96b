import PushProtocol
import Testing
@testable import PushClient

/// Every row of Spec/any-compat.md "Subscriber topic set from notifyMode".
@Suite struct SubscriptionPlanTests {
    static let me = "AMe"
    static let space = TestSpaceKeys.string("SpaceKey1")
    static let s1 = TestSpaceKeys.string("S1")
    static let s2 = TestSpaceKeys.string("S2")
    static let a = ChatTopics.groupId(chatId: "chatA")
    static let b = ChatTopics.groupId(chatId: "chatB")

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var spaceMode: NotifyMode?
        var chats: [ChatNotifySetting]
        var expected: Set<String>
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        // No per-chat override in the space: bulk topics.
        Row(name: "no override, space unset → all", spaceMode: nil,
            chats: [.init(chatId: "chatA"), .init(chatId: "chatB")], expected: ["chats", me]),
        Row(name: "no override, all", spaceMode: .all,
            chats: [.init(chatId: "chatA")], expected: ["chats", me]),
        Row(name: "no override, mentions", spaceMode: .mentions,
            chats: [.init(chatId: "chatA")], expected: [me]),
        Row(name: "no override, none", spaceMode: NotifyMode.none,
            chats: [.init(chatId: "chatA")], expected: []),
        Row(name: "no chats at all, all", spaceMode: .all, chats: [], expected: ["chats", me]),
        // Any override: per-chat topics for every chat, each with chat ?? space ?? all.
        Row(name: "one chat muted in an all space", spaceMode: .all,
            chats: [.init(chatId: "chatA", mode: NotifyMode.none), .init(chatId: "chatB")],
            expected: ["chats/\(b)", "chats/\(b)/\(me)"]),
        Row(name: "one chat muted in an unset space", spaceMode: nil,
            chats: [.init(chatId: "chatA", mode: NotifyMode.none), .init(chatId: "chatB")],
            expected: ["chats/\(b)", "chats/\(b)/\(me)"]),
        Row(name: "one chat mentions-only in an all space", spaceMode: .all,
            chats: [.init(chatId: "chatA", mode: .mentions), .init(chatId: "chatB")],
            expected: ["chats/\(a)/\(me)", "chats/\(b)", "chats/\(b)/\(me)"]),
        Row(name: "one chat all in a mentions space", spaceMode: .mentions,
            chats: [.init(chatId: "chatA", mode: .all), .init(chatId: "chatB")],
            expected: ["chats/\(a)", "chats/\(a)/\(me)", "chats/\(b)/\(me)"]),
        Row(name: "one chat all in a muted space", spaceMode: NotifyMode.none,
            chats: [.init(chatId: "chatA", mode: .all), .init(chatId: "chatB")],
            expected: ["chats/\(a)", "chats/\(a)/\(me)"]),
        Row(name: "an override equal to the default still switches to per-chat", spaceMode: .all,
            chats: [.init(chatId: "chatA", mode: .all), .init(chatId: "chatB")],
            expected: ["chats/\(a)", "chats/\(a)/\(me)", "chats/\(b)", "chats/\(b)/\(me)"]),
        Row(name: "every chat muted", spaceMode: .all,
            chats: [.init(chatId: "chatA", mode: NotifyMode.none), .init(chatId: "chatB", mode: NotifyMode.none)],
            expected: []),
    ]

    @Test(arguments: rows)
    func topicsFollowTheModes(row: Row) {
        let plan = SubscriptionPlan.desiredTopics(
            me: Self.me, spaces: [SpaceNotifyState(spaceKey: Self.space, mode: row.spaceMode, chats: .listed(row.chats))])
        #expect(plan.topics == Set(row.expected.map { TopicRef(space: Self.space, topic: $0) }))
        #expect(plan.sources == [Self.space: .listed])
        #expect(plan.lastKnownGood == [Self.space: row.chats])
    }

    @Test func modeResolutionIsChatThenSpaceThenAll() {
        #expect(NotifyMode.resolve(chat: .mentions, space: NotifyMode.none) == .mentions)
        #expect(NotifyMode.resolve(chat: nil, space: NotifyMode.none) == NotifyMode.none)
        #expect(NotifyMode.resolve(chat: nil, space: nil) == .all)
    }

    @Test func enumerationFailureUsesTheLastKnownGoodModes() {
        let known: [ChatNotifySetting] = [.init(chatId: "chatA", mode: NotifyMode.none), .init(chatId: "chatB")]
        let plan = SubscriptionPlan.desiredTopics(
            me: Self.me, spaces: [SpaceNotifyState(spaceKey: Self.space, mode: .all, chats: .unavailable)],
            lastKnownGood: [Self.space: known])
        #expect(plan.topics == [TopicRef(space: Self.space, topic: "chats/\(Self.b)"),
                                TopicRef(space: Self.space, topic: "chats/\(Self.b)/\(Self.me)")])
        #expect(!plan.topics.contains(TopicRef(space: Self.space, topic: "chats")), "never bulk: chatA stays muted")
        #expect(plan.sources == [Self.space: .lastKnownGood])
        #expect(plan.lastKnownGood == [Self.space: known])
    }

    @Test func enumerationFailureWithoutLastKnownGoodLeavesTheSpaceAsTheNodeHoldsIt() {
        let held: Set<TopicRef> = [TopicRef(space: Self.space, topic: "chats/\(Self.b)"),
                                   TopicRef(space: TestSpaceKeys.string("Other"), topic: "chats")]
        let plan = SubscriptionPlan.desiredTopics(
            me: Self.me, spaces: [SpaceNotifyState(spaceKey: Self.space, mode: .all, chats: .unavailable)],
            current: held)
        #expect(plan.topics == [TopicRef(space: Self.space, topic: "chats/\(Self.b)")], "no bulk topics added, other spaces not copied")
        #expect(plan.sources == [Self.space: .keptCurrent])
        #expect(plan.lastKnownGood.isEmpty)

        let fresh = SubscriptionPlan.desiredTopics(
            me: Self.me, spaces: [SpaceNotifyState(spaceKey: Self.space, mode: .all, chats: .unavailable)])
        #expect(fresh.topics.isEmpty, "nothing known, nothing subscribed — never bulk")
    }

    @Test func spacesAreIndependentAndForgottenSpacesLeaveTheMemory() {
        let plan = SubscriptionPlan.desiredTopics(
            me: Self.me,
            spaces: [SpaceNotifyState(spaceKey: Self.s1, mode: .mentions, chats: .listed([.init(chatId: "chatA")])),
                     SpaceNotifyState(spaceKey: Self.s2, mode: nil, chats: .listed([.init(chatId: "chatA", mode: .mentions)]))],
            lastKnownGood: ["Gone": [.init(chatId: "x")]])
        #expect(plan.topics == [TopicRef(space: Self.s1, topic: Self.me),
                                TopicRef(space: Self.s2, topic: "chats/\(Self.a)/\(Self.me)")])
        #expect(Set(plan.lastKnownGood.keys) == [Self.s1, Self.s2])
    }
}
