"""Every route of PROTOCOL §3 and every documented error code, through the real `pushnode serve`
binary, with requests signed in Python (http-message-signatures + PyNaCl). Outbox effects are read
from the node's SQLite file (read-only)."""
import json
import os
import sqlite3
import time

import pytest

from nodeclient import LOCAL_DELIVERY, Account, Space, b64, database, queued_deliveries, registration_id, webpush_token
from pushnode_node import Node

GENEROUS = {"PUSHNODE_RATE_LIMITS_REGISTRATION_BURST": "10000", "PUSHNODE_RATE_LIMITS_NOTIFY_BURST": "10000"}


# The apps the token tests register with besides `default` (an unknown appId is 400 app.unknown).
APPS = "apps: [{id: com.example.app}, {id: app.one}, {id: second.app}]\n"


@pytest.fixture(scope="module")
def node(pushnode_bin):
    """Endpoints on closed loopback ports (LOCAL_DELIVERY): nothing leaves the machine."""
    n = Node(pushnode_bin, env=dict(GENEROUS, **LOCAL_DELIVERY), config_text=APPS)
    yield n
    assert n.proc.poll() is None, "".join(n.log)
    n.stop()


@pytest.fixture(scope="module")
def strict(pushnode_bin):
    """The default endpoint policy: https only, publicly routable hosts only."""
    n = Node(pushnode_bin, env=GENEROUS)
    yield n
    n.stop()


def error(answer):
    status, body, _ = answer
    return status, body["error"]["code"], body["error"].get("field")


def outbox_registrations(node, notification_id):
    """The registration ids of the queued deliveries of one notification."""
    with sqlite3.connect(f"file:{database(node)}?mode=ro", uri=True) as db:
        rows = queued_deliveries(db)
    return sorted(r[1] for r in rows if r[0] == notification_id)


def register(node, account, device_id, **extra):
    status, body, _ = account.call(node, "POST", "/v1/tokens", webpush_token(device_id, **extra))
    assert status == 200, body
    return body["registrationId"]


def subscribe(node, account, topics):
    status, body, _ = account.call(node, "POST", "/v1/subscriptions", {"topics": topics})
    assert status == 200, body
    return body["count"]


# MARK: - General request errors


@pytest.mark.parametrize("raw", [b"not json", b"[1,2]", b'"text"', b"42", b"null", b"{", b"\xff\xfe"])
def test_a_body_that_is_not_a_json_object_is_malformed(node, raw):
    for path in ("/v1/tokens", "/v1/notify", "/v1/subscriptions"):
        assert error(Account().call(node, "POST", path, raw=raw)) == (400, "request.malformed", None)


def test_an_empty_body_is_malformed(node):
    assert error(Account().call(node, "POST", "/v1/notify"))[:2] == (400, "request.malformed")


@pytest.mark.parametrize("body, code, field", [
    ({}, "request.missing_field", "deviceId"),
    ({"deviceId": "d", "platform": "webpush"}, "request.missing_field", "token"),
    ({"deviceId": "d", "token": "t"}, "request.missing_field", "platform"),
    ({"deviceId": None, "platform": "webpush", "token": "t"}, "request.missing_field", "deviceId"),
    ({"deviceId": 5, "platform": "webpush", "token": "t"}, "request.invalid_field", "deviceId"),
    ({"deviceId": "d", "platform": "pager", "token": "t"}, "request.invalid_field", "platform"),
    ({"deviceId": "d", "platform": ["webpush"], "token": "t"}, "request.invalid_field", "platform"),
    ({"deviceId": "", "platform": "webpush", "token": "https://8.8.8.8/x"}, "request.invalid_field", "deviceId"),
    ({"deviceId": "d" * 129, "platform": "webpush", "token": "https://8.8.8.8/x"}, "request.invalid_field", "deviceId"),
    ({"deviceId": "d", "platform": "webpush", "token": "t" * 4097}, "request.invalid_field", "token"),
    ({"deviceId": "d", "platform": "webpush", "token": "https://8.8.8.8/x"}, "request.missing_field", "p256dh"),
    ({"deviceId": "d", "platform": "webpush", "token": "https://8.8.8.8/x", "p256dh": "!!"}, "request.invalid_field", "p256dh"),
    ({"deviceId": "d", "platform": "webpush", "token": "https://8.8.8.8/x", "p256dh": "AAAA", "auth": "AAAAAAAAAAAAAAAAAAAAAA"},
     "request.invalid_field", "p256dh"),
])
def test_token_fields_are_named(node, body, code, field):
    assert error(Account().call(node, "POST", "/v1/tokens", body)) == (400, code, field)


def test_webpush_tokens_are_https_urls_by_default(strict):
    for endpoint in ("http://8.8.8.8/push", "/push/abc", "8.8.8.8/push", "mailto:a@b"):
        body = webpush_token("d", endpoint=endpoint)
        assert error(Account().call(strict, "POST", "/v1/tokens", body)) == (400, "request.invalid_field", "token")


def test_webpush_key_rules(node):
    good = webpush_token("d")
    only_p256dh = dict(good)
    del only_p256dh["auth"]
    assert error(Account().call(node, "POST", "/v1/tokens", only_p256dh)) == (400, "request.missing_field", "auth")
    short_auth = dict(good, auth=b64(os.urandom(8)).rstrip("="))
    assert error(Account().call(node, "POST", "/v1/tokens", short_auth)) == (400, "request.invalid_field", "auth")
    relative = dict(good, token="/push/abc")
    assert error(Account().call(node, "POST", "/v1/tokens", relative)) == (400, "request.invalid_field", "token")
    with_environment = dict(good, environment="production")
    assert error(Account().call(node, "POST", "/v1/tokens", with_environment)) == (400, "request.invalid_field", "environment")


def test_disabled_platforms_are_409(node):
    for platform, token in (("android", "fcm-token"), ("ios", "fcm-token"), ("apns", "ab" * 32), ("apns_voip", "cd" * 32)):
        body = {"deviceId": "d", "platform": platform, "token": token}
        assert error(Account().call(node, "POST", "/v1/tokens", body)) == (409, "platform.disabled", "platform")


def test_unknown_fields_are_ignored(node):
    account, space = Account(), Space()
    body = webpush_token("d", extra={"nested": [1, 2]}, future=True)
    assert account.call(node, "POST", "/v1/tokens", body)[0] == 200
    topic = dict(space.topic("chats"), colour="blue")
    assert account.call(node, "PUT", "/v1/subscriptions", {"topics": [topic], "mode": "x"})[:2] == (200, {"count": 1})
    sender = Account()
    notify = sender.notify([topic], unknown={"a": 1})
    notify["message"]["extra"] = "ignored"
    status, answer, _ = sender.call(node, "POST", "/v1/notify", notify)
    assert status == 200 and answer["duplicate"] is False


@pytest.mark.parametrize("mutate, code, field", [
    (lambda b: b.pop("topics"), "request.missing_field", "topics"),
    (lambda b: b.update(message="sealed"), "request.invalid_field", "message"),
    (lambda b: b.update(kind="clear"), "request.missing_field", "groupId"),
    (lambda b: b.update(replaces=True), "request.missing_field", "groupId"),
    (lambda b: b.update(replaces="true", groupId="g"), "request.invalid_field", "replaces"),
    (lambda b: b.update(topics=[]), "request.invalid_field", "topics"),
    (lambda b: b.update(topics="chats"), "request.invalid_field", "topics"),
    (lambda b: b["topics"][1].update(signature="%%%"), "request.invalid_field", "topics[1].signature"),
    (lambda b: b["topics"][1].update(signature=b64(b"short")), "request.invalid_field", "topics[1].signature"),
    (lambda b: b["topics"][1].pop("signature"), "request.missing_field", "topics[1].signature"),
    (lambda b: b["topics"][0].update(topic=""), "request.invalid_field", "topics[0].topic"),
    (lambda b: b["topics"][0].update(topic="a\nb"), "request.invalid_field", "topics[0].topic"),
    (lambda b: b["topics"][0].update(topic="é" * 129), "request.invalid_field", "topics[0].topic"),
    (lambda b: b["topics"][0].update(spaceKey="0OIl"), "request.invalid_field", "topics[0].spaceKey"),
    (lambda b: b["topics"][0].update(spaceKey=7), "request.invalid_field", "topics[0].spaceKey"),
    (lambda b: b["message"].update(payload="***"), "request.invalid_field", "message.payload"),
    (lambda b: b["message"].update(payload=b64(b"x" * 27)), "request.invalid_field", "message.payload"),
    (lambda b: b["message"].pop("keyId"), "request.missing_field", "message.keyId"),
    (lambda b: b["message"].update(keyId="AB" * 32), "request.invalid_field", "message.keyId"),
    (lambda b: b["message"].update(signature=b64(b"s" * 63)), "request.invalid_field", "message.signature"),
    (lambda b: b.update(groupId=""), "request.invalid_field", "groupId"),
    (lambda b: b.update(groupId="g" * 65), "request.invalid_field", "groupId"),
    (lambda b: b.update(groupId="tab\there"), "request.invalid_field", "groupId"),
    (lambda b: b.update(kind="loud"), "request.invalid_field", "kind"),
    (lambda b: b.update(ttl=0), "request.invalid_field", "ttl"),
    (lambda b: b.update(ttl=2_419_201), "request.invalid_field", "ttl"),
    (lambda b: b.update(ttl="60"), "request.invalid_field", "ttl"),
    (lambda b: b.update(ttl=1.5), "request.invalid_field", "ttl"),
])
def test_notify_fields_are_named(node, mutate, code, field):
    sender, space = Account(), Space()
    body = sender.notify([space.topic("a"), space.topic("b")])
    mutate(body)
    assert error(sender.call(node, "POST", "/v1/notify", body)) == (400, code, field)


def test_notify_limits_of_ttl_and_group_are_inclusive(node):
    sender, space = Account(), Space()
    body = sender.notify([space.topic("a")], groupId="g" * 64, ttl=2_419_200, kind="call")
    assert sender.call(node, "POST", "/v1/notify", body)[0] == 200
    body = sender.notify([space.topic("a")], groupId=" ~", ttl=1, kind="silent")
    assert sender.call(node, "POST", "/v1/notify", body)[0] == 200


def test_body_over_max_body_bytes_is_413_after_authentication_too(pushnode_bin):
    n = Node(pushnode_bin, env={"PUSHNODE_LIMITS_MAX_BODY_BYTES": "512", **LOCAL_DELIVERY})
    try:
        account = Account()
        assert error(account.call(n, "POST", "/v1/tokens", raw=b" " * 513)) == (413, "request.too_large", None)
        assert account.call(n, "POST", "/v1/tokens", webpush_token("d"))[0] == 200
    finally:
        n.stop()


# MARK: - Authentication (PROTOCOL §2)


def test_auth_failures_have_their_own_codes(node):
    account = Account()
    assert error(node_call(node, "GET", "/v1/tokens", {})) == (401, "auth.missing", None)
    good = account.headers("GET", "/v1/tokens")
    only_signature = {"Signature": good["Signature"]}
    assert error(node_call(node, "GET", "/v1/tokens", only_signature)) == (401, "auth.malformed", None)
    only_input = {"Signature-Input": good["Signature-Input"]}
    assert error(node_call(node, "GET", "/v1/tokens", only_input)) == (401, "auth.malformed", None)
    garbled = dict(good, **{"Signature-Input": "push=not a list"})
    assert error(node_call(node, "GET", "/v1/tokens", garbled)) == (401, "auth.malformed", None)
    # A signature made for another route does not verify here.
    other = account.headers("GET", "/v1/subscriptions")
    assert error(node_call(node, "GET", "/v1/tokens", other)) == (401, "auth.invalid_signature", None)
    # A body that is not the signed one: digest mismatch.
    body = json.dumps({"topics": []}).encode()
    signed = account.headers("PUT", "/v1/subscriptions", body)
    status, answer, _ = node_call(node, "PUT", "/v1/subscriptions", signed, body=body + b" ")
    assert (status, answer["error"]["code"]) == (401, "auth.invalid_signature")


def test_created_outside_the_skew_is_expired_both_ways(node):
    account = Account()
    now = int(time.time())
    for created in (now - 301, now + 301, 0):
        headers = account.headers("GET", "/v1/tokens", created=created)
        assert error(node_call(node, "GET", "/v1/tokens", headers)) == (401, "auth.expired", None)
    for created in (now - 250, now + 250):
        headers = account.headers("GET", "/v1/tokens", created=created)
        assert node_call(node, "GET", "/v1/tokens", headers)[0] == 200


def test_a_replayed_nonce_is_refused_even_for_another_route(node):
    account = Account()
    nonce = "replay-nonce-" + os.urandom(8).hex()
    assert node_call(node, "GET", "/v1/tokens", account.headers("GET", "/v1/tokens", nonce=nonce))[0] == 200
    assert error(node_call(node, "GET", "/v1/tokens", account.headers("GET", "/v1/tokens", nonce=nonce))) \
        == (401, "auth.replayed", None)
    assert error(node_call(node, "GET", "/v1/subscriptions", account.headers("GET", "/v1/subscriptions", nonce=nonce))) \
        == (401, "auth.replayed", None)
    # The same nonce is another account's own.
    assert node_call(node, "GET", "/v1/tokens", Account().headers("GET", "/v1/tokens", nonce=nonce))[0] == 200


def node_call(node, method, path, headers, body=b""):
    status, response_headers, data = node.request(method, path, headers=headers, body=body)
    return status, json.loads(data), response_headers


def test_every_v1_route_but_capabilities_requires_a_signature(node):
    routes = [("POST", "/v1/tokens"), ("GET", "/v1/tokens"), ("POST", "/v1/tokens/revoke"), ("POST", "/v1/spaces"),
              ("POST", "/v1/spaces/remove"), ("PUT", "/v1/subscriptions"), ("POST", "/v1/subscriptions"),
              ("GET", "/v1/subscriptions"), ("POST", "/v1/subscriptions/remove"), ("POST", "/v1/notify"),
              ("POST", "/v1/notify/silent")]
    for method, path in routes:
        body = b"{}" if method != "GET" else b""
        assert error(node_call(node, method, path, {}, body=body)) == (401, "auth.missing", None), path
    status, _, caps = node.json("GET", "/v1/capabilities")
    assert status == 200
    point = caps["vapidPublicKey"]
    raw = __import__("base64").urlsafe_b64decode(point + "=" * (-len(point) % 4))
    assert len(raw) == 65 and raw[0] == 4


# MARK: - Tokens


def test_registration_id_formula_and_replacement(node):
    account = Account()
    body = webpush_token("phone")
    rid = register(node, account, "phone", endpoint=body["token"])
    assert rid == registration_id("webpush", "default", "", body["token"])
    other_app = webpush_token("phone", endpoint=body["token"], appId="com.example.app")
    status, answer, _ = account.call(node, "POST", "/v1/tokens", other_app)
    assert answer["registrationId"] == registration_id("webpush", "com.example.app", "", body["token"])
    # Registering the same four values again replaces the entry: one registration, same id.
    again = account.call(node, "POST", "/v1/tokens", webpush_token("phone", endpoint=body["token"]))
    assert again[1]["registrationId"] == rid
    listed = account.call(node, "GET", "/v1/tokens")[1]["registrations"]
    assert sorted(r["registrationId"] for r in listed) == sorted([rid, answer["registrationId"]])


def test_listing_never_leaks_tokens_or_keys(node):
    account = Account()
    body = webpush_token("laptop", appId="app.one")
    assert account.call(node, "POST", "/v1/tokens", body)[0] == 200
    status, listing, _ = account.call(node, "GET", "/v1/tokens")
    assert status == 200
    (entry,) = listing["registrations"]
    assert set(entry) == {"registrationId", "deviceId", "platform", "appId", "environment", "createdAt", "updatedAt"}
    assert (entry["deviceId"], entry["platform"], entry["appId"], entry["environment"]) == ("laptop", "webpush", "app.one", "")
    assert abs(entry["createdAt"] - time.time()) < 60 and entry["updatedAt"] >= entry["createdAt"]
    raw = node.request("GET", "/v1/tokens", headers=account.headers("GET", "/v1/tokens"))[2].decode()
    assert body["token"] not in raw and body["p256dh"] not in raw and body["auth"] not in raw
    assert "127.0.0.1" not in raw and "push" not in raw.replace('"platform":"webpush"', "")


def test_a_token_moves_to_its_new_owner(node):
    """A Web Push endpoint moves only with the auth secret it was registered with (a browser
    re-registering its own subscription); with other keys it is 409 token.in_use and stays put."""
    first, second = Account(), Account()
    body = webpush_token("tablet")
    rid = register(node, first, "tablet", endpoint=body["token"], p256dh=body["p256dh"], auth=body["auth"])
    stolen = webpush_token("tablet", endpoint=body["token"])
    assert error(second.call(node, "POST", "/v1/tokens", stolen)) == (409, "token.in_use", "token")
    assert [r["registrationId"] for r in first.call(node, "GET", "/v1/tokens")[1]["registrations"]] == [rid]
    assert register(node, second, "tablet", endpoint=body["token"], p256dh=stolen["p256dh"], auth=body["auth"]) == rid
    assert first.call(node, "GET", "/v1/tokens")[1] == {"registrations": []}
    assert [r["registrationId"] for r in second.call(node, "GET", "/v1/tokens")[1]["registrations"]] == [rid]


def test_revoke_by_device_and_by_token(node):
    account = Account()
    a = webpush_token("one")
    b = webpush_token("one", appId="second.app")
    c = webpush_token("two")
    for body in (a, b, c):
        assert account.call(node, "POST", "/v1/tokens", body)[0] == 200
    assert account.call(node, "POST", "/v1/tokens/revoke", {"deviceId": "one"})[:2] == (200, {"success": True})
    assert [r["deviceId"] for r in account.call(node, "GET", "/v1/tokens")[1]["registrations"]] == ["two"]
    # Another account cannot revoke it by token; the owner can.
    assert Account().call(node, "POST", "/v1/tokens/revoke", {"token": c["token"], "platform": "webpush"})[:2] \
        == (200, {"success": True})
    assert len(account.call(node, "GET", "/v1/tokens")[1]["registrations"]) == 1
    assert account.call(node, "POST", "/v1/tokens/revoke", {"token": c["token"], "platform": "webpush"})[:2] \
        == (200, {"success": True})
    assert account.call(node, "GET", "/v1/tokens")[1] == {"registrations": []}
    # Nothing there: still success.
    assert account.call(node, "POST", "/v1/tokens/revoke", {"deviceId": "never"})[:2] == (200, {"success": True})


@pytest.mark.parametrize("body, code, field", [
    ({}, "request.missing_field", "deviceId"),
    ({"token": "t"}, "request.missing_field", "platform"),
    ({"platform": "webpush"}, "request.missing_field", "token"),
    ({"token": "t", "platform": "fax"}, "request.invalid_field", "platform"),
    ({"deviceId": 1}, "request.invalid_field", "deviceId"),
])
def test_revoke_fields_are_named(node, body, code, field):
    assert error(Account().call(node, "POST", "/v1/tokens/revoke", body)) == (400, code, field)


@pytest.mark.parametrize("endpoint", ["https://127.0.0.1/x", "https://10.0.0.1/x", "https://[::1]/x",
                                      "https://192.168.1.20:8443/x", "https://169.254.169.254/latest",
                                      "https://[fe80::1]/x", "https://224.0.0.1/x", "https://0.0.0.0/x",
                                      "https://localhost/x"])
def test_private_endpoints_are_not_routable(strict, endpoint):
    body = webpush_token("d", endpoint=endpoint)
    assert error(Account().call(strict, "POST", "/v1/tokens", body)) == (400, "token.endpoint_not_routable", "token")


def test_allow_private_endpoints_admits_http_and_loopback(pushnode_bin):
    n = Node(pushnode_bin, env={"PUSHNODE_WEBPUSH_ALLOW_PRIVATE_ENDPOINTS": "true"})
    try:
        for endpoint in ("https://127.0.0.1/x", "http://10.0.0.1/x", "https://[::1]/x"):
            assert Account().call(n, "POST", "/v1/tokens", webpush_token("d", endpoint=endpoint))[0] == 200
        assert error(Account().call(n, "POST", "/v1/tokens", webpush_token("d", endpoint="ftp://10.0.0.1/x"))) \
            == (400, "request.invalid_field", "token")
    finally:
        n.stop()


# MARK: - Spaces and subscriptions


def test_spaces_need_the_space_key_signature_of_the_caller(node):
    account, space = Account(), Space()
    assert account.call(node, "POST", "/v1/spaces", space.proof(account))[:2] == (200, {})
    assert account.call(node, "POST", "/v1/spaces", space.proof(account))[:2] == (200, {})
    stolen = space.proof(Account())
    assert error(account.call(node, "POST", "/v1/spaces", stolen)) == (400, "space.signature_invalid", "signature")
    assert error(account.call(node, "POST", "/v1/spaces/remove", stolen)) == (400, "space.signature_invalid", "signature")
    assert error(account.call(node, "POST", "/v1/spaces", {"spaceKey": space.space_key})) \
        == (400, "request.missing_field", "signature")
    assert error(account.call(node, "POST", "/v1/spaces", dict(space.proof(account), spaceKey="abc"))) \
        == (400, "request.invalid_field", "spaceKey")
    # Removing drops the caller's subscriptions in that space.
    assert subscribe(node, account, [space.topic("a"), space.topic("b"), Space().topic("c")]) == 3
    assert account.call(node, "POST", "/v1/spaces/remove", space.proof(account))[:2] == (200, {})
    assert account.call(node, "GET", "/v1/subscriptions")[1]["topics"][0]["topic"] == "c"


def test_subscription_counts(node):
    account, s1, s2 = Account(), Space(), Space()
    assert account.call(node, "PUT", "/v1/subscriptions", {"topics": [s1.topic("a"), s1.topic("b")]})[:2] \
        == (200, {"count": 2})
    assert account.call(node, "POST", "/v1/subscriptions", {"topics": [s1.topic("b"), s2.topic("c")]})[:2] \
        == (200, {"count": 3})
    assert account.call(node, "POST", "/v1/subscriptions/remove", {"topics": [s1.ref("a"), s1.ref("zzz")]})[:2] \
        == (200, {"count": 2})
    listed = account.call(node, "GET", "/v1/subscriptions")[1]["topics"]
    assert sorted(map(json.dumps, listed)) == sorted(map(json.dumps, [s1.ref("b"), s2.ref("c")]))
    assert listed == sorted(listed, key=lambda t: (t["spaceKey"].encode(), t["topic"].encode()))
    assert account.call(node, "PUT", "/v1/subscriptions", {"topics": [s2.topic("d")]})[:2] == (200, {"count": 1})
    assert account.call(node, "PUT", "/v1/subscriptions", {"topics": []})[:2] == (200, {"count": 0})
    assert account.call(node, "GET", "/v1/subscriptions")[1] == {"topics": []}


def test_a_bad_topic_signature_fails_the_whole_request(node):
    account, space = Account(), Space()
    topics = [space.topic("a"), space.topic("b", signature=space.sign(b"not b")), space.topic("c")]
    for method in ("PUT", "POST"):
        assert error(account.call(node, method, "/v1/subscriptions", {"topics": topics})) \
            == (400, "topic.signature_invalid", "topics[1].signature")
    assert account.call(node, "GET", "/v1/subscriptions")[1] == {"topics": []}
    assert error(account.call(node, "POST", "/v1/notify", account.notify(topics))) \
        == (400, "topic.signature_invalid", "topics[1].signature")
    # Signed by another space's key.
    wrong = [Space().topic("x"), dict(Space().topic("y"), spaceKey=space.space_key)]
    assert error(account.call(node, "POST", "/v1/subscriptions", {"topics": wrong})) \
        == (400, "topic.signature_invalid", "topics[1].signature")


def test_unsubscribe_fields_are_checked(node):
    account = Account()
    assert error(account.call(node, "POST", "/v1/subscriptions/remove", {"topics": [{"spaceKey": Space().space_key}]})) \
        == (400, "request.missing_field", "topics[0].topic")
    assert error(account.call(node, "POST", "/v1/subscriptions/remove", {"topics": [{"topic": "a"}]})) \
        == (400, "request.missing_field", "topics[0].spaceKey")
    assert error(account.call(node, "POST", "/v1/subscriptions/remove", {})) == (400, "request.missing_field", "topics")


def test_subscription_and_topic_count_limits(pushnode_bin):
    n = Node(pushnode_bin, env={"PUSHNODE_LIMITS_MAX_SUBSCRIPTIONS": "3", "PUSHNODE_LIMITS_MAX_TOPICS_PER_REQUEST": "4", **LOCAL_DELIVERY})
    try:
        account, space = Account(), Space()
        caps = n.json("GET", "/v1/capabilities")[2]["limits"]
        assert (caps["maxSubscriptions"], caps["maxTopicsPerRequest"]) == (3, 4)
        assert subscribe(n, account, [space.topic("a"), space.topic("b")]) == 2
        assert error(account.call(n, "POST", "/v1/subscriptions", {"topics": [space.topic("c"), space.topic("d")]})) \
            == (400, "request.invalid_field", "topics")
        assert account.call(n, "GET", "/v1/subscriptions")[1]["topics"] == [space.ref("a"), space.ref("b")]
        assert error(account.call(n, "PUT", "/v1/subscriptions", {"topics": [space.topic(t) for t in "wxyz"]})) \
            == (400, "request.invalid_field", "topics")
        assert subscribe(n, account, [space.topic("a"), space.topic("c")]) == 3
        five = [space.topic(t) for t in "abcde"]
        assert error(account.call(n, "POST", "/v1/notify", account.notify(five))) == (400, "request.invalid_field", "topics")
        assert error(account.call(n, "POST", "/v1/subscriptions/remove", {"topics": [space.ref(t) for t in "abcde"]})) \
            == (400, "request.invalid_field", "topics")
        assert account.call(n, "POST", "/v1/notify", account.notify(five[:4]))[0] == 200
    finally:
        n.stop()


def test_require_registration_refuses_and_drops_unregistered_spaces(pushnode_bin):
    n = Node(pushnode_bin, env={"PUSHNODE_SPACES_REQUIRE_REGISTRATION": "true", **LOCAL_DELIVERY})
    try:
        reader, sender, space, other = Account(), Account(), Space(), Space()
        register(n, reader, "phone")
        assert error(reader.call(n, "POST", "/v1/subscriptions", {"topics": [space.topic("a")]})) \
            == (400, "request.invalid_field", "topics[0].spaceKey")
        assert reader.call(n, "POST", "/v1/spaces", space.proof(reader))[0] == 200
        assert subscribe(n, reader, [space.topic("a")]) == 1
        # The sender has not registered the space: its topics are dropped, nothing is queued.
        status, answer, _ = sender.call(n, "POST", "/v1/notify", sender.notify([space.topic("a"), other.topic("b")]))
        assert status == 200 and outbox_registrations(n, answer["id"]) == []
        assert sender.call(n, "POST", "/v1/spaces", space.proof(sender))[0] == 200
        status, answer, _ = sender.call(n, "POST", "/v1/notify", sender.notify([space.topic("a"), other.topic("b")]))
        assert status == 200 and len(outbox_registrations(n, answer["id"])) == 1
    finally:
        n.stop()


# MARK: - Notify


def test_notify_fans_out_to_subscribers_minus_the_caller_each_device_once(node):
    space = Space()
    reader, sender, bystander = Account(), Account(), Account()
    phone, laptop = register(node, reader, "phone"), register(node, reader, "laptop")
    own = register(node, sender, "sender-phone")
    register(node, bystander, "elsewhere")
    subscribe(node, reader, [space.topic("chats"), space.topic("calls")])
    subscribe(node, sender, [space.topic("chats")])
    subscribe(node, bystander, [space.topic("other")])
    status, answer, _ = sender.call(node, "POST", "/v1/notify", sender.notify([space.topic("chats"), space.topic("calls")]))
    assert status == 200 and answer["duplicate"] is False and len(answer["id"]) == 32
    assert outbox_registrations(node, answer["id"]) == sorted([phone, laptop])
    assert own not in outbox_registrations(node, answer["id"])


def test_a_duplicate_notify_answers_the_first_id_and_writes_nothing(node):
    space, reader, sender = Space(), Account(), Account()
    register(node, reader, "phone")
    subscribe(node, reader, [space.topic("t")])
    body = sender.notify([space.topic("t")])
    first = sender.call(node, "POST", "/v1/notify", body)
    again = sender.call(node, "POST", "/v1/notify", body)
    assert first[:2] == (200, {"id": first[1]["id"], "duplicate": False, "queued": 1})
    assert again[:2] == (200, {"id": first[1]["id"], "duplicate": True, "queued": 0})
    assert len(outbox_registrations(node, first[1]["id"])) == 1
    # Another caller sending the same bytes is not a duplicate (and fails: the signature is not theirs).
    assert error(Account().call(node, "POST", "/v1/notify", body)) == (400, "message.signature_invalid", "message.signature")


def test_the_message_must_be_signed_by_the_caller(node):
    sender, someone, space = Account(), Account(), Space()
    payload = os.urandom(100)
    body = sender.notify([space.topic("t")])
    body["message"] = someone.message(payload)
    assert error(sender.call(node, "POST", "/v1/notify", body)) == (400, "message.signature_invalid", "message.signature")
    body["message"] = sender.message(payload, signature=sender.key.sign(payload + b"x").signature)
    assert error(sender.call(node, "POST", "/v1/notify", body)) == (400, "message.signature_invalid", "message.signature")


def test_payload_limit_is_2816_bytes(node):
    sender, space = Account(), Space()
    body = sender.notify([space.topic("t")])
    body["message"] = sender.message(os.urandom(2816))
    assert sender.call(node, "POST", "/v1/notify", body)[0] == 200
    body["message"] = sender.message(os.urandom(2817))
    assert error(sender.call(node, "POST", "/v1/notify", body)) == (413, "payload.too_large", "message.payload")
    silent = {"topics": [space.topic(sender.id)], "message": sender.message(os.urandom(2817))}
    assert error(sender.call(node, "POST", "/v1/notify/silent", silent)) == (413, "payload.too_large", "message.payload")


def test_silent_keeps_own_topics_includes_the_caller_and_skips_the_device(node):
    space, me, friend = Space(), Account(), Account()
    phone, laptop, tablet = (register(node, me, d) for d in ("phone", "laptop", "tablet"))
    friend_device = register(node, friend, "friend-phone")
    subscribe(node, me, [space.topic(me.id)])
    subscribe(node, friend, [space.topic("chats"), space.topic(me.id)])
    body = {"topics": [space.topic(me.id), space.topic("chats")], "deviceId": "laptop", "groupId": "read-marker"}
    status, answer, _ = me.call(node, "POST", "/v1/notify/silent", body)
    assert status == 200 and answer["duplicate"] is False
    # Only the own-id topic is kept; its subscribers include the caller (minus the laptop) and anyone else on it.
    assert outbox_registrations(node, answer["id"]) == sorted([phone, tablet, friend_device])
    # Without a message the idempotency key is the canonical topics + groupId.
    assert me.call(node, "POST", "/v1/notify/silent", body)[1] == {"id": answer["id"], "duplicate": True, "queued": 0}
    # Only foreign topics: accepted, nothing queued.
    status, answer, _ = me.call(node, "POST", "/v1/notify/silent", {"topics": [space.topic("chats")]})
    assert status == 200 and outbox_registrations(node, answer["id"]) == []
    with sqlite3.connect(f"file:{database(node)}?mode=ro", uri=True) as db:
        kinds = {row[0] for row in db.execute("SELECT kind FROM notifications")}
    assert "silent" in kinds


def test_silent_field_rules(node):
    me, space = Account(), Space()
    assert error(me.call(node, "POST", "/v1/notify/silent", {})) == (400, "request.missing_field", "topics")
    assert error(me.call(node, "POST", "/v1/notify/silent", {"topics": [space.topic(me.id)], "deviceId": ""})) \
        == (400, "request.invalid_field", "deviceId")
    assert error(me.call(node, "POST", "/v1/notify/silent", {"topics": [space.topic(me.id)], "deviceId": 3})) \
        == (400, "request.invalid_field", "deviceId")
    bad = space.topic(me.id, signature=space.sign(b"other"))
    assert error(me.call(node, "POST", "/v1/notify/silent", {"topics": [space.topic("x"), bad]})) \
        == (400, "topic.signature_invalid", "topics[1].signature")
    body = {"topics": [space.topic(me.id)], "message": Account().message()}
    assert error(me.call(node, "POST", "/v1/notify/silent", body)) == (400, "message.signature_invalid", "message.signature")
    assert me.call(node, "POST", "/v1/notify/silent", {"topics": []})[0] == 200


# MARK: - Rate limits


def test_rate_limits_answer_429_with_retry_after(pushnode_bin):
    n = Node(pushnode_bin, env={**LOCAL_DELIVERY, "PUSHNODE_RATE_LIMITS_REGISTRATION_BURST": "3",
                                "PUSHNODE_RATE_LIMITS_REGISTRATION_PER_MINUTE": "1",
                                "PUSHNODE_RATE_LIMITS_NOTIFY_BURST": "2",
                                "PUSHNODE_RATE_LIMITS_NOTIFY_PER_SECOND": "0.01"})
    try:
        account, space = Account(), Space()
        for _ in range(3):
            assert account.call(n, "GET", "/v1/subscriptions")[0] == 200
        status, body, headers = account.call(n, "POST", "/v1/tokens", webpush_token("d"))
        assert (status, body["error"]["code"]) == (429, "rate_limited")
        assert 1 <= int(headers["Retry-After"]) <= 60
        # Notify has its own bucket; another account has its own buckets.
        for _ in range(2):
            assert account.call(n, "POST", "/v1/notify", account.notify([space.topic("t")]))[0] == 200
        status, body, headers = account.call(n, "POST", "/v1/notify/silent", {"topics": []})
        assert (status, body["error"]["code"]) == (429, "rate_limited") and int(headers["Retry-After"]) >= 1
        assert Account().call(n, "GET", "/v1/tokens")[0] == 200
        metrics = n.request("GET", "/metrics")[2].decode()
        assert 'pushnode_rate_limited_total{class="registration"} 1' in metrics
        assert 'pushnode_rate_limited_total{class="notify"} 1' in metrics
    finally:
        n.stop()
