"""DNS that changes to a private address after registration (issue 26, item 6), through the real
binary: the node runs in a private mount namespace (`unshare -m`, root, as in
test_adversarial_dns.py) whose /etc/resolv.conf names a nameserver of this test. A Web Push
endpoint's host resolves to a public address when it is registered; then the nameserver answers
127.0.0.1, where a listener of this test waits, and the node restarts (its DNS cache is gone, so
the send-time check knows nothing and the HTTP client looks the name up again).

Bounds asserted: the push is rejected (`rejected`, the address guard's verdict), it never opens a
connection to the private address, and the node keeps answering."""
import socket
import struct
import threading

from nodeclient import Account, Space, webpush_keys
from pushnode_node import Node, wait_for
from test_adversarial_dns import WRAPPER

PUBLIC = "1.1.1.1"  # any global address: the node may try it, and fail, with no network here


class Nameserver:
    """Answers every A question with `self.address` (TTL 1 s) and every other question with no
    records, on 127.77.0.2:53."""

    def __init__(self, address):
        self.address = address
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.77.0.2", 53))
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                query, peer = self.sock.recvfrom(512)
            except OSError:
                return
            end = 12
            while query[end]:
                end += query[end] + 1
            question = query[12:end + 5]
            qtype = struct.unpack(">H", query[end + 1:end + 3])[0]
            answers = b""
            if qtype == 1:
                answers = b"\xc0\x0c" + struct.pack(">HHIH", 1, 1, 1, 4) + socket.inet_aton(self.address)
            header = query[:2] + struct.pack(">HHHHH", 0x8180, 1, 1 if answers else 0, 0, 0)
            self.sock.sendto(header + question + answers, peer)

    def close(self):
        self.sock.close()


def test_a_host_that_turns_private_after_registration_is_never_dialled(pushnode_bin, tmp_path):
    nameserver = Nameserver(PUBLIC)
    resolv = tmp_path / "resolv.conf"
    resolv.write_text("nameserver 127.77.0.2\noptions timeout:1 attempts:1\n")
    wrapper = tmp_path / "pushnode-own-dns"
    wrapper.write_text(WRAPPER)
    wrapper.chmod(0o755)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.1)
    port = listener.getsockname()[1]
    env = {"PUSHNODE_TEST_RESOLV": str(resolv), "PUSHNODE_TEST_REAL": pushnode_bin}
    data = str(tmp_path / "data")
    space, sender, owner = Space(), Account(), Account()
    node = Node(str(wrapper), env=env, data_dir=data)
    try:
        p256dh, auth = webpush_keys()
        status, answer, _ = owner.call(node, "POST", "/v1/tokens", {
            "deviceId": "browser", "platform": "webpush", "token": f"https://push.rebind.test:{port}/p/1",
            "p256dh": p256dh, "auth": auth})
        assert status == 200, answer  # public when registered
        assert owner.call(node, "POST", "/v1/subscriptions", {"topics": [space.topic("t")]})[0] == 200
        node.stop(cleanup=False)
        nameserver.address = "127.0.0.1"
        node = Node(str(wrapper), env=env, data_dir=data)
        status, sent, _ = sender.call(node, "POST", "/v1/notify", sender.notify([space.topic("t")]))
        assert status == 200 and sent["queued"] == 1

        def settled():
            answer = sender.call(node, "GET", f"/v1/notifications/{sent['id']}")[1]
            return answer if answer["providers"].get("webpush", {}).get("rejected") == 1 else None

        wait_for(settled, timeout=15, message="the push rejected")
        try:
            dialled = listener.accept()
        except socket.timeout:
            dialled = None
        assert dialled is None, "the node connected to the private address"
        assert node.request("GET", "/v1/capabilities")[0] == 200
    finally:
        node.stop()
        nameserver.close()
        listener.close()
