"""Outcomes you can query, through the real binary and the mock providers (PROTOCOL §4.4):
`GET /v1/notifications/{id}` follows a notification's deliveries per provider from queued to
delivered, retrying (with the next try), dead and superseded, for its sender only; `GET
/v1/tokens` shows each registration's last outcome and delivery; nothing names a token."""
import datetime
import os

from pushnode_node import wait_for
from test_clear_and_wake import notify
from test_delivery_e2e import (Account, Subscriber, apns_token, mock, node, received, setup_pair,  # noqa: F401
                               uid)


def status_of(account, notification_id):
    return account.call("GET", f"/v1/notifications/{notification_id}")


def rfc3339(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def test_a_notifications_status_follows_each_delivery_to_its_outcome(node, mock):
    sender, receiver, space = setup_pair(node)
    android, apns = uid("android-"), apns_token()
    gone = Subscriber(mock, uid("gone-"))
    mock.script("apns", apns, [], then={"status": 429, "reason": "TooManyRequests", "retryAfter": 30})
    receiver.register("android", android, device="phone")
    receiver.register("apns", apns, device="iphone")
    receiver.register("webpush", gone.endpoint, device="browser", p256dh=gone.p256dh, auth=gone.auth)
    receiver.subscribe(space, "chats")
    before = datetime.datetime.now(datetime.timezone.utc).timestamp()
    status, sent = notify(sender, space, "chats", group="chat-1")
    assert status == 200 and sent["queued"] == 3

    def settled():
        code, answer = status_of(sender, sent["id"])
        assert code == 200, answer
        p = answer["providers"]
        done = (p.get("fcm", {}).get("delivered") == 1 and p.get("webpush", {}).get("dead") == 1
                and p.get("apns", {}).get("retrying") == 1)
        return answer if done else None
    answer = wait_for(settled, message="delivered, dead and retrying")
    assert answer["id"] == sent["id"] and abs(rfc3339(answer["createdAt"]) - before) < 5
    total = answer["total"]
    assert (total["delivered"], total["dead"], total["retrying"], total["queued"], total["inFlight"]) == (1, 1, 1, 0, 0)
    assert 20 < rfc3339(answer["providers"]["apns"]["nextAttemptAt"]) - before < 40  # Retry-After: 30
    assert set(answer["providers"]) == {"fcm", "apns", "webpush"}
    text = str(answer)
    for secret in (android, apns, gone.endpoint, receiver.id):
        assert secret not in text

    # The receiver's registrations say how their last try ended (the dead one is pruned).
    rows = {r["platform"]: r for r in wait_for(lambda: [r for r in receiver.tokens()] if len(receiver.tokens()) == 2 else None,
                                               message="the dead registration pruned")}
    assert rows["android"]["lastOutcome"] == "delivered" and abs(rfc3339(rows["android"]["lastDeliveryAt"]) - before) < 30
    assert rows["apns"]["lastOutcome"] == "retrying" and "lastDeliveryAt" not in rows["apns"]

    # A clear of the group withdraws the retrying push: superseded, and nothing left to try.
    status, _ = notify(sender, space, "chats", kind="clear", group="chat-1", sealed=False)
    assert status == 200
    code, answer = status_of(sender, sent["id"])
    apns_counts = answer["providers"]["apns"]
    assert (apns_counts["superseded"], apns_counts["retrying"]) == (1, 0) and "nextAttemptAt" not in apns_counts
    assert answer["total"]["superseded"] == 1


def test_only_the_sender_sees_a_status(node, mock):
    sender, receiver, space = setup_pair(node)
    receiver.register("android", uid("android-"))
    receiver.subscribe(space, "chats")
    _, sent = notify(sender, space, "chats")
    for who, path_id in ((receiver, sent["id"]), (Account(node), sent["id"]), (sender, "0" * 32), (sender, "not-an-id")):
        code, answer = status_of(who, path_id)
        assert code == 404 and answer["error"]["code"] == "notification.not_found", (code, answer)
    code, _ = status_of(sender, sent["id"])
    assert code == 200
    # An unsigned call is refused before the route answers anything.
    code, _, _ = node.request("GET", f"/v1/notifications/{sent['id']}")
    assert code == 401


def test_a_notify_that_reaches_nobody_has_a_status_of_zeros(node, mock):
    sender, _, space = setup_pair(node)
    status, sent = notify(sender, space, "nobody-" + os.urandom(4).hex())
    assert status == 200 and sent["queued"] == 0
    code, answer = status_of(sender, sent["id"])
    assert code == 200 and answer["providers"] == {}
    assert all(value == 0 for value in answer["total"].values())
    # The route's label in /metrics is the template, never the id.
    assert node.metric("pushnode_http_requests_total", route="/v1/notifications/{id}", status="200") >= 1
    _, _, metrics = node.request("GET", "/metrics")
    assert sent["id"].encode() not in metrics
