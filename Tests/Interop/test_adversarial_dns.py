"""A nameserver that never answers (issue 26, attack 1), through the real binary: the node runs in
a private mount namespace (`unshare -m`, root) whose /etc/resolv.conf names a local UDP socket
that reads nothing. Registering Web Push endpoints on hosts only that nameserver could answer
must hold no request thread past the resolver's budget (2 s), and must not delay anyone else's
answer.

Bounds asserted: every registration is answered (400 token.endpoint_not_routable, fail closed)
within 3.5 s of being sent; an unrelated `GET /v1/capabilities` sent meanwhile within 1 s."""
import os
import socket
import threading
import time

from nodeclient import Account, webpush_token
from pushnode_node import Node

WRAPPER = """#!/bin/sh
exec unshare -m sh -c 'mount --bind "$PUSHNODE_TEST_RESOLV" /etc/resolv.conf && exec "$PUSHNODE_TEST_REAL" "$@"' sh "$@"
"""
REGISTRATIONS = 24


def blackhole_node(pushnode_bin, tmp_path):
    """A node whose every DNS question goes to a socket that never answers."""
    sink = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sink.bind(("127.77.0.1", 53))
    resolv = tmp_path / "resolv.conf"
    resolv.write_text("nameserver 127.77.0.1\noptions timeout:5 attempts:2\n")
    wrapper = tmp_path / "pushnode-blackhole-dns"
    wrapper.write_text(WRAPPER)
    wrapper.chmod(0o755)
    node = Node(str(wrapper), env={"PUSHNODE_TEST_RESOLV": str(resolv), "PUSHNODE_TEST_REAL": pushnode_bin})
    return node, sink


def test_a_nameserver_that_never_answers_stalls_nothing(pushnode_bin, tmp_path):
    node, sink = blackhole_node(pushnode_bin, tmp_path)
    try:
        answers = [None] * REGISTRATIONS

        def register(i):
            started = time.monotonic()
            body = webpush_token(f"d{i}", endpoint=f"https://h{i}-{os.urandom(4).hex()}.blackhole.test/push")
            status, answer, _ = Account().call(node, "POST", "/v1/tokens", body)
            answers[i] = (status, (answer or {}).get("error", {}).get("code"), time.monotonic() - started)

        threads = [threading.Thread(target=register, args=(i,)) for i in range(REGISTRATIONS)]
        for thread in threads:
            thread.start()
        time.sleep(0.3)
        started = time.monotonic()
        status, _, _ = node.request("GET", "/v1/capabilities")
        capabilities = time.monotonic() - started
        for thread in threads:
            thread.join(timeout=60)
        slowest = max(answer[2] for answer in answers if answer)
        print(f"\ncapabilities {capabilities:.2f} s; slowest registration {slowest:.2f} s; "
              f"answers {sorted({(a[0], a[1]) for a in answers if a})}")
        assert status == 200 and capabilities < 1.0, capabilities
        assert all(answer and answer[:2] == (400, "token.endpoint_not_routable") for answer in answers), answers
        assert slowest < 3.5, answers
    finally:
        node.stop()
        sink.close()
