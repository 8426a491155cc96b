"""The node's log through the real binary: RFC 3339 timestamps on every line, json lines, a
delivery log that answers "why didn't Alice get her push?", no secret anywhere in a debug log of
real traffic against the mock providers; and signals: SIGHUP reopens `log.file` after a
logrotate-style rename and never stops the node, SIGTERM and SIGINT drain."""
import base64
import glob
import json
import os
import re
import signal

import pytest

from mockproviders_helper import MockProviders
from pushnode_node import Node, wait_for
from pushnode_signatures import sign_with_library
from test_delivery_e2e import Account, Space, Subscriber, apns_token, headers_of, node_env, received, uid

RFC3339_MS = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"


@pytest.fixture(scope="module")
def mock(tmp_path_factory):
    with MockProviders(tmp_path_factory.mktemp("mock")) as m:
        yield m


class RecordingAccount(Account):
    """An account that keeps every request signature it sent, to look for them in the log."""

    def __init__(self, node, signatures):
        super().__init__(node)
        self.signatures = signatures

    def call(self, method, path, document=None):
        body = json.dumps(document).encode() if document is not None else b""
        _, headers = sign_with_library(self.seed, method, path, None, body, nonce=os.urandom(16).hex())
        for name, value in headers.items():
            if name.lower() == "signature":
                self.signatures.append(value.split(":")[1])
        if body:
            headers["content-type"] = "application/json"
        status, _, data = self.node.request(method, path, headers=headers, body=body)
        return status, (json.loads(data) if data else None)


def pem_body_lines(path):
    """The base64 lines of a PEM file (or of a JSON file's PEM private key)."""
    text = open(path).read()
    if path.endswith(".json"):
        text = json.loads(text)["private_key"]
    return [line for line in text.splitlines() if line and not line.startswith("-----")]


def test_a_debug_log_of_real_traffic_answers_questions_and_holds_no_secret(pushnode_bin, mock, tmp_path):
    log_file = str(tmp_path / "node.log")
    node = Node(pushnode_bin, log_file=log_file,
                env=node_env(mock, PUSHNODE_LOG_LEVEL="debug", PUSHNODE_LOG_FORMAT="json",
                             PUSHNODE_LOG_SUMMARY_INTERVAL="500ms"))
    signatures, secrets = [], []
    try:
        sender, receiver, space = RecordingAccount(node, signatures), RecordingAccount(node, signatures), Space()
        android, ios, alert, voip = uid("android-"), uid("ios-"), apns_token(), apns_token()
        sub, gone = Subscriber(mock, uid("sub-")), Subscriber(mock, uid("gone-"))
        mock.script("fcm", android, [{"error": "UNAVAILABLE", "status": 503}])
        ids = {
            "android": receiver.register("android", android, device="phone"),
            "ios": receiver.register("ios", ios, device="ipad"),
            "apns": receiver.register("apns", alert, device="iphone", environment="development"),
            "voip": receiver.register("apns_voip", voip, device="iphone"),
            "webpush": receiver.register("webpush", sub.endpoint, device="browser", p256dh=sub.p256dh, auth=sub.auth),
            "gone": receiver.register("webpush", gone.endpoint, device="old", p256dh=gone.p256dh, auth=gone.auth),
        }
        receiver.subscribe(space, "chat")
        message_id, message = sender.notify(space, "chat")
        call_id, call = sender.notify(space, "chat", kind="call", ttl=30)
        received(mock, "fcm", android, count=2, status=200)
        for provider, token in (("fcm", ios), ("apns", alert), ("apns", voip), ("webpush", sub.id), ("webpush", gone.id)):
            received(mock, provider, token)
        wait_for(lambda: '"event":"delivery_summary"' in node.text_log(), message="a delivery summary")
        wait_for(lambda: '"event":"registration_pruned"' in node.text_log(), message="the gone subscription pruned")

        secrets += [android, ios, alert, voip, sub.endpoint, gone.endpoint, sub.id, gone.id, sub.p256dh, sub.auth,
                    gone.p256dh, gone.auth, sender.seed.hex(), receiver.seed.hex()]
        for sent in (message, call):
            secrets += [sent["payload"], sent["signature"]]
        secrets += signatures + [space.topic("chat")["signature"]]
        # Keys on disk: the VAPID key the node generated, the APNs .p8, the service account's key.
        secrets += [line for path in glob.glob(os.path.join(node.data_dir, "*.pem")) for line in pem_body_lines(path)]
        secrets += pem_body_lines(mock.ready["apnsKeyFile"]) + pem_body_lines(mock.ready["serviceAccountFile"])
        # What the node sent the providers: the OAuth access token, the APNs JWT, the VAPID JWT.
        for request in mock.requests():
            authorization = headers_of(request).get("authorization", "")
            secrets += [part for part in re.split(r"[ ,=]", authorization) if len(part) > 20]
    finally:
        code = node.stop(cleanup=False)
    assert code == 0
    log = node.text_log()
    lines = [json.loads(line) for line in log.splitlines()]
    node.dir.cleanup()

    assert len(secrets) > 30 and not any(len(s) < 16 for s in secrets)
    leaked = [s for s in secrets if s in log]
    assert leaked == [], f"secrets in the log: {leaked}"
    for line in lines:
        assert re.fullmatch(RFC3339_MS, line["ts"]) and line["level"] in ("debug", "info", "warn", "error"), line
        assert list(line)[:3] == ["ts", "level", "event"], line

    deliveries = [line for line in lines if line["event"] == "delivery"]
    for line in deliveries:
        assert {"provider", "notification", "registration", "kind", "attempt", "outcome"} <= set(line), line
        assert re.fullmatch(r"[0-9a-f]{8}", line["registration"]) and isinstance(line["attempt"], int), line

    def of(registration, outcome):
        return [d for d in deliveries if d["registration"] == ids[registration][:8] and d["outcome"] == outcome]

    retried, = of("android", "retried")  # the first request for the token was answered 503
    assert retried["level"] == "info" and retried["notification"] in (message_id, call_id) and retried["attempt"] == 1
    assert retried["reason"] == "fcm.unavailable" and re.fullmatch(RFC3339_MS, retried["next_attempt_at"])
    delivered, = [d for d in of("android", "delivered") if d["notification"] == retried["notification"]]
    assert delivered["level"] == "debug" and delivered["attempt"] == 2 and delivered["provider"] == "fcm"
    assert "next_attempt_at" not in delivered
    assert [d["notification"] for d in of("voip", "delivered")] == [call_id]
    assert {d["kind"] for d in of("webpush", "delivered")} == {"message", "call"}
    dead = of("gone", "dead")[0]
    assert dead["level"] == "info" and dead["reason"] == "webpush.gone" and dead["provider"] == "webpush"

    summaries = [line for line in lines if line["event"] == "delivery_summary"]
    assert summaries and all(line["level"] == "info" for line in summaries)
    delivered_total = sum(line.get("fcm.delivered", 0) for line in summaries)
    assert delivered_total == len([d for d in deliveries if d["provider"] == "fcm" and d["outcome"] == "delivered"])
    assert sum(line.get("fcm.retried", 0) for line in summaries) == 1


def test_sighup_reopens_the_log_file_after_a_rename_and_sigterm_drains(pushnode_bin, tmp_path):
    log_file = str(tmp_path / "pushnode.log")
    node = Node(pushnode_bin, log_file=log_file)
    try:
        assert node.request("GET", "/v1/capabilities")[0] == 200
        wait_for(lambda: "event=http" in node.text_log(), message="the first request logged")
        os.rename(log_file, log_file + ".1")  # what logrotate does
        node.proc.send_signal(signal.SIGHUP)
        wait_for(lambda: os.path.exists(log_file) and "event=sighup" in node.text_log(), message="a new log file")
        assert node.proc.poll() is None
        status, _, ready = node.json("GET", "/readyz")
        assert status == 200 and ready["status"] == "ready"
        wait_for(lambda: "event=http method=GET route=/readyz status=200" in node.text_log(),
                 message="the next request logged in the new file")
        rotated = open(log_file + ".1").read()
        node.proc.send_signal(signal.SIGHUP)  # a second one: still serving, same file
        wait_for(lambda: node.text_log().count("event=sighup") == 2, message="the second sighup")
        assert node.request("GET", "/healthz")[0] == 200
    finally:
        code = node.stop(cleanup=False)
    assert code == 0
    new = node.text_log()
    node.dir.cleanup()
    assert "event=ready" in rotated and "event=sighup" not in rotated and "route=/readyz" not in rotated
    assert open(log_file + ".1").read() == rotated  # nothing more went to the renamed file
    assert new.splitlines()[0].endswith("level=info event=sighup")
    assert "event=shutdown stage=started" in new and "event=shutdown stage=done" in new
    for line in rotated.splitlines() + new.splitlines():
        assert re.match(RFC3339_MS + " level=(debug|info|warn|error) event=", line), line


def test_sigint_drains_like_sigterm(pushnode_bin):
    node = Node(pushnode_bin)
    assert node.request("GET", "/healthz")[0] == 200
    node.proc.send_signal(signal.SIGINT)
    assert node.proc.wait(timeout=30) == 0
    node.reader.join(timeout=30)
    log = node.text_log()
    node.dir.cleanup()
    assert "event=shutdown stage=started" in log and "event=shutdown stage=drained complete=true" in log
    assert "event=shutdown stage=done" in log
