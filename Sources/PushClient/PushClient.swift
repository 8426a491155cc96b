import HTTPClient

// PushClient: the sender/subscriber library of pushnode (docs/client.md).
//
// - `Sender/`     PushSender: fire-and-forget Notify with a bounded queue, payload budgeting and retries;
//                 `send(_:in:)` takes any bytes (`OutgoingPush`), the any chat calls are built on it.
// - `Space/`      PushSpaceKeys (push key + payload key, derived from any's ACL or raw) and SpaceKeyFile.
// - `Subscriber/` PushSubscriber (tokens, spaces), the notifyMode model, `SubscriptionPlan.desiredTopics`
//                 and the `Reconciler` loop.
// - `Receiver/`   PushReceiver: the append-only payload-key cache and `open(data:)`.
// - `Seams/`      the small protocols the host binds: `NodeTransport` (signed HTTP to the node),
//                 `PayloadSealer` (payload key), `TopicSigner` (space push key), `PushClock`, `PushLog`.
// Everything else (topics, payload JSON, size budget, retry schedule) is pure and unit-tested.
//
// From any other chat server (its own payload format):
//
//     let space = try SpaceKeyFile.load("/etc/chat/space.json")      // pushnode client space new
//     sender.send(OutgoingPush(.notify(.message), topics: ["user/mary"], payload: json, groupId: "c-12"), in: space)
//     sender.send(OutgoingPush(.notify(.clear), topics: ["user/mary"], groupId: "call/k-55"), in: space)
//     // on the device: receiver.open(data: dataKeys, signedBy: chatServerAccountID) -> .opened(bytes)
//
// - `Transport/`  HTTPNodeTransport: the `NodeTransport` on HTTPClient + RFC 9421 HTTPSigner.
// The seams' implementations are the shared key types: `PayloadKey` seals, `SpacePushKey` signs.
// See README.md, "Using PushClient", for the guide.
//
// From a chat server (sender side):
//
//     let account = try AccountKeyFile.load("/etc/chat/push-account.key")
//     let transport = try HTTPNodeTransport(configuration: .init(baseURL: "https://push.example.org"),
//                                           account: account)
//     let sender = PushSender(transport: transport, account: account,
//                             configuration: .init(deviceId: thisDevice))
//     let keys = try SpaceKeys.derive(firstMetadataKey: firstMetadataKey, readKey: currentReadKey)
//     let space = PushSpace(spaceId: id, name: "Project", signer: keys.pushKey, sealer: keys.payloadKey)
//     sender.chatMessage(space: space, chat: PushChat(id: chatId, name: "general"),
//                        message: OutgoingMessage(id: msgId, text: text, senderName: "alice"),
//                        mentions: serverDerivedMentions)          // returns at once
//     sender.chatEdit(space:chat:message:newMentions: ChatTopics.addedMentions(before:after:))
//     sender.chatRead(space: space, chat: chat)
//     await sender.shutdown()                                       // on exit: drains
//
// From an app (subscriber and receiver side):
//
//     let reconciler = Reconciler(transport: transport, accountID: me, source: mySettings)
//     Task { await reconciler.run() }                 // start pass, triggers, 5-minute tick
//     let subscriber = PushSubscriber(transport: transport, accountID: me, reconciler: reconciler)
//     try await subscriber.setToken(.init(deviceId: d, platform: .android, token: fcmToken))
//     reconciler.trigger(.modeChanged)                // after a local notifyMode write
//     _ = await subscriber.revokeToken(deviceId: d)   // logout: never blocks on the node
//
//     let receiver = PushReceiver()                   // notification extension / service
//     try receiver.keys.add(keyId: encKeyId, key: encKey)
//     switch try receiver.open(data: pushDataKeys) { case .opened(let p): … case .unknownKey: … }
