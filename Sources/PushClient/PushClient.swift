// PushClient: the sender/subscriber library of pushnode (issue 5).
//
// - `Sender/`     PushSender: fire-and-forget Notify with a bounded queue, payload budgeting and retries.
// - `Subscriber/` PushSubscriber (tokens, spaces), the notifyMode model, `SubscriptionPlan.desiredTopics`
//                 and the `Reconciler` loop.
// - `Receiver/`   PushReceiver: the append-only payload-key cache and `open(data:)`.
// - `Seams/`      the small protocols the host binds: `NodeTransport` (signed HTTP to the node),
//                 `PayloadSealer` (payload key), `TopicSigner` (space push key), `PushClock`, `PushLog`.
// Everything else (topics, payload JSON, size budget, retry schedule) is pure and unit-tested.
