"""PROTOCOL §4 "a 200 means every delivery is durably queued": answer 200, `kill -9` the node at
once, and the outbox rows are in the SQLite file (read with Python's sqlite3, read-only); a
restarted node serves from the same file and still holds them, claimable again. Endpoints are
closed loopback ports, so the delivery engine's attempts are refused and the rows stay queued."""
import sqlite3
import threading
import time

from nodeclient import LOCAL_DELIVERY, Account, Space, database, queued_deliveries, webpush_token
from pushnode_node import Node

ENV = {"PUSHNODE_RATE_LIMITS_REGISTRATION_BURST": "10000", "PUSHNODE_RATE_LIMITS_NOTIFY_BURST": "10000", **LOCAL_DELIVERY}


def outbox(db_path):
    """{notification id: sorted registration ids} and the row states, read-only."""
    with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as db:
        rows = queued_deliveries(db)
    by_id = {}
    for notification, registration, _, _ in rows:
        by_id.setdefault(notification, []).append(registration)
    return {k: sorted(v) for k, v in by_id.items()}, {state for _, _, _, state in rows}


def populate(node, readers=3, devices=2):
    space = Space()
    registrations = []
    for r in range(readers):
        account = Account()
        for d in range(devices):
            status, body, _ = account.call(node, "POST", "/v1/tokens", webpush_token(f"device-{d}"))
            assert status == 200, body
            registrations.append(body["registrationId"])
        assert account.call(node, "POST", "/v1/subscriptions", {"topics": [space.topic("chats")]})[0] == 200
    return space, sorted(registrations)


def test_a_200_survives_kill_9_and_restart(pushnode_bin, tmp_path):
    data = str(tmp_path / "data")
    node = Node(pushnode_bin, env=ENV, data_dir=data)
    db_path = database(node)
    space, registrations = populate(node)
    sender = Account()
    body = sender.notify([space.topic("chats")])
    status, answer, _ = sender.call(node, "POST", "/v1/notify", body)
    assert status == 200
    assert node.kill() == -9
    rows, states = outbox(db_path)
    # Unexpanded (None), queued (0), or claimed (1) by the delivery engine whose refused attempt had
    # not been rescheduled yet.
    assert rows == {answer["id"]: registrations} and states <= {None, 0, 1}

    again = Node(pushnode_bin, env=ENV, data_dir=data)
    try:
        assert again.json("GET", "/readyz")[0] == 200
        rows, _ = outbox(db_path)
        assert rows[answer["id"]] == registrations
        # The idempotency record survived too: a retry of the same Notify is a duplicate.
        assert sender.call(again, "POST", "/v1/notify", body)[:2] == (200, {"id": answer["id"], "duplicate": True, "queued": 0})
    finally:
        again.stop()


def test_every_concurrent_200_has_its_rows_after_kill_9(pushnode_bin, tmp_path):
    data = str(tmp_path / "data")
    node = Node(pushnode_bin, env=ENV, data_dir=data)
    db_path = database(node)
    space, registrations = populate(node, readers=5, devices=2)
    accepted, failures = [], []
    lock = threading.Lock()
    stop = threading.Event()

    def send():
        sender = Account()
        while not stop.is_set():
            try:
                status, answer, _ = sender.call(node, "POST", "/v1/notify", sender.notify([space.topic("chats")]))
            except Exception:  # the node died mid-request: no answer, no promise
                return
            with lock:
                (accepted if status == 200 else failures).append((status, answer))

    threads = [threading.Thread(target=send) for _ in range(8)]
    for t in threads:
        t.start()
    while True:
        with lock:
            if len(accepted) >= 40:
                break
        stop.wait(0.01)
    assert node.kill() == -9
    stop.set()
    for t in threads:
        t.join(timeout=30)
    assert failures == []
    rows, _ = outbox(db_path)
    for _, answer in accepted:
        assert rows.get(answer["id"]) == registrations, answer

    again = Node(pushnode_bin, env=ENV, data_dir=data)
    try:
        sender = Account()
        status, answer, _ = sender.call(again, "POST", "/v1/notify", sender.notify([space.topic("chats")]))
        assert status == 200
        rows, _ = outbox(db_path)
        assert all(rows.get(a["id"]) == registrations for _, a in accepted)
        assert rows[answer["id"]] == registrations
    finally:
        again.stop()


def test_sigterm_at_any_moment_after_ready_shuts_down_cleanly(pushnode_bin):
    # A SIGTERM sent the instant `event=ready` is logged used to hit threads that did not block it:
    # the process died of the default action (-15) or ignored the signal and never stopped.
    for _ in range(5):
        node = Node(pushnode_bin)
        assert node.stop() == 0, "".join(node.log)
        assert "event=shutdown stage=done" in "".join(node.log)


def expansion_state(db_path):
    """What a kill left in the file, per notification id: [registration id, expanded?] of each
    delivery still held, its `pending`, and how many of its deliveries finished (any outcome)."""
    with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as db:
        rows = queued_deliveries(db)
        pending = dict(db.execute("SELECT id, pending FROM notifications").fetchall())
        finished = dict(db.execute("SELECT notification_id, sum(count) FROM delivery_outcomes GROUP BY notification_id").fetchall())
    held = {}
    for notification, registration, _, state in rows:
        held.setdefault(notification, []).append((registration, state is not None))
    return held, pending, finished


def assert_each_delivery_once(db_path, accepted, registrations):
    """Every recipient of every accepted Notify is held exactly once (unexpanded or as an outbox
    row) or finished with an outcome, and `pending` counts what is held. Returns, per notification,
    how many of the held deliveries are expanded."""
    held, pending, finished = expansion_state(db_path)
    expanded = {}
    for notification in accepted:
        ids = [registration for registration, _ in held.get(notification, [])]
        assert len(ids) == len(set(ids)), f"{notification}: a delivery is held twice"
        assert set(ids) <= set(registrations)
        assert len(ids) + finished.get(notification, 0) == len(registrations), (notification, len(ids), finished.get(notification))
        assert pending.get(notification, 0) == len(ids)
        expanded[notification] = sum(flag for _, flag in held.get(notification, []))
    return expanded


def test_kill_9_while_claims_expand_a_fan_out_keeps_every_delivery_once(pushnode_bin, tmp_path):
    """A fan-out of 600 is stored as three recipient chunks; the delivery engine's claims expand
    them into outbox rows (every attempt is refused, a closed port, and waits the 10 min backoff;
    a restart releases the claims of the killed process, so some deliveries use up their attempts
    and finish). The node is killed with SIGKILL at moments spread over the expansion, eight
    times: each time every recipient of every accepted Notify is held exactly once or finished,
    `pending` counts exactly those held, and a restarted node carries on from there."""
    data = str(tmp_path / "data")
    node = Node(pushnode_bin, env=ENV, data_dir=data)
    db_path = database(node)
    space, registrations = populate(node, readers=300, devices=2)
    accepted, partial = [], 0
    try:
        for round_ in range(8):
            sender = Account()
            status, answer, _ = sender.call(node, "POST", "/v1/notify", sender.notify([space.topic("chats")]))
            assert status == 200 and answer["queued"] == 600, answer
            accepted.append(answer["id"])
            time.sleep(0.002 * round_ * round_)  # 0 to 98 ms: before, during and after the expansion
            assert node.kill() == -9
            expanded = assert_each_delivery_once(db_path, accepted, registrations)
            held = {n: len(ids) for n, ids in expansion_state(db_path)[0].items()}
            partial += any(0 < expanded[n] < held.get(n, 0) for n in accepted)
            print(f"kill {round_}: expanded/held per Notify", [(expanded[n], held.get(n, 0)) for n in accepted])
            node = Node(pushnode_bin, env=ENV, data_dir=data)
            assert node.json("GET", "/readyz")[0] == 200
        # Some kill found a Notify with part of its deliveries expanded and part still in chunks.
        assert partial > 0
    finally:
        node.stop()
    assert_each_delivery_once(db_path, accepted, registrations)
