"""`pushnode check --live` through the real binary: FCM mints a token at the mock's OAuth
endpoint, APNs answers a push for the all-zero dummy token, PostgreSQL is reached and its schema
version read (never migrated), the VAPID key loads. Refusals and unreachable services exit 1 with
the provider's own words; nothing secret is printed and nothing is written."""
import json
import os
import subprocess

import pytest

from conftest import PostgresDatabase, psql
from mockproviders_helper import MockProviders
from test_delivery_e2e import node_env

BUNDLE = "org.example.app"


@pytest.fixture(scope="module")
def mock(tmp_path_factory):
    with MockProviders(tmp_path_factory.mktemp("mock"), "--apns-bundle", BUNDLE) as m:
        yield m


@pytest.fixture(autouse=True)
def clean_mock(mock):
    yield
    mock.reset()  # also lifts a key revocation


def provider_env(mock, **extra):
    """The node's environment for the mock providers: the delivery tests' own (one list of keys)."""
    return node_env(mock, **extra)


def check_live(binary, tmp_path, env):
    """Runs `check --live` with only `env` as PUSHNODE_* settings; returns (rc, report, stderr)."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("PUSHNODE_")}
    environment.update(env, PUSHNODE_DATA_DIR=str(tmp_path / "data"))
    proc = subprocess.run([binary, "check", "--live"], env=environment, capture_output=True, timeout=120)
    out = proc.stdout.decode()
    report = json.loads(out) if out.strip() else None
    return proc.returncode, report, out + proc.stderr.decode()


def by_name(report):
    return {c["name"]: c for c in report["checks"]}


def assert_no_secrets(mock, text):
    r = mock.ready
    with open(r["serviceAccountFile"]) as f:
        private_key = json.load(f)["private_key"]
    with open(r["apnsKeyFile"]) as f:
        p8 = f.read()
    for secret in (private_key, p8):
        body = "".join(line for line in secret.splitlines() if "-----" not in line)
        assert body[:40] not in text
    assert "ya29." not in text and "eyJ" not in text  # no access token, no JWT
    assert "BEGIN" not in text


def test_every_service_accepts(pushnode_bin, mock, tmp_path):
    rc, report, text = check_live(pushnode_bin, tmp_path, provider_env(mock))
    assert rc == 0, text
    checks = by_name(report)
    assert report["ok"] is True and list(checks) == ["fcm", "apns", "webpush"]
    assert all(c["ok"] for c in checks.values()), checks
    assert "BadDeviceToken" in checks["apns"]["detail"]
    assert "no VAPID key yet" in checks["webpush"]["detail"]
    assert mock.stats()["tokenMints"] == 1
    sent = mock.requests("apns", "0" * 64)
    assert len(sent) == 1 and sent[0]["status"] == 400
    assert_no_secrets(mock, text)
    assert not (tmp_path / "data").exists()  # check writes nothing, not even the data directory


def test_a_wrong_apns_team_is_refused_in_the_mocks_words(pushnode_bin, mock, tmp_path):
    rc, report, text = check_live(pushnode_bin, tmp_path, provider_env(mock, PUSHNODE_APNS_TEAM_ID="WRONGTEAM1"))
    assert rc == 1, text
    checks = by_name(report)
    assert report["ok"] is False and checks["fcm"]["ok"] is True
    assert checks["apns"] == {"name": "apns", "ok": False, "detail": "refused (apns.host): 403 InvalidProviderToken"}
    assert_no_secrets(mock, text)


def test_a_wrong_apns_topic_is_refused(pushnode_bin, mock, tmp_path):
    rc, report, text = check_live(pushnode_bin, tmp_path, provider_env(mock, PUSHNODE_APNS_TOPIC="org.example.other"))
    assert rc == 1, text
    assert by_name(report)["apns"]["detail"] == "refused (apns.host): 400 DeviceTokenNotForTopic"


def test_revoked_keys_are_refused_by_both_providers(pushnode_bin, mock, tmp_path):
    mock.control("POST", "/_mock/revoke", {"keys": True})
    rc, report, text = check_live(pushnode_bin, tmp_path, provider_env(mock))
    assert rc == 1, text
    checks = by_name(report)
    assert checks["fcm"] == {"name": "fcm", "ok": False,
                             "detail": "no access token: token endpoint: HTTP 400 invalid_grant: Invalid JWT Signature."}
    assert checks["apns"]["detail"] == "refused (apns.host): 403 InvalidProviderToken"
    assert checks["webpush"]["ok"] is True
    assert_no_secrets(mock, text)


def test_an_unreachable_token_endpoint_and_apns_host_name_the_cause(pushnode_bin, mock, tmp_path):
    with open(mock.ready["serviceAccountFile"]) as f:
        account = json.load(f)
    account["token_uri"] = "https://127.0.0.1:1/token"
    path = tmp_path / "sa.json"
    path.write_text(json.dumps(account))
    os.chmod(path, 0o600)
    env = provider_env(mock, PUSHNODE_FCM_CREDENTIALS_PATH=str(path), PUSHNODE_APNS_HOST="https://127.0.0.1:1")
    rc, report, text = check_live(pushnode_bin, tmp_path, env)
    assert rc == 1, text
    checks = by_name(report)
    assert checks["fcm"]["detail"] == "no access token: token endpoint: transport.connect_failed"
    assert checks["apns"]["detail"] == "unreachable (apns.host): transport.connect_failed"


@pytest.fixture
def database():
    db = PostgresDatabase()
    yield db
    db.drop()


def test_postgres_is_reached_and_never_migrated(pushnode_bin, mock, tmp_path, database):
    env = {"PUSHNODE_STORAGE_DRIVER": "postgres", "PUSHNODE_STORAGE_URL": database.url}
    rc, report, text = check_live(pushnode_bin, tmp_path, env)
    assert rc == 0, text
    checks = by_name(report)
    assert list(checks) == ["postgres", "webpush"]
    assert checks["postgres"]["ok"] and "no schema yet" in checks["postgres"]["detail"]
    assert checks["webpush"]["detail"] == "no VAPID key yet: the first start generates one in the database"
    assert psql(database.url, "SELECT to_regclass('pushnode_schema') IS NULL").strip() == "t"  # untouched

    psql(database.url, "CREATE TABLE pushnode_schema (version integer NOT NULL); INSERT INTO pushnode_schema VALUES (1)")
    rc, report, text = check_live(pushnode_bin, tmp_path, env)
    assert rc == 0 and "schema version 1: serve migrates it to" in by_name(report)["postgres"]["detail"], text
    assert psql(database.url, "SELECT version FROM pushnode_schema").strip() == "1"

    psql(database.url, "UPDATE pushnode_schema SET version = 999")
    rc, report, text = check_live(pushnode_bin, tmp_path, env)
    assert rc == 1, text
    assert by_name(report)["postgres"]["detail"].startswith("schema version 999 is newer than this build's")


def test_an_unreachable_postgres_exits_1_naming_the_cause_without_the_password(pushnode_bin, tmp_path):
    env = {"PUSHNODE_STORAGE_DRIVER": "postgres",
           "PUSHNODE_STORAGE_URL": "postgres://pushnode:s3cret-Pw@127.0.0.1:1/pushnode?connect_timeout=5"}
    rc, report, text = check_live(pushnode_bin, tmp_path, env)
    assert rc == 1, text
    detail = by_name(report)["postgres"]["detail"]
    assert detail.startswith("cannot use the database: postgres connection lost: connection to server at \"127.0.0.1\""), detail
    assert "s3cret-Pw" not in text
    webpush = by_name(report)["webpush"]  # the shared key lives in that database too
    assert not webpush["ok"] and webpush["detail"].startswith("cannot read the VAPID key stored in the database: ")


def test_without_live_nothing_is_contacted(pushnode_bin, mock, tmp_path):
    environment = {k: v for k, v in os.environ.items() if not k.startswith("PUSHNODE_")}
    environment.update(provider_env(mock))
    proc = subprocess.run([pushnode_bin, "check"], env=environment, capture_output=True, timeout=60)
    assert proc.returncode == 0 and "checks" not in json.loads(proc.stdout)
    assert mock.stats()["tokenMints"] == 0 and mock.requests("apns") == []
