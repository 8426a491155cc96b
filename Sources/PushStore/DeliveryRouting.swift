import PushProtocol

/// Which registrations of the recipients receive a notification of a kind (PROTOCOL §4 call routing).
///
/// - `apns_voip` receives calls only (a VoIP push must report a call, so not even a clear).
/// - A call reaches a device that has an `apns_voip` registration there only (its `apns`/`ios`
///   tokens are skipped); every other device gets it on each of its registrations (the gateways
///   show it as a high-priority data push, or as an alert on iOS).
/// - A device is `(account, deviceId)`.
enum DeliveryRouting {
    static func deliveries(of kind: NotifyKind, to recipients: [Recipient]) -> [Delivery] {
        let chosen: [Recipient]
        switch kind {
        case .message, .silent, .clear:
            chosen = recipients.filter { $0.platform != .apnsVoip }
        case .call:
            let ringingDevices = Set(recipients.filter { $0.platform == .apnsVoip }.map(DeviceKey.init))
            chosen = recipients.filter { recipient in
                ringingDevices.contains(DeviceKey(recipient)) ? recipient.platform == .apnsVoip : true
            }
        }
        var seen = Set<String>()
        return chosen.compactMap { recipient in
            guard seen.insert(recipient.registrationId).inserted else { return nil }
            return Delivery(registrationId: recipient.registrationId, provider: recipient.platform.provider)
        }
    }

    private struct DeviceKey: Hashable {
        var account: String
        var deviceId: String
        init(_ recipient: Recipient) {
            account = recipient.account
            deviceId = recipient.deviceId
        }
    }
}
