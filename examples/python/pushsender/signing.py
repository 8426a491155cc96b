"""Request signing, PROTOCOL §2: RFC 9421 HTTP Message Signatures with the account's Ed25519 key,
label `push`, components "@method" "@path" ["@query"] ["content-digest"], parameters created,
nonce, keyid (the account id) and alg="ed25519", plus an RFC 9530 Content-Digest of the body."""
import base64
import hashlib
import os
import time


def content_digest(body: bytes) -> str:
    """RFC 9530 `Content-Digest`: `sha-256=:<base64 SHA-256 of the body>:`."""
    return "sha-256=:" + base64.b64encode(hashlib.sha256(body).digest()).decode() + ":"


def signature_params(components, created: int, nonce: str, keyid: str) -> str:
    """The `@signature-params` value: the covered components as an inner list, then parameters.
    The node accepts the parameters in any order; this is the order pushnode's own signer uses."""
    names = " ".join(f'"{name}"' for name in components)
    return f'({names});created={created};nonce="{nonce}";keyid="{keyid}";alg="ed25519"'


def signature_base(method: str, path: str, query, digest, params: str) -> bytes:
    """RFC 9421 §2.5: one `"name": value` line per component, then `"@signature-params": …`, joined
    by LF with no trailing newline. `@query` is `?` plus the raw query string."""
    lines = [f'"@method": {method}', f'"@path": {path or "/"}']
    if query:
        lines.append(f'"@query": ?{query}')
    if digest:
        lines.append(f'"content-digest": {digest}')
    lines.append(f'"@signature-params": {params}')
    return "\n".join(lines).encode()


def components_for(query, body: bytes):
    names = ["@method", "@path"]
    if query:
        names.append("@query")
    if body:
        names.append("content-digest")
    return names


def sign_request(account, method: str, path: str, query=None, body: bytes = b"", created=None, nonce=None) -> dict:
    """The headers that sign one request. Sign every try afresh: a reused nonce is `auth.replayed`."""
    created = int(time.time()) if created is None else created
    nonce = nonce or base64.urlsafe_b64encode(os.urandom(16)).rstrip(b"=").decode()
    digest = content_digest(body) if body else None
    params = signature_params(components_for(query, body), created, nonce, account.id)
    signature = account.sign(signature_base(method, path, query, digest, params))
    headers = {"Signature-Input": "push=" + params, "Signature": "push=:" + base64.b64encode(signature).decode() + ":"}
    if digest:
        headers["Content-Digest"] = digest
    return headers
