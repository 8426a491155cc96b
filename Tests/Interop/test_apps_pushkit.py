"""Huawei Push Kit per app (PROTOCOL §10), through the real binary: the app `default` and `beta`,
each with its own Push Kit mock (Tests/Mocks/mock_huawei.py), which accepts only its own App ID
and secret (v1, OAuth client credentials) and its own project and service account (v3, the PS256
JWT verified with that account's public key). A push sent with the other app's credentials would
be refused by the mock, not merely misrouted. `check --live` checks each app's credentials."""
import json
import os
import subprocess

import jwt
import pytest

from mockproviders_helper import MockProviders
from pushnode_node import Node, wait_for
from test_delivery_e2e import headers_of, received, setup_pair, uid

AUDIENCE = "https://oauth-login.cloud.huawei.com/oauth2/v3/token"


def pushkit_section(mock):
    r = mock.ready
    return (f"huawei: {{appId: \"{r['huaweiAppId']}\", clientSecret: \"{r['huaweiClientSecret']}\", "
            f"baseURL: \"{mock.https}\", tokenURL: \"{r['huaweiTokenURL']}\"}}",
            f"harmony: {{projectId: \"{r['harmonyProjectId']}\", serviceAccountPath: {r['harmonyServiceAccountFile']}, "
            f"baseURL: \"{mock.https}\"}}")


@pytest.fixture(scope="module")
def mocks(tmp_path_factory):
    root = tmp_path_factory.mktemp("apps-pushkit")
    with MockProviders(root / "a") as a, MockProviders(root / "b") as b:
        bundle = root / "cas.pem"
        bundle.write_bytes(b"".join(open(m.ready["caFile"], "rb").read() for m in (a, b)))
        huawei_a, harmony_a = pushkit_section(a)
        huawei_b, harmony_b = pushkit_section(b)
        config = f"""
adminListen: "127.0.0.1:0"
tls: {{caFile: {bundle}}}
delivery: {{initialBackoff: 100ms, maxBackoff: 400ms}}
server: {{shutdownTimeout: 2s}}
{huawei_a}
{harmony_a}
apps:
  - id: beta
    {huawei_b}
    {harmony_b}
"""
        path = root / "config.yaml"
        path.write_text(config)
        yield {"a": a, "b": b, "config": config, "path": str(path)}


@pytest.fixture
def node(pushnode_bin, mocks):
    n = Node(pushnode_bin, config_text=mocks["config"])
    yield n
    n.stop()
    for mock in (mocks["a"], mocks["b"]):
        mock.reset()


def service_account(mock):
    from cryptography.hazmat.primitives import serialization
    with open(mock.ready["harmonyServiceAccountFile"]) as f:
        account = json.load(f)
    return account, serialization.load_pem_private_key(account["private_key"].encode(), None).public_key()


def test_each_app_pushes_with_its_own_push_kit_credentials(node, mocks):
    a, b = mocks["a"], mocks["b"]
    _, _, capabilities = node.json("GET", "/v1/capabilities")
    assert [(app["id"], {"huawei", "harmony"} <= set(app["platforms"])) for app in capabilities["apps"]] == \
        [("default", True), ("beta", True)]

    sender, receiver, space = setup_pair(node)
    tokens = {app: {"huawei": uid(f"hms-{app}-"), "harmony": uid(f"harmony-{app}-")} for app in ("default", "beta")}
    for app, t in tokens.items():
        fields = {} if app == "default" else {"appId": app}
        receiver.register("huawei", t["huawei"], device="mate-" + app, **fields)
        receiver.register("harmony", t["harmony"], device="pura-" + app, **fields)
    receiver.subscribe(space, "t")
    sender.notify(space, "t")

    for app, mock, other in (("default", a, b), ("beta", b, a)):
        t = tokens[app]
        v1 = received(mock, "huawei", t["huawei"], status=200)[0]
        assert v1["path"] == f"/v1/{mock.ready['huaweiAppId']}/messages:send"
        v3 = received(mock, "harmony", t["harmony"], status=200)[0]
        assert v3["path"] == f"/v3/{mock.ready['harmonyProjectId']}/messages:send"
        account, key = service_account(mock)
        token = headers_of(v3)["authorization"].removeprefix("Bearer ")
        assert jwt.get_unverified_header(token)["kid"] == account["key_id"]
        assert jwt.decode(token, key, algorithms=["PS256"], audience=AUDIENCE)["iss"] == account["sub_account"]
        # Each app bought its own access token, once, with its own client credentials.
        assert mock.stats()["huaweiTokenMints"] == 1
        assert other.requests("huawei", t["huawei"]) == [] and other.requests("harmony", t["harmony"]) == []
    wait_for(lambda: node.metric("pushnode_deliveries_total", provider="harmony", app="beta", outcome="delivered") == 1,
             message="beta's harmony delivery counted under its app")
    for provider in ("huawei", "harmony"):
        for app in ("default", "beta"):
            assert node.metric("pushnode_deliveries_total", provider=provider, app=app, outcome="delivered") == 1
    _, _, ready = node.json("GET", "/readyz")
    assert {ready["providers"][p] for p in ("huawei", "harmony", "huawei@beta", "harmony@beta")} == {"healthy"}
    _, _, page = node.json("GET", "/status.json", port=node.admin_port)
    assert {("huawei", "beta"), ("harmony", "beta"), ("huawei", "default")} <= \
        {(p["provider"], p["app"]) for p in page["providers"]}


def test_one_apps_refused_secret_leaves_the_other_delivering(node, mocks):
    a, b = mocks["a"], mocks["b"]
    sender, receiver, space = setup_pair(node)
    refused, working = uid("hms-default-"), uid("hms-beta-")
    receiver.register("huawei", refused, device="mate-a")
    receiver.register("huawei", working, device="mate-b", appId="beta")
    receiver.subscribe(space, "t")
    a.control("POST", "/_mock/revoke", {"keys": True})
    for _ in range(5):
        sender.notify(space, "t", group=None)
    received(b, "huawei", working, count=5, status=200)
    wait_for(lambda: node.json("GET", "/readyz")[2]["providers"]["huawei"] == "credentials_refused",
             message="default's huawei refused")
    assert node.json("GET", "/readyz")[2]["providers"]["huawei@beta"] == "healthy"


def check_live(binary, mocks, tmp_path):
    environment = {k: v for k, v in os.environ.items() if not k.startswith("PUSHNODE_")}
    environment["PUSHNODE_DATA_DIR"] = str(tmp_path / "data")
    proc = subprocess.run([binary, "check", "--live", "--config", mocks["path"]], env=environment,
                          capture_output=True, timeout=120)
    out = proc.stdout.decode()
    return proc.returncode, {c["name"]: c for c in json.loads(out)["checks"]} if out.strip() else {}, out + proc.stderr.decode()


def test_check_live_asks_each_app_with_its_own_credentials(pushnode_bin, mocks, tmp_path):
    a, b = mocks["a"], mocks["b"]
    rc, checks, output = check_live(pushnode_bin, mocks, tmp_path)
    assert rc == 0, output
    for name in ("huawei", "harmony", "huawei@beta", "harmony@beta"):
        assert checks[name]["ok"], (name, checks[name])
    assert a.stats()["huaweiTokenMints"] == 1 and b.stats()["huaweiTokenMints"] == 1

    b.control("POST", "/_mock/revoke", {"keys": True})
    try:
        rc, checks, output = check_live(pushnode_bin, mocks, tmp_path)
    finally:
        b.reset()
    assert rc != 0, output
    assert checks["huawei"]["ok"] and checks["harmony"]["ok"]
    assert not checks["huawei@beta"]["ok"] and not checks["harmony@beta"]["ok"]
    assert b.ready["huaweiClientSecret"] not in output
