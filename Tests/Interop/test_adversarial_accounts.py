"""Hostile accounts through the real binary (issue 26): what one account may hold, who may take a
Web Push endpoint over, and a signed request captured before a restart replayed after it."""
import json

from nodeclient import Account, Space, webpush_token
from pushnode_node import Node

LIMITS = {"PUSHNODE_LIMITS_MAX_REGISTRATIONS_PER_ACCOUNT": "5", "PUSHNODE_LIMITS_MAX_SPACES_PER_ACCOUNT": "4",
          "PUSHNODE_WEBPUSH_ALLOW_PRIVATE_ENDPOINTS": "true"}


def code(answer):
    status, body, _ = answer
    return status, (body or {}).get("error", {}).get("code")


def test_one_account_holds_at_most_the_limits(pushnode_bin):
    node = Node(pushnode_bin, env=LIMITS)
    try:
        account = Account()
        answers = [code(account.call(node, "POST", "/v1/tokens", webpush_token(f"d{i}"))) for i in range(8)]
        assert answers == [(200, None)] * 5 + [(409, "account.limit_reached")] * 3
        assert len(account.call(node, "GET", "/v1/tokens")[1]["registrations"]) == 5
        spaces = [Space() for _ in range(6)]
        answers = [code(account.call(node, "POST", "/v1/spaces", space.proof(account))) for space in spaces]
        assert answers == [(200, None)] * 4 + [(409, "account.limit_reached")] * 2
        assert code(account.call(node, "POST", "/v1/spaces", spaces[0].proof(account))) == (200, None)  # no change
        # Another account is not charged for it.
        other = Account()
        assert code(other.call(node, "POST", "/v1/spaces", spaces[5].proof(other))) == (200, None)
    finally:
        node.stop()


def test_an_endpoint_url_alone_cannot_take_a_webpush_registration(pushnode_bin):
    node = Node(pushnode_bin, env=LIMITS)
    try:
        owner, thief = Account(), Account()
        mine = webpush_token("browser")
        assert owner.call(node, "POST", "/v1/tokens", mine)[0] == 200
        assert code(thief.call(node, "POST", "/v1/tokens", webpush_token("x", endpoint=mine["token"]))) == (
            409, "token.in_use")
        assert len(owner.call(node, "GET", "/v1/tokens")[1]["registrations"]) == 1
    finally:
        node.stop()


def test_a_request_captured_before_a_restart_is_replayed_after_it(pushnode_bin, tmp_path):
    data = str(tmp_path / "data")
    account = Account()
    body = json.dumps(webpush_token("d")).encode()
    headers = account.headers("POST", "/v1/tokens", body)
    headers["Content-Type"] = "application/json"
    node = Node(pushnode_bin, env=LIMITS, data_dir=data)
    assert node.request("POST", "/v1/tokens", headers=headers, body=body)[0] == 200
    assert node.request("POST", "/v1/tokens", headers=headers, body=body)[0] == 401
    node.kill(cleanup=False)  # no shutdown at all: the window must already be on disk
    node = Node(pushnode_bin, env=LIMITS, data_dir=data)
    try:
        status, _, answer = node.request("POST", "/v1/tokens", headers=headers, body=body)
        assert (status, json.loads(answer)["error"]["code"]) == (401, "auth.replayed")
        assert account.call(node, "POST", "/v1/tokens", webpush_token("d"))[0] == 200  # a fresh signature passes
    finally:
        node.stop()


def test_keys_rotated_from_one_address_share_its_budget_for_new_accounts(pushnode_bin):
    """Each fresh key used to bring a fresh rate budget (1,280 requests from 64 keys in 2 s). Now an
    account the node has not seen draws from its address's bucket too: 30 new accounts a minute
    (the default), so 40 keys get 30 budgets, not 40."""
    node = Node(pushnode_bin, env={"PUSHNODE_LIMITS_NEW_ACCOUNTS_PER_ADDRESS": "30"})
    try:
        keys = [Account() for _ in range(40)]
        answers = [[key.call(node, "GET", "/v1/tokens")[0] for _ in range(5)] for key in keys]
        assert answers[:30] == [[200] * 5] * 30
        assert answers[30:] == [[429] * 5] * 10  # refused from the first request: they stay unseen
        status, body, headers = keys[30].call(node, "GET", "/v1/tokens")
        assert (status, body["error"]["code"], int(headers["Retry-After"]) <= 2) == (429, "rate_limited", True)
        # An account already seen keeps its own budget; another client address has its own.
        assert keys[0].call(node, "GET", "/v1/tokens")[0] == 200
        fresh = Account()
        headers = fresh.headers("GET", "/v1/tokens")
        headers["X-Forwarded-For"] = "198.51.100.7, 203.0.113.9"  # as a reverse proxy on this host adds it
        assert node.request("GET", "/v1/tokens", headers=headers)[0] == 200
    finally:
        node.stop()
