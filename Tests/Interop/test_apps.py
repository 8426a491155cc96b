"""Several apps on one node (PROTOCOL §10), through the real binary: the app `default` (the
top-level sections) and `beta` (an `apps` entry), each with its own mock providers that accept
only that app's FCM project, APNs team, key and topic, and VAPID public key — so a delivery sent
with the other app's credentials would be refused, not merely misrouted. APNs production and
development registrations of `default` go to two mocks (`apns.host`, `apns.developmentHost`)
sharing one key, as Apple's two environments do."""
import json
import os
import time

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from mockproviders_helper import MockProviders
from pushnode_node import Node, wait_for
from test_delivery_e2e import Account, Space, Subscriber, apns_token, b64url, received, uid

BUNDLE_A, BUNDLE_B = "org.example.app", "org.example.beta"


def vapid_key(path):
    """A VAPID key written as PEM; returns its public key as capabilities and the mock name it."""
    key = ec.generate_private_key(ec.SECP256R1())
    with open(path, "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                  serialization.NoEncryption()))
    return b64url(key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))


@pytest.fixture(scope="module")
def apps(tmp_path_factory):
    root = tmp_path_factory.mktemp("apps")
    vapid_a, vapid_b = vapid_key(root / "a-vapid.pem"), vapid_key(root / "b-vapid.pem")
    with MockProviders(root / "a", "--project-id", "project-a", "--apns-team-id", "TEAMAAAAAA", "--apns-key-id",
                       "KEYAAAAAAA", "--apns-bundle", BUNDLE_A, "--webpush-vapid-key", vapid_a) as a, \
            MockProviders(root / "b", "--project-id", "project-b", "--apns-team-id", "TEAMBBBBBB", "--apns-key-id",
                          "KEYBBBBBBB", "--apns-bundle", BUNDLE_B, "--webpush-vapid-key", vapid_b) as b:
        with MockProviders(root / "a-dev", "--apns-key-file", a.ready["apnsKeyFile"], "--apns-team-id", "TEAMAAAAAA",
                           "--apns-key-id", "KEYAAAAAAA", "--apns-bundle", BUNDLE_A) as a_dev:
            bundle = root / "cas.pem"
            bundle.write_bytes(b"".join(open(m.ready["caFile"], "rb").read() for m in (a, a_dev, b)))
            config = f"""
adminListen: "127.0.0.1:0"
tls: {{caFile: {bundle}}}
delivery: {{initialBackoff: 100ms, maxBackoff: 400ms}}
server: {{shutdownTimeout: 2s}}
fcm: {{credentialsPath: {a.ready['serviceAccountFile']}, baseURL: "{a.https}"}}
apns: {{keyPath: {a.ready['apnsKeyFile']}, keyId: KEYAAAAAAA, teamId: TEAMAAAAAA, topic: {BUNDLE_A},
        host: "{a.https}", developmentHost: "{a_dev.https}"}}
webpush: {{vapidKeyPath: {root / 'a-vapid.pem'}, allowPrivateEndpoints: true}}
apps:
  - id: beta
    fcm: {{credentialsPath: {b.ready['serviceAccountFile']}, baseURL: "{b.https}"}}
    apns: {{keyPath: {b.ready['apnsKeyFile']}, keyId: KEYBBBBBBB, teamId: TEAMBBBBBB, topic: {BUNDLE_B}, host: "{b.https}"}}
    webpush: {{vapidKeyPath: {root / 'b-vapid.pem'}}}
"""
            yield {"a": a, "a_dev": a_dev, "b": b, "config": config, "vapid": {"default": vapid_a, "beta": vapid_b}}


@pytest.fixture
def node(pushnode_bin, apps):
    n = Node(pushnode_bin, config_text=apps["config"])
    yield n
    n.stop()
    for mock in (apps["a"], apps["a_dev"], apps["b"]):
        mock.reset()


def test_each_app_delivers_with_its_own_credentials_and_never_another(node, apps):
    a, a_dev, b = apps["a"], apps["a_dev"], apps["b"]
    status, _, body = node.request("GET", "/v1/capabilities")
    capabilities = json.loads(body)
    assert [(app["id"], app["vapidPublicKey"]) for app in capabilities["apps"]] == \
        [("default", apps["vapid"]["default"]), ("beta", apps["vapid"]["beta"])]
    assert capabilities["vapidPublicKey"] == apps["vapid"]["default"]

    sender, receiver, space = Account(node), Account(node), Space()
    status, answer = receiver.call("POST", "/v1/tokens", {"deviceId": "x", "platform": "android", "token": "t",
                                                          "appId": "gamma"})
    assert (status, answer["error"]["code"], answer["error"].get("field")) == (400, "app.unknown", "appId")

    tokens = {"default": {"android": uid("android-a-"), "apns": apns_token("aa"), "dev": apns_token("ad")},
              "beta": {"android": uid("android-b-"), "apns": apns_token("bb")}}
    web = {"default": Subscriber(a, uid("web-a-")), "beta": Subscriber(b, uid("web-b-"))}
    for app, t in tokens.items():
        fields = {} if app == "default" else {"appId": app}
        receiver.register("android", t["android"], device="phone-" + app, **fields)
        receiver.register("apns", t["apns"], device="iphone-" + app, **fields)
        receiver.register("webpush", web[app].endpoint, device="browser-" + app, p256dh=web[app].p256dh,
                          auth=web[app].auth, **fields)
    receiver.register("apns", tokens["default"]["dev"], device="iphone-dev", environment="development")
    receiver.subscribe(space, "t")
    sender.notify(space, "t")

    fcm_a = received(a, "fcm", tokens["default"]["android"], status=200)[0]
    fcm_b = received(b, "fcm", tokens["beta"]["android"], status=200)[0]
    assert fcm_a["path"] == "/v1/projects/project-a/messages:send"
    assert fcm_b["path"] == "/v1/projects/project-b/messages:send"
    apns_a = received(a, "apns", tokens["default"]["apns"], status=200)[0]
    apns_b = received(b, "apns", tokens["beta"]["apns"], status=200)[0]
    assert dict(apns_a["headers"])["apns-topic"] == BUNDLE_A and dict(apns_b["headers"])["apns-topic"] == BUNDLE_B
    received(a_dev, "apns", tokens["default"]["dev"], status=200)
    received(a, "webpush", web["default"].id, status=201)
    received(b, "webpush", web["beta"].id, status=201)

    # Nothing went to the other app's providers, nor production to the development host or back.
    assert a.requests("apns", tokens["default"]["dev"]) == [] and a_dev.requests("apns", tokens["default"]["apns"]) == []
    for t in tokens["beta"].values():
        assert a.requests(None, t) == [] and a_dev.requests(None, t) == []
    for t in tokens["default"].values():
        assert b.requests(None, t) == []
    assert a.requests("webpush", web["beta"].id) == [] and b.requests("webpush", web["default"].id) == []
    wait_for(lambda: node.metric("pushnode_deliveries_total", provider="apns", app="beta", outcome="delivered") == 1,
             message="beta's APNs delivery counted under its app")
    assert node.metric("pushnode_deliveries_total", provider="apns", app="default", outcome="delivered") == 2
    status = json.loads(node.request("GET", "/status.json", port=node.admin_port)[2])
    assert {(row["provider"], row["app"]) for row in status["providers"]} == \
        {(p, app) for p in ("fcm", "apns", "webpush") for app in ("default", "beta")}


def test_one_apps_revoked_key_leaves_the_other_delivering(node, apps):
    a, b = apps["a"], apps["b"]
    sender, receiver, space = Account(node), Account(node), Space()
    refused, working = apns_token("aa"), apns_token("bb")
    receiver.register("apns", refused, device="iphone-a")
    receiver.register("apns", working, device="iphone-b", appId="beta")
    receiver.subscribe(space, "t")
    a.control("POST", "/_mock/revoke", {"keys": True})
    started = time.time()
    pushes = 20
    for _ in range(pushes):
        sender.notify(space, "t", group=None)
    received(b, "apns", working, count=pushes, status=200)
    elapsed = time.time() - started
    print(f"beta: {pushes} APNs deliveries in {elapsed:.2f} s while default's key was refused")
    assert elapsed < 10
    ready = json.loads(node.request("GET", "/readyz")[2])
    assert ready["providers"]["apns"] == "credentials_refused" and ready["providers"]["apns@beta"] == "healthy"
    assert all(r["status"] == 403 for r in a.requests("apns", refused))



def test_a_test_push_reports_what_the_provider_said(node, apps, pushnode_bin):
    a, b = apps["a"], apps["b"]
    owner, stranger = Account(node), Account(node)
    beta_token = apns_token("bb")
    beta = owner.register("apns", beta_token, device="iphone-b", appId="beta")
    dead = owner.register("apns", apns_token("dead"), device="iphone-dead")
    refused_token = apns_token("cc")
    refused = owner.register("apns", refused_token, device="iphone-refused")
    a.script("apns", refused_token, [{"reason": "BadExpirationDate"}])

    def test(account, registration):
        return account.call("POST", "/v1/tokens/test", {"registrationId": registration})

    status, answer = test(owner, beta)
    assert status == 200 and {k: answer[k] for k in ("registrationId", "app", "platform", "outcome", "status")} == \
        {"registrationId": beta, "app": "beta", "platform": "apns", "outcome": "delivered", "status": 200}
    assert isinstance(answer["latencyMs"], int) and 0 <= answer["latencyMs"] < 10_000
    assert len(b.requests("apns", beta_token)) == 1 and a.requests("apns", beta_token) == []

    status, answer = test(owner, dead)
    assert (status, answer["outcome"], answer["status"], answer["reason"], answer["providerReason"]) == \
        (200, "dead", 410, "apns.unregistered", "Unregistered")
    assert dead not in [r["registrationId"] for r in owner.call("GET", "/v1/tokens")[1]["registrations"]], "pruned"

    status, answer = test(owner, refused)
    assert (status, answer["outcome"], answer["status"], answer["providerReason"]) == (200, "rejected", 400, "BadExpirationDate")

    status, answer = test(stranger, beta)
    assert (status, answer["error"]["code"]) == (404, "registration.not_found")
    answers = [test(owner, beta)[0] for _ in range(3)]
    assert answers[-1] == 429, answers  # a burst of 3 per registration: the 4th test of `beta` waits
    assert len(b.requests("apns", beta_token)) == 3


def test_registrations_of_a_removed_app_are_counted_at_start_and_never_sent(pushnode_bin, apps, tmp_path):
    a, b = apps["a"], apps["b"]
    data, seed, space = str(tmp_path / "data"), os.urandom(32), Space()
    kept, orphaned = apns_token("aa"), apns_token("bb")
    n = Node(pushnode_bin, config_text=apps["config"], data_dir=data)
    try:
        receiver = Account(n, seed)
        receiver.register("apns", kept, device="iphone-a")
        receiver.register("apns", orphaned, device="iphone-b", appId="beta")
        receiver.subscribe(space, "t")
        assert "registrations_app_unconfigured" not in n.text_log()
    finally:
        n.stop(cleanup=False)

    without_beta = apps["config"].split("apps:")[0]
    n = Node(pushnode_bin, config_text=without_beta, data_dir=data)
    try:
        warnings = [line for line in n.text_log().splitlines() if "event=registrations_app_unconfigured" in line]
        assert len(warnings) == 1 and "registrations=1" in warnings[0] and "beta=1" in warnings[0], warnings
        assert orphaned not in warnings[0] and kept not in warnings[0]
        Account(n).notify(space, "t")
        received(a, "apns", kept, status=200)
        wait_for(lambda: n.metric("pushnode_deliveries_total", provider="apns", app="default", outcome="rejected") == 1,
                 message="beta's delivery rejected by default's lane")
        assert a.requests("apns", orphaned) == [] and b.requests("apns", orphaned) == []
        assert "gateway.app_unconfigured" in n.text_log()
    finally:
        n.stop()
        for mock in (a, apps["a_dev"], b):
            mock.reset()


def two_nodes_config(mock, root, renewal, interval):
    return {"PUSHNODE_APNS_KEY_PATH": mock.ready["apnsKeyFile"], "PUSHNODE_APNS_KEY_ID": mock.ready["apnsKeyId"],
            "PUSHNODE_APNS_TEAM_ID": mock.ready["apnsTeamId"], "PUSHNODE_APNS_TOPIC": BUNDLE_A,
            "PUSHNODE_APNS_HOST": mock.https, "PUSHNODE_TLS_CA_FILE": mock.ready["caFile"],
            "PUSHNODE_APNS_TOKEN_RENEWAL": renewal, "PUSHNODE_APNS_TOKEN_MIN_INTERVAL": interval,
            "PUSHNODE_DELIVERY_INITIAL_BACKOFF": "100ms", "PUSHNODE_DELIVERY_MAX_BACKOFF": "400ms",
            "PUSHNODE_SERVER_SHUTDOWN_TIMEOUT": "2s"}


def push_through(nodes, mock, seconds, delivered=True):
    """Notifies through each node in turn for `seconds` (the device registered on each); returns the
    APNs requests the mock saw, once every push was delivered when `delivered`."""
    seed, space, token = os.urandom(32), Space(), apns_token("ab")
    for n in nodes:
        receiver = Account(n, seed)
        receiver.register("apns", token, device="iphone")
        receiver.subscribe(space, "t")
    senders = [Account(n) for n in nodes]
    deadline, sent = time.time() + seconds, 0
    while time.time() < deadline:
        senders[sent % len(senders)].notify(space, "t", group=None)
        sent += 1
        time.sleep(0.2)
    if delivered:
        wait_for(lambda: len([r for r in mock.requests("apns", token) if r["status"] == 200]) >= sent,
                 timeout=30, message="the pushes delivered")
    else:
        wait_for(lambda: len(mock.requests("apns", token)) >= sent, timeout=30, message="the pushes sent")
    return mock.requests("apns", token)


def test_nodes_on_one_database_present_one_apns_token_per_key(pushnode_bin, postgres_database, tmp_path):
    # The mock refuses a key's new token within 4 s of the last change, as APNs does within 20 min;
    # the nodes renew at 6 s and never within 4 s. 20 s of pushes through both nodes: 3+ renewals.
    with MockProviders(tmp_path / "mock", "--apns-team-id", "TEAMAAAAAA", "--apns-key-id", "KEYAAAAAAA",
                       "--apns-token-update-window", "4") as mock:
        env = dict(postgres_database.env(), **two_nodes_config(mock, tmp_path, "6s", "4s"))
        nodes = [Node(pushnode_bin, env=env) for _ in range(2)]
        try:
            requests = push_through(nodes, mock, 20)
        finally:
            for n in nodes:
                n.stop()
        assert [r for r in requests if r["status"] == 429] == []
        first_seen = {}
        for r in sorted(requests, key=lambda r: r["time"]):
            first_seen.setdefault(dict(r["headers"])["authorization"], r["time"])
        times = sorted(first_seen.values())
        assert 3 <= len(times) <= 6, times  # renewed about every 6 s, by one node for both
        assert all(later - earlier >= 4 for earlier, later in zip(times, times[1:])), times

        # The old behaviour, each node its own token (two SQLite nodes): the mock answers 429.
        mock.reset()
        nodes = [Node(pushnode_bin, env=two_nodes_config(mock, tmp_path, "6s", "4s")) for _ in range(2)]
        try:
            requests = push_through(nodes, mock, 3, delivered=False)
        finally:
            for n in nodes:
                n.stop()
        assert any(r["status"] == 429 for r in requests)
