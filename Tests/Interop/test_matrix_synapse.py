"""A real Synapse (PyPI matrix-synapse, on SQLite) pushing through the node's Matrix door
(Spec/matrix.md): two users in a room, HTTP pushers whose url is the door (`event_id_only`,
and without a format), messages sent through Synapse's client API arriving at the FCM, APNs
and UnifiedPush mocks in the shapes the door promises; a token the mock calls dead comes back
in `rejected` and Synapse deletes the pusher; with the node stopped while Synapse pushes,
Synapse retries and the push arrives once the node is back."""
import base64
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from mockproviders_helper import MockProviders
from pushnode_node import wait_for
from test_matrix_gateway import ANDROID, IOS, UP, body, delivered, header, matrix_node

IOS_DEFAULT_PAYLOAD = {"aps": {"mutable-content": 1, "alert": {"loc-key": "Notification", "loc-args": []}}}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Synapse:
    """One homeserver in a temporary directory: SQLite, loopback only, pushes to loopback allowed."""

    def __init__(self, directory):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = {
            "server_name": "test.local", "pid_file": f"{directory}/homeserver.pid", "public_baseurl": self.url + "/",
            "listeners": [{"port": self.port, "bind_addresses": ["127.0.0.1"], "type": "http", "tls": False,
                           "x_forwarded": False, "resources": [{"names": ["client"], "compress": False}]}],
            "database": {"name": "sqlite3", "args": {"database": f"{directory}/homeserver.db"}},
            "media_store_path": f"{directory}/media", "signing_key_path": f"{directory}/signing.key",
            "report_stats": False, "trusted_key_servers": [], "suppress_key_server_warning": True,
            "macaroon_secret_key": "matrix-door-test", "form_secret": "matrix-door-test",
            "enable_registration": True, "enable_registration_without_verification": True,
            # Synapse refuses to push to private addresses unless they are allowed.
            "ip_range_whitelist": ["127.0.0.1/32", "::1/128"],
            "rc_message": {"per_second": 1000, "burst_count": 1000},
            "rc_registration": {"per_second": 1000, "burst_count": 1000},
            "rc_login": {"address": {"per_second": 1000, "burst_count": 1000},
                         "account": {"per_second": 1000, "burst_count": 1000}},
            "rc_joins": {"local": {"per_second": 1000, "burst_count": 1000}},
        }
        path = f"{directory}/homeserver.yaml"
        with open(path, "w") as f:
            json.dump(config, f)  # JSON is YAML
        command = [sys.executable, "-m", "synapse.app.homeserver", "-c", path]
        subprocess.run(command + ["--generate-keys"], check=True, capture_output=True, timeout=120)
        self.log = open(f"{directory}/synapse.log", "w")
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT, cwd=directory)
        wait_for(self._up, timeout=90, interval=0.2, message="Synapse listening")

    def _up(self):
        assert self.process.poll() is None, "Synapse exited; see synapse.log"
        try:
            return self.call("GET", "/_matrix/client/versions")[0] == 200
        except OSError:
            return False

    def call(self, method, path, document=None, token=None):
        data = json.dumps(document).encode() if document is not None else None
        headers = {"content-type": "application/json"}
        if token:
            headers["authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def register(self, name):
        document = {"username": name, "password": "correct horse battery", "inhibit_login": False}
        status, answer = self.call("POST", "/_matrix/client/v3/register", document)
        if status == 401:
            document["auth"] = {"type": "m.login.dummy", "session": answer["session"]}
            status, answer = self.call("POST", "/_matrix/client/v3/register", document)
        assert status == 200, answer
        return answer["access_token"]

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


@pytest.fixture(scope="module")
def mock(tmp_path_factory):
    with MockProviders(tmp_path_factory.mktemp("mock")) as m:
        yield m


@pytest.fixture(scope="module")
def synapse(tmp_path_factory):
    server = Synapse(str(tmp_path_factory.mktemp("synapse")))
    yield server
    server.stop()


def pushers(synapse, token):
    status, answer = synapse.call("GET", "/_matrix/client/v3/pushers", token=token)
    assert status == 200, answer
    return {p["pushkey"] for p in answer["pushers"]}


def test_synapse_pushes_through_the_door(pushnode_bin, mock, synapse, tmp_path):
    port = free_port()
    door = f"http://127.0.0.1:{port}/_matrix/push/v1/notify"
    data_dir = str(tmp_path / "node")
    node = matrix_node(pushnode_bin, mock, env={"PUSHNODE_LISTEN": f"127.0.0.1:{port}"}, data_dir=data_dir)
    try:
        alice, bob = synapse.register("alice"), synapse.register("bob")
        status, room = synapse.call("POST", "/_matrix/client/v3/createRoom", {"invite": ["@bob:test.local"]}, token=alice)
        assert status == 200, room
        room_id = room["room_id"]
        assert synapse.call("POST", f"/_matrix/client/v3/join/{room_id}", {}, token=bob)[0] == 200

        fcm_token, dead_token, apns_hex, topic = "synapse-android", "unregistered-synapse", "5a" * 32, "synapse-up"
        apns_key = base64.b64encode(bytes.fromhex(apns_hex)).decode()
        up_key = f"{mock.http}/up/{topic}"
        for app_id, pushkey, data in [
            (ANDROID, fcm_token, {"url": door, "format": "event_id_only"}),
            (ANDROID, dead_token, {"url": door, "format": "event_id_only"}),
            (IOS, apns_key, {"url": door, "default_payload": IOS_DEFAULT_PAYLOAD}),
            (UP, up_key, {"url": door}),
        ]:
            pusher = {"kind": "http", "app_id": app_id, "pushkey": pushkey, "app_display_name": "Test",
                      "device_display_name": "phone", "lang": "en", "data": data, "append": True}
            status, answer = synapse.call("POST", "/_matrix/client/v3/pushers/set", pusher, token=bob)
            assert status == 200, answer
        assert pushers(synapse, bob) == {fcm_token, dead_token, apns_key, up_key}

        def send(text):
            status, answer = synapse.call("PUT", f"/_matrix/client/v3/rooms/{room_id}/send/m.room.message/{time.time_ns()}",
                                          {"msgtype": "m.text", "body": text}, token=alice)
            assert status == 200, answer
            return answer["event_id"]

        first = send("hello bob")
        record = delivered(mock, "fcm", fcm_token)[0]
        fcm = body(record)["message"]
        assert fcm["data"] == {"event_id": first, "room_id": room_id, "prio": "high", "unread": "1"}
        assert fcm["android"]["priority"] == "HIGH"
        apns = delivered(mock, "apns", apns_hex)[0]
        assert body(apns) == {**IOS_DEFAULT_PAYLOAD, "room_id": room_id, "event_id": first, "unread_count": 1}
        assert header(apns, "apns-push-type") == "alert"
        up = body(delivered(mock, "unifiedpush", topic)[0])["notification"]
        assert (up["event_id"], up["room_id"], up["counts"], up["devices"][0]["pushkey"]) == (first, room_id, {"unread": 1}, up_key)
        assert "hello bob" not in json.dumps(up)

        # The dead token: the provider said so; the next push names it in `rejected` and Synapse
        # deletes the pusher.
        wait_for(lambda: node.metric("pushnode_registrations_pruned_total", provider="fcm", reason="fcm.unregistered") >= 1,
                 message="the dead token pruned")
        send("are you there")
        wait_for(lambda: dead_token not in pushers(synapse, bob), message="Synapse deleted the dead pusher")
        assert pushers(synapse, bob) == {fcm_token, apns_key, up_key}
        delivered(mock, "fcm", fcm_token, count=2)

        # The node stops while Synapse pushes: Synapse retries, the push arrives after the node is back.
        node.stop(cleanup=False)
        third = send("while you were away")
        time.sleep(1.5)
        node = matrix_node(pushnode_bin, mock, env={"PUSHNODE_LISTEN": f"127.0.0.1:{port}"}, data_dir=data_dir)
        wait_for(lambda: any(body(r)["message"]["data"]["event_id"] == third for r in delivered(mock, "fcm", fcm_token)),
                 timeout=45, message="the push sent while the node was down")
    finally:
        node.stop()
