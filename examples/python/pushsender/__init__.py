"""A small, independent pushnode sender and receiver in Python (PyNaCl + cryptography + stdlib).

It follows Spec/protocol.md and Spec/crypto.md only; nothing here comes from the node's Swift code,
so it doubles as an interop test. docs/senders.md walks through each step.

    from pushsender import Account, Space, Node
    account = Account.load("server.key")              # hex seed, 0600 (same file as `pushnode client account new`)
    space = Space.load("space.json")                  # `pushnode client space new` (or Space.generate().save(...))
    node = Node("http://127.0.0.1:8765", account)
    node.register_space(space)                        # optional unless spaces.requireRegistration
    node.notify(space, ["user/mary"], payload=b'{"contract":"CHAT_MESSAGE"}', group_id="c-12")

    from pushsender import open_push                  # on the device
    plaintext = open_push(data_keys, {space.key_id: space.payload_key}, sender=account.id)
"""
from .encoding import account_id, base58_decode, base58_encode, public_key_of_account
from .keys import Account, Space
from .node import Node, NodeError
from .receiver import OpenError, open_push
from .sealing import key_id, open_sealed, seal
from .signing import content_digest, sign_request, signature_base

__all__ = [
    "Account", "Space", "Node", "NodeError", "OpenError", "open_push", "seal", "open_sealed", "key_id",
    "sign_request", "signature_base", "content_digest", "account_id", "public_key_of_account",
    "base58_encode", "base58_decode",
]
