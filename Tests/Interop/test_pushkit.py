"""Huawei Push Kit through the real binary and Tests/Mocks/mock_huawei.py: every kind's exact
request for `huawei` (HMS Core v1) and `harmony` (HarmonyOS v3, the PS256 JWT verified by PyJWT
with the service account's public key); the access token minted once, cached and renewed once
after a refusal; a refused token pruned; a partial success judged per token; flow control
honoured; `check --live` with good and refused credentials. The bodies are checked against rules
written here, independently of the Swift gateways."""
import hashlib
import json
import os
import time

import jwt
import pytest

from pushnode_node import Node, wait_for
# The mock providers and their per-test reset are test_check_live's fixtures, shared rather than restated.
from test_check_live import by_name, check_live, clean_mock, mock  # noqa: F401 (pytest fixtures)
from test_delivery_e2e import body_of, headers_of, node_env, received, setup_pair, uid

AUDIENCE = "https://oauth-login.cloud.huawei.com/oauth2/v3/token"


def pushkit_env(mock, **extra):
    r = mock.ready
    env = {"PUSHNODE_HUAWEI_APP_ID": r["huaweiAppId"], "PUSHNODE_HUAWEI_CLIENT_SECRET": r["huaweiClientSecret"],
           "PUSHNODE_HUAWEI_BASE_URL": mock.https, "PUSHNODE_HUAWEI_TOKEN_URL": r["huaweiTokenURL"],
           "PUSHNODE_HARMONY_PROJECT_ID": r["harmonyProjectId"],
           "PUSHNODE_HARMONY_SERVICE_ACCOUNT_PATH": r["harmonyServiceAccountFile"], "PUSHNODE_HARMONY_BASE_URL": mock.https}
    env.update(extra)
    return node_env(mock, **env)


@pytest.fixture
def node(pushnode_bin, mock):
    n = Node(pushnode_bin, env=pushkit_env(mock, PUSHNODE_ADMIN_LISTEN="127.0.0.1:0"))
    yield n
    n.stop()


def slot(group):
    return int.from_bytes(hashlib.sha256(group.encode()).digest()[:4], "big") % 100 + 1


def public_key(mock):
    from cryptography.hazmat.primitives import serialization
    with open(mock.ready["harmonyServiceAccountFile"]) as f:
        account = json.load(f)
    key = serialization.load_pem_private_key(account["private_key"].encode(), None)
    return account, key.public_key()


def test_every_kind_is_the_request_huawei_documents(node, mock):
    sender, receiver, space = setup_pair(node)
    hms, harmony = uid("hms-"), uid("harmony-")
    receiver.register("huawei", hms, device="mate")
    receiver.register("harmony", harmony, device="pura")
    receiver.subscribe(space, "t")
    _, _, capabilities = node.json("GET", "/v1/capabilities")
    assert {"huawei", "harmony"} <= set(capabilities["platforms"])
    account, key = public_key(mock)
    kinds = [("message", None), ("silent", None), ("clear", None), ("call", 30)]
    default_ttl = {"message": 86_400, "silent": 3600, "clear": 60}
    for index, (kind, ttl) in enumerate(kinds):
        ttl = ttl or default_ttl[kind]
        notification_id, message = sender.notify(space, "t", kind=kind, ttl=ttl, group="group-1")
        data = {"x-any-type": {"message": "normal"}.get(kind, kind), "x-any-id": notification_id,
                "x-any-group-id": "group-1", "x-any-payload": message["payload"],
                "x-any-signature": message["signature"], "x-any-key-id": message["keyId"]}

        request = received(mock, "huawei", hms, count=index + 1)[index]
        assert request["path"] == f"/v1/{mock.ready['huaweiAppId']}/messages:send"
        h = headers_of(request)
        assert h["authorization"].startswith("Bearer CgB6e3x9") and h["content-type"].startswith("application/json")
        body = json.loads(body_of(request))
        assert body["validate_only"] is False and set(body) == {"validate_only", "message"}
        assert set(body["message"]) == {"data", "android", "token"} and body["message"]["token"] == [hms]
        assert json.loads(body["message"]["data"]) == data
        android = body["message"]["android"]
        expected = {"urgency": "NORMAL" if kind == "silent" else "HIGH"}
        if kind == "message":
            expected["collapse_key"] = slot("group-1")
        if kind == "call":
            expected["category"] = "VOIP"
        assert {k: v for k, v in android.items() if k != "ttl"} == expected
        assert ttl - 10 <= int(android["ttl"].rstrip("s")) <= ttl

        request = received(mock, "harmony", harmony, count=index + 1)[index]
        assert request["path"] == f"/v3/{mock.ready['harmonyProjectId']}/messages:send"
        h = headers_of(request)
        assert h["push-type"] == {"message": "0", "silent": "6", "clear": "6", "call": "10"}[kind]
        token = h["authorization"].removeprefix("Bearer ")
        assert jwt.get_unverified_header(token) == {"kid": account["key_id"], "typ": "JWT", "alg": "PS256"}
        claims = jwt.decode(token, key, algorithms=["PS256"], audience=AUDIENCE)
        assert claims["iss"] == account["sub_account"] and claims["exp"] - claims["iat"] == 3600
        body = json.loads(body_of(request))
        assert body["target"] == {"token": [harmony]}
        options = body["pushOptions"]
        assert ttl - 10 <= options.pop("ttl") <= ttl
        if kind == "message":
            assert options == {"collapseKey": slot("group-1")}
            assert body["payload"] == {"notification": {"category": "IM", "title": "New message", "body": "New message",
                                                        "clickAction": {"actionType": 0, "data": data}}}
        else:
            assert options == {} and body["payload"] == {"extraData": json.dumps(data, separators=(",", ":"))}
    wait_for(lambda: node.metric("pushnode_deliveries_total", provider="harmony", outcome="delivered") >= 4)
    assert node.metric("pushnode_deliveries_total", provider="huawei", outcome="delivered") == 4
    # One access token for every v1 push, one JWT for every v3 push.
    assert mock.stats()["huaweiTokenMints"] == 1
    assert len({headers_of(r)["authorization"] for r in mock.requests("harmony", harmony)}) == 1
    status, _, ready = node.json("GET", "/readyz")
    assert ready["providers"]["huawei"] == "healthy" and ready["providers"]["harmony"] == "healthy"
    _, _, page = node.json("GET", "/status.json", port=node.admin_port)
    assert {"huawei", "harmony"} <= {p["provider"] for p in page["providers"]}
    log = node.text_log()
    assert hms not in log and harmony not in log and mock.ready["huaweiClientSecret"] not in log


def test_refused_credentials_are_renewed_once(node, mock):
    sender, receiver, space = setup_pair(node)
    hms, harmony = uid("hms-"), uid("harmony-")
    receiver.register("huawei", hms, device="mate")
    receiver.register("harmony", harmony, device="pura")
    receiver.subscribe(space, "t")
    sender.notify(space, "t")
    received(mock, "huawei", hms, status=200)
    received(mock, "harmony", harmony, status=200)
    mock.control("POST", "/_mock/revoke", {})
    time.sleep(1.1)  # a JWT's iat is whole seconds: the renewed one must postdate the revocation
    sender.notify(space, "t")
    got = received(mock, "huawei", hms, count=2, status=200)
    assert [r["status"] for r in got] == [200, 401, 200]
    assert json.loads(body_of(got[1]))["message"]["token"] == [hms]
    got = received(mock, "harmony", harmony, count=2, status=200)
    assert [r["status"] for r in got] == [200, 401, 200]
    assert mock.stats()["huaweiTokenMints"] == 2
    wait_for(lambda: node.metric("pushnode_credential_refreshes_total", provider="harmony") == 2)
    assert node.metric("pushnode_credential_refreshes_total", provider="huawei") == 2


def test_refused_tokens_are_pruned_partial_success_per_token_flow_control_honoured(node, mock):
    sender, receiver, space = setup_pair(node)
    invalid, partial, fine, busy = uid("invalid-"), uid("partial-"), uid("fine-"), uid("flow-")
    receiver.register("huawei", invalid, device="old-mate")
    receiver.register("harmony", partial, device="old-pura")
    receiver.register("huawei", fine, device="mate")
    receiver.register("harmony", busy, device="pura")
    # What Huawei answers a request whose token is refused among others, and one where none is.
    mock.script("harmony", partial, [{"code": "80100000", "msg": json.dumps(
        {"success": 0, "failure": 1, "illegalTokens": {"tokenFormatError": [partial]}})}])
    mock.script("huawei", fine, [{"code": "80100000", "msg": json.dumps(
        {"success": 1, "failure": 0, "illegal_tokens": []})}])
    mock.script("harmony", busy, [{"status": 503, "retryAfter": 1}])
    receiver.subscribe(space, "t")
    sender.notify(space, "t")
    wait_for(lambda: sorted(r["deviceId"] for r in receiver.tokens()) == ["mate", "pura"], message="pruning")
    assert node.metric("pushnode_registrations_pruned_total", provider="huawei", reason="pushkit.invalid_token") == 1
    assert node.metric("pushnode_registrations_pruned_total", provider="harmony", reason="pushkit.invalid_token") == 1
    assert json.loads(body_of(received(mock, "huawei", invalid)[0]))["message"]["token"] == [invalid]
    wait_for(lambda: node.metric("pushnode_deliveries_total", provider="huawei", outcome="delivered") >= 1)
    got = received(mock, "harmony", busy, count=1, status=200)
    assert [r["status"] for r in got] == [503, 200]
    assert got[1]["time"] - got[0]["time"] >= 0.9  # Retry-After: 1
    sender.notify(space, "t")
    received(mock, "huawei", fine, count=2)
    assert len(mock.requests("huawei", invalid)) == 1 and len(mock.requests("harmony", partial)) == 1


def test_check_live_mints_signs_and_probes(pushnode_bin, mock, tmp_path):
    rc, report, text = check_live(pushnode_bin, tmp_path, pushkit_env(mock))
    assert rc == 0, text
    checks = by_name(report)
    assert list(checks) == ["fcm", "apns", "huawei", "harmony", "webpush"]
    assert checks["huawei"] == {"name": "huawei", "ok": True,
                                "detail": "access token and app id accepted (200 80000000 for a dummy token)"}
    assert checks["harmony"] == {"name": "harmony", "ok": True,
                                 "detail": "service-account JWT and project id accepted (200 80000000 for a dummy token)"}
    probe = json.loads(body_of(mock.requests("huawei")[0]))
    assert probe["validate_only"] is True
    assert json.loads(body_of(mock.requests("harmony")[0]))["pushOptions"]["testMessage"] is True
    assert mock.ready["huaweiClientSecret"] not in text and "CgB6e3x9" not in text and "eyJ" not in text

    with open(mock.ready["harmonyServiceAccountFile"]) as f:
        account = json.load(f)
    other = tmp_path / "other.json"
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    account["private_key"] = rsa.generate_private_key(public_exponent=65537, key_size=2048).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    other.write_text(json.dumps(account))
    os.chmod(other, 0o600)
    env = pushkit_env(mock, PUSHNODE_HUAWEI_CLIENT_SECRET="wrong", PUSHNODE_HARMONY_SERVICE_ACCOUNT_PATH=str(other))
    rc, report, text = check_live(pushnode_bin, tmp_path, env)
    assert rc == 1, text
    checks = by_name(report)
    assert checks["huawei"] == {"name": "huawei", "ok": False,
                                "detail": "no credential: token endpoint: HTTP 400 1101: invalid client"}
    assert checks["harmony"] == {"name": "harmony", "ok": False, "detail": "refused: 401 80200001"}
    assert checks["fcm"]["ok"] and "wrong" not in json.dumps(checks)


def test_the_vectors_are_what_python_builds_and_the_jwt_verifies():
    import make_pushkit_vectors
    from cryptography.hazmat.primitives import serialization
    with open(make_pushkit_vectors.OUTPUT) as f:
        stored = json.load(f)
    assert stored["requests"] == make_pushkit_vectors.build()["requests"]
    ps256 = stored["ps256"]
    key = serialization.load_pem_private_key(ps256["pkcs8PEM"].encode(), None).public_key()
    claims = jwt.decode(ps256["token"], key, algorithms=["PS256"], audience=AUDIENCE,
                        options={"verify_exp": False})
    assert json.dumps(claims, separators=(",", ":")) == ps256["claimsJSON"]
    assert jwt.get_unverified_header(ps256["token"])["kid"] == ps256["keyId"]
