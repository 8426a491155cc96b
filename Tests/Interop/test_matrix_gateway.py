"""The Matrix Push Gateway door through the real binary (PROTOCOL §10, Spec/matrix.md): a
homeserver's `POST /_matrix/push/v1/notify` against the mock providers, and the exact FCM, APNs
and UnifiedPush requests the node sends for it — ids only by default, the event with
`matrix.forwardContent: true` — then `rejected`, durability across kill -9, the allow list,
the rate limits, the errors and the door being off by default."""
import base64
import json
import re
import time

import pytest

from mockproviders_helper import MockProviders
from pushnode_node import Node, wait_for
from test_apps import BUNDLE_B, apps  # noqa: F401 (a fixture)
from test_delivery_e2e import BUNDLE, node_env

PATH = "/_matrix/push/v1/notify"
ANDROID = "org.example.matrix.android"
IOS = "org.example.matrix.ios.prod"
UP = "org.example.matrix.up"
APPS = f"""
  apps:
    - {{appId: "{ANDROID}", app: default, platform: android}}
    - {{appId: "org.example.matrix.ios*", app: default, platform: apns, environment: production}}
    - {{appId: "{UP}", app: default, platform: webpush}}
"""
IOS_DEFAULT_PAYLOAD = {"aps": {"mutable-content": 1, "alert": {"loc-key": "Notification", "loc-args": []}}}


@pytest.fixture(scope="module")
def mock(tmp_path_factory):
    with MockProviders(tmp_path_factory.mktemp("mock")) as m:
        yield m


def matrix_node(binary, mock, extra="", env=None, data_dir=None):
    config = "matrix:\n  enabled: true\n" + extra + APPS
    return Node(binary, env=node_env(mock, **(env or {})), config_text=config, data_dir=data_dir)


@pytest.fixture
def node(pushnode_bin, mock):
    n = matrix_node(pushnode_bin, mock)
    yield n
    n.stop()


def post(node, document):
    body = document if isinstance(document, bytes) else json.dumps(document).encode()
    status, headers, data = node.request("POST", PATH, headers={"content-type": "application/json"}, body=body)
    return status, headers, json.loads(data)


def event(devices, **fields):
    notification = {
        "event_id": "$3957tyerfgewrf384", "room_id": "!slw48wfj34rtnrf:example.org", "type": "m.room.message",
        "sender": "@exampleuser:example.org", "sender_display_name": "Major Tom", "room_name": "Mission Control",
        "room_alias": "#exampleroom:example.org", "prio": "high",
        "content": {"msgtype": "m.text", "body": "I'm floating in a most peculiar way."},
        "counts": {"unread": 2, "missed_calls": 1}, "devices": devices,
    }
    notification.update(fields)
    return {"notification": notification}


def android(token):
    return {"app_id": ANDROID, "pushkey": token, "pushkey_ts": 12345678, "data": {}, "tweaks": {"sound": "bing"}}


def ios(device_token_hex):
    return {"app_id": IOS, "pushkey": base64.b64encode(bytes.fromhex(device_token_hex)).decode(), "pushkey_ts": 1,
            "data": {"format": "event_id_only", "default_payload": IOS_DEFAULT_PAYLOAD}}


def unifiedpush(mock, topic):
    return {"app_id": UP, "pushkey": f"{mock.http}/up/{topic}", "pushkey_ts": 7, "data": {"url": "https://push.example/_matrix/push/v1/notify"}}


def delivered(mock, provider, token, count=1):
    return wait_for(lambda: (lambda found: found if len(found) >= count else None)(
        [r for r in mock.requests(provider, token) if r["status"] < 300]), message=f"{provider} delivery")


def body(record):
    return json.loads(base64.b64decode(record["body"]))


def header(record, name):
    return next((v for k, v in record["headers"] if k.lower() == name), None)


def test_discovery_and_off_by_default(pushnode_bin, mock, node):
    status, headers, answer = node.json("GET", PATH)
    assert (status, answer) == (200, {"unifiedpush": {"gateway": "matrix"}})
    off = Node(pushnode_bin, env=node_env(mock))
    try:
        for method in ("GET", "POST"):
            assert off.request(method, PATH, body=b"{}")[0] == 404
    finally:
        off.stop()


def test_malformed_requests_get_matrix_errors(node):
    assert post(node, b"not json")[::2] == (400, {"errcode": "M_NOT_JSON", "error": "the body is not JSON"})
    status, _, answer = post(node, {})
    assert (status, answer["errcode"]) == (400, "M_MISSING_PARAM")
    status, _, answer = post(node, {"notification": {"devices": [{"app_id": ANDROID}]}})
    assert (status, answer["errcode"]) == (400, "M_MISSING_PARAM")
    for document in ([], {"notification": {"devices": "x"}}, {"notification": {"devices": [], "counts": {"unread": "2"}}},
                     {"notification": {"devices": [{"app_id": ANDROID, "pushkey": "k", "data": 3}]}}):
        status, _, answer = post(node, document)
        assert (status, answer["errcode"]) == (400, "M_BAD_JSON"), document


def test_ids_only_by_default_in_the_shapes_each_platform_expects(mock, node):
    token, apns_hex = "matrix-android-ids", "ab" * 32
    status, _, answer = post(node, event([android(token), ios(apns_hex), unifiedpush(mock, "ids-only")]))
    assert (status, answer) == (200, {"rejected": []})

    fcm = body(delivered(mock, "fcm", token)[0])
    ttl = fcm["message"]["android"].pop("ttl")
    assert re.fullmatch(r"\d+s", ttl) and 86_300 < int(ttl[:-1]) <= 86_400
    assert fcm == {"message": {"token": token, "android": {"priority": "HIGH"}, "data": {
        "event_id": "$3957tyerfgewrf384", "room_id": "!slw48wfj34rtnrf:example.org", "prio": "high",
        "unread": "2", "missed_calls": "1"}}}

    record = delivered(mock, "apns", apns_hex)[0]
    assert body(record) == {**IOS_DEFAULT_PAYLOAD, "room_id": "!slw48wfj34rtnrf:example.org",
                            "event_id": "$3957tyerfgewrf384", "unread_count": 2, "missed_calls": 1}
    assert (header(record, "apns-push-type"), header(record, "apns-priority"), header(record, "apns-topic")) == \
        ("alert", "10", BUNDLE)

    record = delivered(mock, "unifiedpush", "ids-only")[0]
    assert header(record, "content-type") == "application/json" and header(record, "authorization") is None
    assert body(record) == {"notification": {
        "event_id": "$3957tyerfgewrf384", "room_id": "!slw48wfj34rtnrf:example.org", "prio": "high",
        "counts": {"unread": 2, "missed_calls": 1},
        "devices": [{"app_id": UP, "pushkey": f"{mock.http}/up/ids-only", "pushkey_ts": 7,
                     "data": {"url": "https://push.example/_matrix/push/v1/notify"}}]}}
    assert "floating" not in node.text_log() and token not in node.text_log()


def test_content_is_forwarded_when_asked(pushnode_bin, mock):
    node = matrix_node(pushnode_bin, mock, extra="  forwardContent: true\n")
    try:
        token, apns_hex = "matrix-android-content", "cd" * 32
        device = ios(apns_hex)
        device["data"] = {"default_payload": {"aps": {"mutable-content": 1}, "custom": "x"}}
        status, _, answer = post(node, event([android(token), device, unifiedpush(mock, "content")], prio="low"))
        assert (status, answer) == (200, {"rejected": []})

        fcm = body(delivered(mock, "fcm", token)[0])
        assert fcm["message"]["android"]["priority"] == "NORMAL"
        assert fcm["message"]["data"] == {
            "event_id": "$3957tyerfgewrf384", "type": "m.room.message", "sender": "@exampleuser:example.org",
            "room_name": "Mission Control", "room_alias": "#exampleroom:example.org", "sender_display_name": "Major Tom",
            "content_msgtype": "m.text", "content_body": "I'm floating in a most peculiar way.",
            "room_id": "!slw48wfj34rtnrf:example.org", "prio": "normal", "unread": "2", "missed_calls": "1"}

        record = delivered(mock, "apns", apns_hex)[0]
        assert body(record) == {
            "aps": {"mutable-content": 1, "alert": {"loc-key": "MSG_FROM_USER_IN_ROOM_WITH_CONTENT",
                                                    "loc-args": ["Major Tom", "Mission Control",
                                                                 "I'm floating in a most peculiar way."]},
                    "badge": 3},
            "custom": "x", "room_id": "!slw48wfj34rtnrf:example.org", "event_id": "$3957tyerfgewrf384"}
        assert header(record, "apns-priority") == "5"

        sent = body(delivered(mock, "unifiedpush", "content")[0])["notification"]
        assert sent["content"] == {"body": "I'm floating in a most peculiar way.", "msgtype": "m.text"}
        assert (sent["sender"], sent["type"], sent["prio"]) == ("@exampleuser:example.org", "m.room.message", "low")
    finally:
        node.stop()


def test_a_badge_update(mock, node):
    token, apns_hex = "matrix-android-badge", "ef" * 32
    badge = {"notification": {"id": "", "type": None, "sender": "", "counts": {"unread": 4},
                              "devices": [android(token), ios(apns_hex)]}}
    assert post(node, badge)[::2] == (200, {"rejected": []})
    assert body(delivered(mock, "fcm", token)[0])["message"]["data"] == {"prio": "high", "unread": "4"}
    assert body(delivered(mock, "apns", apns_hex)[0]) == {"aps": {"badge": 4}}


def test_rejected_pushkeys(mock, node):
    dead = "unregistered-matrix-dead"
    unmapped = {"app_id": "org.other.app", "pushkey": "whatever"}
    malformed = {"app_id": IOS, "pushkey": "not base64!"}
    private_up = {"app_id": UP, "pushkey": "ftp://example.org/up/x"}
    status, _, answer = post(node, event([android(dead), unmapped, malformed, private_up]))
    assert (status, answer) == (200, {"rejected": ["whatever", "not base64!", "ftp://example.org/up/x"]})
    # The provider says the token is dead; the next request naming it is told to drop it.
    wait_for(lambda: node.metric("pushnode_registrations_pruned_total", provider="fcm", reason="fcm.unregistered") >= 1,
             message="the dead token pruned")
    assert post(node, event([android(dead), android("matrix-alive")], event_id="$second"))[::2] == \
        (200, {"rejected": [dead]})
    assert node.metric("pushnode_matrix_devices_total", outcome="rejected") == 4
    # The same event to the same device is queued once, however often the homeserver sends it.
    assert post(node, event([android("matrix-alive")], event_id="$second"))[0] == 200
    assert node.metric("pushnode_matrix_devices_total", outcome="duplicate") == 1


def test_a_queued_push_survives_kill_9(pushnode_bin, mock, tmp_path):
    token = "matrix-android-durable"
    mock.script("fcm", token, [{"error": "UNAVAILABLE", "times": 1000}])
    node = matrix_node(pushnode_bin, mock, data_dir=str(tmp_path / "data"))
    try:
        assert post(node, event([android(token)]))[::2] == (200, {"rejected": []})
        wait_for(lambda: mock.requests("fcm", token), message="a first try")
    finally:
        node.kill(cleanup=False)
    mock.script("fcm", token, [])
    node = matrix_node(pushnode_bin, mock, data_dir=str(tmp_path / "data"))
    try:
        assert body(delivered(mock, "fcm", token)[0])["message"]["data"]["event_id"] == "$3957tyerfgewrf384"
    finally:
        node.stop()


def test_allow_list_and_rate_limits(pushnode_bin, mock):
    closed = matrix_node(pushnode_bin, mock, extra="  allowedSources: [10.0.0.0/8]\n")
    try:
        status, headers, answer = post(closed, event([android("matrix-forbidden")]))
        assert (status, answer["errcode"]) == (403, "M_FORBIDDEN")
        assert closed.json("GET", PATH)[0] == 200
    finally:
        closed.stop()
    limited = matrix_node(pushnode_bin, mock, extra="  allowedSources: [127.0.0.0/8, \"::1\"]\n"
                          "  limits: {pushkeyBurst: 2, pushkeyPerMinute: 1, sourceBurst: 6, sourcePerSecond: 0.1}\n")
    try:
        answers = [post(limited, event([android("matrix-hot")], event_id=f"$e{i}")) for i in range(3)]
        assert [a[0] for a in answers] == [200, 200, 429]
        assert answers[2][2]["errcode"] == "M_LIMIT_EXCEEDED" and answers[2][2]["retry_after_ms"] >= 1000
        assert answers[2][1]["Retry-After"]
        others = [post(limited, event([android(f"matrix-cool-{i}")]))[0] for i in range(4)]
        assert others == [200, 200, 200, 429]
    finally:
        limited.stop()


def test_each_pusher_app_id_goes_out_with_its_apps_credentials(pushnode_bin, apps):
    """`matrix.apps` names the node's apps (PROTOCOL §10 "Apps"): a pusher of the `beta` app's
    Matrix client is sent with beta's FCM project and APNs key and topic, one of the default app
    with the top-level ones."""
    config = apps["config"] + """
matrix:
  enabled: true
  apps:
    - {appId: "org.example.beta.android", app: beta, platform: android}
    - {appId: "org.example.beta.ios", app: beta, platform: apns}
    - {appId: "org.example.default.*", app: default, platform: android}
"""
    node = Node(pushnode_bin, config_text=config)
    try:
        beta_ios = {"app_id": "org.example.beta.ios", "pushkey": base64.b64encode(bytes(range(32))).decode()}
        devices = [{"app_id": "org.example.beta.android", "pushkey": "beta-android"}, beta_ios,
                   {"app_id": "org.example.default.android", "pushkey": "default-android"}]
        assert post(node, event(devices))[::2] == (200, {"rejected": []})
        a, b = apps["a"], apps["b"]
        assert delivered(b, "fcm", "beta-android")[0]["path"] == "/v1/projects/project-b/messages:send"
        assert header(delivered(b, "apns", bytes(range(32)).hex())[0], "apns-topic") == BUNDLE_B
        assert delivered(a, "fcm", "default-android")[0]["path"] == "/v1/projects/project-a/messages:send"
        assert not a.requests("fcm", "beta-android") and not b.requests("fcm", "default-android")
    finally:
        node.stop()
        for mock in (apps["a"], apps["a_dev"], apps["b"]):
            mock.reset()
