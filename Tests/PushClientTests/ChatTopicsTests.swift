import PushCrypto
import Testing
@testable import PushClient

@Suite struct ChatTopicsTests {
    @Test func perChatTopicMatchesTheVectorByteForByte() {
        #expect(ChatTopics.chat(AnyCompatVector.chatId) == AnyCompatVector.topic)
        #expect(Array(ChatTopics.chat(AnyCompatVector.chatId).utf8) == Array(AnyCompatVector.topic.utf8))
        #expect(ChatTopics.groupId(chatId: AnyCompatVector.chatId) == String(AnyCompatVector.topic.dropFirst("chats/".count)))
    }

    @Test func groupIdIsLowercaseSHA256HexOfTheUTF8ChatId() {
        // sha256("abc"), FIPS 180-2 example.
        #expect(ChatTopics.groupId(chatId: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(ChatTopics.groupId(chatId: "é") == SHA256.hex([0xc3, 0xa9]))
    }

    @Test func messagePublishesTheWholeSupersetInOrder() {
        let sha = ChatTopics.groupId(chatId: "c1")
        #expect(ChatTopics.message(chatId: "c1", mentions: ["A1", "A2"]) == [
            "chats", "chats/\(sha)", "chats/\(sha)/A1", "A1", "chats/\(sha)/A2", "A2",
        ])
        #expect(ChatTopics.message(chatId: "c1", mentions: []) == ["chats", "chats/\(sha)"])
    }

    @Test func repeatedOrEmptyMentionsAppearOnce() {
        let sha = ChatTopics.groupId(chatId: "c1")
        #expect(ChatTopics.message(chatId: "c1", mentions: ["A1", "", "A1"]) == ["chats", "chats/\(sha)", "chats/\(sha)/A1", "A1"])
    }

    @Test func editPublishesOnlyMentionTopics() {
        let sha = ChatTopics.groupId(chatId: "c1")
        #expect(ChatTopics.edit(chatId: "c1", newMentions: ["A2"]) == ["chats/\(sha)/A2", "A2"])
        #expect(ChatTopics.edit(chatId: "c1", newMentions: []).isEmpty)
    }

    @Test func addedMentionsAreTheNewOnesInOrder() {
        #expect(ChatTopics.addedMentions(before: ["A1", "A2"], after: ["A3", "A1", "A4", "A3"]) == ["A3", "A4"])
        #expect(ChatTopics.addedMentions(before: ["A1"], after: ["A1"]).isEmpty)
    }

    @Test func readIsTheOwnIdentityTopic() {
        #expect(ChatTopics.read(identity: "Ame") == ["Ame"])
    }
}
