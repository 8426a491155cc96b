"""Kind `clear`, `replaces` and content-free wakes through the real binary and the mock providers
(PROTOCOL §4.1, §5.2): a ring held back by a failing provider is withdrawn by the clear and never
reaches the device, a ring already delivered is followed by the clear, a wake reaches each
provider with exactly its specified shape, and on PostgreSQL a ring claimed by one node is not
tried again after a clear through the other."""
import base64
import hashlib
import json
import os
import time

from mockproviders_helper import MockProviders
from pushnode_node import Node, wait_for
from test_delivery_e2e import (Account, Space, Subscriber, apns_token, body_of, headers_of, mock, node,  # noqa: F401
                               node_env, received, setup_pair, uid)

WAKE_KEYS = {"x-any-type", "x-any-id", "x-any-group-id"}


def notify(account, space, topic, kind=None, group=None, ttl=None, sealed=True, replaces=None, path="/v1/notify"):
    """A Notify; with `sealed` a random payload signed by the caller, else a content-free wake."""
    document = {"topics": [space.topic(topic)]}
    if sealed:
        payload = os.urandom(48)
        document["message"] = {"keyId": hashlib.sha256(b"payload key").hexdigest(),
                               "payload": base64.b64encode(payload).decode(),
                               "signature": base64.b64encode(account.private.sign(payload)).decode()}
    for name, value in (("kind", kind), ("groupId", group), ("ttl", ttl), ("replaces", replaces)):
        if value is not None:
            document[name] = value
    return account.call("POST", path, document)


def ids_of(mock, provider, token, status=None):
    """The x-any-id of each request the mock got for the token (FCM data or APNs top-level keys)."""
    found = []
    for r in mock.requests(provider, token):
        if status is not None and r["status"] != status:
            continue
        body = json.loads(body_of(r))
        found.append(body["message"]["data"]["x-any-id"] if provider == "fcm" else body["x-any-id"])
    return found


def test_a_ring_held_back_by_a_failing_provider_is_withdrawn_by_the_clear(node, mock):
    caller, callee, space = setup_pair(node)
    alert, voip, android = apns_token(), apns_token(), uid("android-")
    for token, provider in ((voip, "apns"), (android, "fcm")):
        mock.script(provider, token, [], then={"status": 503, "error": "UNAVAILABLE"})
    callee.register("apns", alert, device="iphone")
    callee.register("apns_voip", voip, device="iphone")
    callee.register("android", android, device="pixel")
    callee.subscribe(space, "calls")
    status, ring = notify(caller, space, "calls", kind="call", group="call-42", ttl=45)
    assert status == 200 and ring["queued"] == 2
    received(mock, "apns", voip, count=2)
    received(mock, "fcm", android, count=2)

    status, clear = notify(caller, space, "calls", kind="clear", group="call-42", sealed=False)
    assert status == 200 and clear["queued"] == 2  # the alert token and the pixel, never the VoIP token
    wait_for(lambda: node.metric("pushnode_deliveries_superseded_total") == 2, message="superseded count")
    time.sleep(0.5)  # a try in flight when the clear committed has had its 503 by now
    for token, provider in ((voip, "apns"), (android, "fcm")):
        mock.script(provider, token, [])
    # Tries of the ring only: the clear's own tries to the pixel (a 503, then its 200) may land before
    # or after this count, and must not be read as the ring tried again.
    def ring_tries():
        return (ids_of(mock, "apns", voip).count(ring["id"]), ids_of(mock, "fcm", android).count(ring["id"]))
    tries = ring_tries()

    # The clear reaches the alert token as a background push and the pixel as an urgent data push.
    request = received(mock, "apns", alert)[0]
    h = headers_of(request)
    assert h["apns-push-type"] == "background" and h["apns-priority"] == "5" and "apns-collapse-id" not in h
    body = json.loads(body_of(request))
    assert body == {"aps": {"content-available": 1}, "x-any-type": "clear", "x-any-id": clear["id"],
                    "x-any-group-id": "call-42"}
    wait_for(lambda: clear["id"] in ids_of(mock, "fcm", android, status=200), message="clear on the pixel")
    fcm = json.loads(body_of(mock.requests("fcm", android)[-1]))["message"]
    assert fcm["android"]["priority"] == "HIGH" and "collapse_key" not in fcm["android"]
    assert fcm["data"]["x-any-type"] == "clear"

    # Backoff is 100–400 ms here: a ring still queued would have been tried again several times.
    time.sleep(1.5)
    assert ring_tries() == tries
    assert ring["id"] not in ids_of(mock, "apns", voip, status=200) + ids_of(mock, "fcm", android, status=200)
    assert ids_of(mock, "apns", alert) == [clear["id"]]


def test_a_ring_already_delivered_is_followed_by_the_clear(node, mock):
    caller, callee, space = setup_pair(node)
    alert, voip = apns_token(), apns_token()
    callee.register("apns", alert, device="iphone")
    callee.register("apns_voip", voip, device="iphone")
    callee.subscribe(space, "calls")
    _, ring = notify(caller, space, "calls", kind="call", group="call-7")
    wait_for(lambda: ids_of(mock, "apns", voip, status=200) == [ring["id"]], message="the ring")
    superseded = node.metric("pushnode_deliveries_superseded_total")
    _, clear = notify(caller, space, "calls", kind="clear", group="call-7", ttl=30)
    wait_for(lambda: ids_of(mock, "apns", alert, status=200) == [clear["id"]], message="the clear")
    h = headers_of(mock.requests("apns", alert)[0])
    assert h["apns-push-type"] == "background"
    assert abs(int(h["apns-expiration"]) - (time.time() + 30)) < 10
    assert node.metric("pushnode_deliveries_superseded_total") == superseded
    assert ids_of(mock, "apns", voip) == [ring["id"]]


def test_a_wake_reaches_each_provider_with_its_shape(node, mock):
    sender, receiver, space = setup_pair(node)
    android, ios, apns = uid("android-"), uid("ios-"), apns_token()
    sub = Subscriber(mock, uid("sub-"))
    receiver.register("android", android, device="phone")
    receiver.register("ios", ios, device="ipad")
    receiver.register("apns", apns, device="iphone")
    receiver.register("webpush", sub.endpoint, device="browser", p256dh=sub.p256dh, auth=sub.auth)
    receiver.subscribe(space, "inbox")
    status, first = notify(sender, space, "inbox", group="source-1", sealed=False)
    assert status == 200 and first == {"id": first["id"], "duplicate": False, "queued": 4}
    data = {"x-any-type": "normal", "x-any-id": first["id"], "x-any-group-id": "source-1"}

    fcm = json.loads(body_of(received(mock, "fcm", android)[0]))["message"]
    assert fcm["data"] == data and "notification" not in fcm
    assert fcm["android"]["collapse_key"] == "source-1" and fcm["android"]["priority"] == "HIGH"

    fcm_ios = json.loads(body_of(received(mock, "fcm", ios)[0]))["message"]
    assert fcm_ios["data"] == data
    assert fcm_ios["apns"]["headers"]["apns-collapse-id"] == "source-1"
    aps = fcm_ios["apns"]["payload"]["aps"]
    assert aps["content-available"] == 1 and aps["mutable-content"] == 1 and aps["alert"]["title"] == "New message"

    request = received(mock, "apns", apns)[0]
    h = headers_of(request)
    assert h["apns-push-type"] == "alert" and h["apns-priority"] == "10" and h["apns-collapse-id"] == "source-1"
    body = json.loads(body_of(request))
    assert set(body) == WAKE_KEYS | {"aps"} and {k: body[k] for k in WAKE_KEYS} == data
    assert body["aps"]["content-available"] == 1 and body["aps"]["mutable-content"] == 1
    assert body["aps"]["alert"] == {"title": "New message", "body": ""}

    request = received(mock, "webpush", sub.id)[0]
    assert headers_of(request)["urgency"] == "high"
    assert json.loads(sub.decrypt(body_of(request))) == data

    # Without a message nothing tells a retry from the next wake: the same request is queued again.
    status, second = notify(sender, space, "inbox", group="source-1", sealed=False)
    assert status == 200 and not second["duplicate"] and second["id"] != first["id"] and second["queued"] == 4
    received(mock, "fcm", android, count=2)


def test_replacing_needs_a_group_and_a_voip_token_never_gets_a_clear(node, mock):
    sender, receiver, space = setup_pair(node)
    voip = apns_token()
    receiver.register("apns_voip", voip, device="iphone")
    receiver.subscribe(space, "calls")
    for kind, replaces in (("clear", None), ("message", True)):
        status, answer = notify(sender, space, "calls", kind=kind, replaces=replaces, sealed=False)
        assert status == 400 and answer["error"]["code"] == "request.missing_field"
        assert answer["error"]["field"] == "groupId"
    status, answer = notify(sender, space, "calls", kind="clear", group="call-1", sealed=False)
    assert status == 200 and answer["queued"] == 0
    status, answer = notify(sender, space, "calls", replaces="yes", group="g")
    assert status == 400 and answer["error"]["field"] == "replaces"


def test_on_postgresql_a_ring_claimed_by_one_node_is_not_tried_again_after_a_clear_through_the_other(
        pushnode_bin, postgres_database, tmp_path):
    with MockProviders(tmp_path / "mock") as mock:
        env = dict(postgres_database.env(), **node_env(mock))
        a, b = Node(pushnode_bin, env=env), Node(pushnode_bin, env=env)
        try:
            caller, callee, space = Account(a), Account(b), Space()
            token = uid("ring-")
            # Every try takes 1.5 s and fails: the ring is in flight on whichever node claimed it.
            mock.script("fcm", token, [], then={"status": 503, "error": "UNAVAILABLE", "delayMs": 1500})
            callee.register("android", token)
            callee.subscribe(space, "calls")
            _, ring = notify(caller, space, "calls", kind="call", group="call-9")
            wait_for(lambda: mock.requests("fcm", token) or None, message="the ring on the wire")
            other = Account(b, seed=caller.seed)
            status, clear = notify(other, space, "calls", kind="clear", group="call-9", sealed=False)
            assert status == 200 and clear["queued"] == 1
            mock.script("fcm", token, [])
            wait_for(lambda: clear["id"] in ids_of(mock, "fcm", token, status=200), message="the clear")
            time.sleep(2.5)  # the ring's 503 came back, and a retry (100–400 ms backoff) would be due long since
            assert ids_of(mock, "fcm", token).count(ring["id"]) == 1
            assert a.metric("pushnode_deliveries_superseded_total") + b.metric("pushnode_deliveries_superseded_total") == 1
            wait_for(lambda: a.metric("pushnode_outbox_depth", provider="fcm") == 0, message="empty outbox")
        finally:
            a.stop()
            b.stop()
