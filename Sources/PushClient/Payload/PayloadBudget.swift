/// Shrinks a payload until its sealed size fits the node's `maxPayloadBytes`, so a push is never
/// refused as `payload.too_large`. Steps, each tried only when the previous does not fit:
///
/// 1. the payload as built;
/// 2. attachments dropped (`attachments: []`, `hasAttachments` kept: the message still has them);
/// 3. text shortened: the longest prefix (binary search on the scalar count) that fits, with `...`;
/// 4. minimal: ids only — names and text emptied;
/// 5. bare: no `newMessage` at all (space, sender and type still let the app say "New message").
///
/// `nil` when even the bare payload does not fit (a limit below ~150 bytes).
public enum PayloadBudget {
    public enum Step: String, Sendable, Equatable {
        case full
        case withoutAttachments = "without_attachments"
        case shortenedText = "shortened_text"
        case minimal
        case bare
    }

    public struct Fit: Sendable, Equatable {
        public var payload: PushPayload
        /// `payload.jsonBytes()`, the plaintext to seal.
        public var plaintext: [UInt8]
        public var step: Step
    }

    /// - Parameters:
    ///   - payload: the payload as built (text already cut to `PushText.maxScalars`).
    ///   - fullText: the message text before any cut; shortened texts are its prefixes. Defaults to
    ///     the payload's text.
    ///   - maxPayloadBytes: the node's limit on the sealed payload.
    ///   - sealedOverhead: bytes sealing adds (28 for AES-GCM: nonce 12 + tag 16).
    public static func fit(_ payload: PushPayload, fullText: String? = nil, maxPayloadBytes: Int,
                           sealedOverhead: Int = 28) -> Fit? {
        let budget = maxPayloadBytes - sealedOverhead
        func attempt(_ p: PushPayload, _ step: Step) -> Fit? {
            let bytes = p.jsonBytes()
            return bytes.count <= budget ? Fit(payload: p, plaintext: bytes, step: step) : nil
        }

        if let fit = attempt(payload, .full) { return fit }
        guard var message = payload.newMessage else { return nil }
        var current = payload

        if !message.attachments.isEmpty {
            message.attachments = []
            current.newMessage = message
            if let fit = attempt(current, .withoutAttachments) { return fit }
        }

        if let fit = shortenText(current, source: fullText ?? message.text, budget: budget) { return fit }

        var minimal = current
        minimal.newMessage = PushPayload.NewMessage(chatId: message.chatId, msgId: message.msgId,
                                                    hasAttachments: message.hasAttachments)
        if let fit = attempt(minimal, .minimal) { return fit }

        var bare = current
        bare.newMessage = nil
        return attempt(bare, .bare)
    }

    /// The longest `prefix(k) + "..."` of `source` that fits, for k in 1 ..< the kept length.
    private static func shortenText(_ payload: PushPayload, source: String, budget: Int) -> Fit? {
        let count = source.unicodeScalars.count
        // Candidates must be strictly shorter than what was already tried.
        var hi = count > PushText.maxScalars ? PushText.keptWhenCut - 1 : count - 1
        var lo = 1
        guard hi >= lo else { return nil }
        func build(_ k: Int) -> (PushPayload, [UInt8]) {
            var p = payload
            p.newMessage?.text = PushText.cut(source, keeping: k)
            return (p, p.jsonBytes())
        }
        var best: (PushPayload, [UInt8])?
        while lo <= hi {
            let mid = lo + (hi - lo) / 2
            let candidate = build(mid)
            if candidate.1.count <= budget {
                best = candidate
                lo = mid + 1
            } else {
                hi = mid - 1
            }
        }
        return best.map { Fit(payload: $0.0, plaintext: $0.1, step: .shortenedText) }
    }
}
