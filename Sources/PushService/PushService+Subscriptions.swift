import Foundation
import PushCrypto
import PushProtocol
import PushStore

extension PushService {
    /// `PUT /v1/subscriptions` (SubscribeAll): replaces the caller's whole set.
    package func subscribeAll(_ request: SubscribeRequest, caller: AccountID) throws(ServiceError) -> SubscriptionCountResponse {
        let refs = try checkedTopics(request.topics, caller: caller)
        return SubscriptionCountResponse(count: try withSubscriptionLimit {
            try registry.replaceSubscriptions(ofAccount: caller.string, with: refs, limit: limits.maxSubscriptions)
        })
    }

    /// `POST /v1/subscriptions`: adds topics.
    package func subscribe(_ request: SubscribeRequest, caller: AccountID) throws(ServiceError) -> SubscriptionCountResponse {
        let refs = try checkedTopics(request.topics, caller: caller)
        return SubscriptionCountResponse(count: try withSubscriptionLimit {
            try registry.addSubscriptions(ofAccount: caller.string, refs, limit: limits.maxSubscriptions)
        })
    }

    /// `POST /v1/subscriptions/remove`: no signatures needed to stop listening.
    package func unsubscribe(_ request: UnsubscribeRequest, caller: AccountID) throws(ServiceError) -> SubscriptionCountResponse {
        try checkTopicCount(request.topics.count)
        for (index, ref) in request.topics.enumerated() {
            try shaped(ref.validate(at: "topics[\(index)]"))
        }
        return SubscriptionCountResponse(count: try stored(.write) { try registry.removeSubscriptions(ofAccount: caller.string, request.topics) })
    }

    /// `GET /v1/subscriptions`.
    package func subscriptions(caller: AccountID) throws(ServiceError) -> SubscriptionsResponse {
        SubscriptionsResponse(topics: try stored(.read) { try registry.subscriptions(ofAccount: caller.string) })
    }

    /// Shape, count, signatures and (when required) space registration of topics to subscribe to.
    private func checkedTopics(_ topics: [Topic], caller: AccountID) throws(ServiceError) -> [TopicRef] {
        try checkTopicCount(topics.count)
        for (index, topic) in topics.enumerated() {
            try shaped(topic.validateShape(at: "topics[\(index)]"))
        }
        try verifySignatures(of: Array(topics.enumerated().map { ($0.offset, $0.element) }))
        if configuration.requireSpaceRegistration {
            let spaces = try stored(.read) { try registry.spaces(ofAccount: caller.string) }
            if let index = topics.firstIndex(where: { !spaces.contains($0.spaceKey.string) }) {
                throw .invalid("topics[\(index)].spaceKey", "topics[\(index)].spaceKey is not a registered space")
            }
        }
        return topics.map(\.ref)
    }

    /// A write of the subscription set: the store's limit is `request.invalid_field` at `topics`, any
    /// other failure of the store a storage failure.
    private func withSubscriptionLimit(_ body: () throws -> Int) throws(ServiceError) -> Int {
        do {
            let count = try body()
            storageHealth.recordSuccess(.write)
            return count
        } catch StoreError.subscriptionLimitExceeded(let limit) {
            // The database answered, but nothing was committed: a read's success, not a write's.
            storageHealth.recordSuccess(.read)
            throw .invalid("topics", "an account holds at most \(limit) topics (limits.maxSubscriptions)")
        } catch {
            storageHealth.recordFailure(.write, error)
            throw .storageFailed(error)
        }
    }
}
