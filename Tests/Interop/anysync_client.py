"""An any-sync push client written from Spec/anysync-wire.md, sharing nothing with the
node's codec: libp2p TLS 1.3 (Python ssl over memory BIOs, so the TLS layer can be dropped
exactly after the handshake), the credentials handshake, yamux and DRPC, and the pushproto
messages. Keys and certificates come from `cryptography`."""
import datetime
import hashlib
import os
import socket
import ssl
import struct
import tempfile

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from cryptography.x509.oid import NameOID

ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
LIBP2P_OID = x509.ObjectIdentifier("1.3.6.1.4.1.53594.1.1")


def b58encode(data: bytes) -> str:
    n = int.from_bytes(data, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = ALPHABET[r] + out
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + out


def raw_public(key) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def peer_id(pub: bytes) -> str:
    pb = b"\x08\x01\x12\x20" + pub
    return b58encode(bytes([0x00, len(pb)]) + pb)


def crc16_xmodem(data: bytes) -> int:
    crc = 0
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def account_id(pub: bytes) -> str:
    body = b"\x5b" + pub
    return b58encode(body + struct.pack("<H", crc16_xmodem(body)))


# ---- protobuf -------------------------------------------------------------------------------

def varint(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def read_varint(data: bytes, i: int):
    shift = value = 0
    while True:
        b = data[i]
        i += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, i
        shift += 7


def pb_varint(field: int, value: int) -> bytes:
    return varint(field << 3) + varint(value) if value else b""


def pb_bytes(field: int, value: bytes, always=False) -> bytes:
    return varint(field << 3 | 2) + varint(len(value)) + value if (value or always) else b""


def pb_fields(data: bytes):
    i, out = 0, []
    while i < len(data):
        key, i = read_varint(data, i)
        if key & 7 == 0:
            v, i = read_varint(data, i)
        elif key & 7 == 2:
            n, i = read_varint(data, i)
            v, i = data[i:i + n], i + n
        else:
            raise ValueError("wire type")
        out.append((key >> 3, v))
    return out


def topic_msg(space_key: bytes, topic: str, signature: bytes) -> bytes:
    return pb_bytes(1, space_key) + pb_bytes(2, topic.encode()) + pb_bytes(3, signature)


def topics_msg(topics) -> bytes:
    return b"".join(pb_bytes(1, topic_msg(*t), always=True) for t in topics)


def topics_request(topics) -> bytes:
    return pb_bytes(1, topics_msg(topics), always=True)


def notify_request(topics, key_id: str, payload: bytes, signature: bytes, group_id: str = "") -> bytes:
    message = pb_bytes(1, key_id.encode()) + pb_bytes(2, payload) + pb_bytes(3, signature)
    return pb_bytes(1, topics_msg(topics), always=True) + pb_bytes(2, message, always=True) + pb_bytes(3, group_id.encode())


def set_token_request(platform: int, token: str) -> bytes:
    return pb_varint(1, platform) + pb_bytes(2, token.encode())


def decode_subscriptions(body: bytes):
    out = []
    for field, topics in pb_fields(body):
        if field != 1:
            continue
        for f, topic in pb_fields(topics):
            if f == 1:
                t = dict(pb_fields(topic))
                out.append((t.get(1, b""), t.get(2, b"").decode()))
    return out


# ---- libp2p certificate ---------------------------------------------------------------------

def der(tag: int, content: bytes) -> bytes:
    n = len(content)
    length = bytes([n]) if n < 0x80 else (bytes([0x81, n]) if n < 0x100 else bytes([0x82, n >> 8, n & 0xFF]))
    return bytes([tag]) + length + content


def make_certificate(peer_key):
    cert_key = ec.generate_private_key(ec.SECP256R1())
    spki = cert_key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    signature = peer_key.sign(b"libp2p-tls-handshake:" + spki)
    value = der(0x30, der(0x04, b"\x08\x01\x12\x20" + raw_public(peer_key)) + der(0x04, signature))
    name = x509.Name([x509.NameAttribute(NameOID.SERIAL_NUMBER, str(int.from_bytes(os.urandom(7), "big")))])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(cert_key.public_key())
            .serial_number(int.from_bytes(os.urandom(7), "big")).not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=36500))
            .add_extension(x509.UnrecognizedExtension(LIBP2P_OID, value), critical=False)
            .sign(cert_key, hashes.SHA256()))
    return cert, cert_key


def peer_id_of_certificate(der_bytes: bytes) -> str:
    """Checks the server certificate's libp2p extension (Spec/anysync-wire.md §3.3) and returns its peer id."""
    cert = x509.load_der_x509_certificate(der_bytes)
    value = cert.extensions.get_extension_for_oid(LIBP2P_OID).value.value
    assert value[0] == 0x30
    # SEQUENCE { OCTET STRING pb, OCTET STRING sig } with short lengths (Ed25519: 30 68 04 24 … 04 40 …)
    assert value[2] == 0x04 and value[4:8] == b"\x08\x01\x12\x20"
    pub = value[8:8 + 32]
    assert value[40] == 0x04 and value[41] == 64
    sig = value[42:42 + 64]
    spki = cert.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    ed25519.Ed25519PublicKey.from_public_bytes(pub).verify(sig, b"libp2p-tls-handshake:" + spki)
    return peer_id(pub)


# ---- the session ----------------------------------------------------------------------------

class HandshakeRefused(Exception):
    def __init__(self, code):
        super().__init__(f"handshake refused with code {code}")
        self.code = code


class DRPCError(Exception):
    """`frame`: the Error frame's bytes as they came (kind byte, stream id, message id, length, data)."""

    def __init__(self, code, message, frame=b""):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.frame = frame


class Session:
    """One connection: TLS + credentials, then yamux with one DRPC sub-connection (stream 1)."""

    def __init__(self, port, peer_key=None, account_key=None, version=8, timeout=10, certificate=None, sign_for=None):
        self.peer_key = peer_key or ed25519.Ed25519PrivateKey.generate()
        self.account_key = account_key or ed25519.Ed25519PrivateKey.generate()
        self.peer_id = peer_id(raw_public(self.peer_key))
        self.account = account_id(raw_public(self.account_key))
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.raw = b""
        self.version = version
        self.next_drpc = 1
        self.stream = None
        self.certificate = certificate or make_certificate
        self.sign_for = sign_for

    # -- TLS and credentials
    def handshake(self):
        cert, cert_key = self.certificate(self.peer_key)
        with tempfile.TemporaryDirectory() as d:
            cpath, kpath = os.path.join(d, "c.pem"), os.path.join(d, "k.pem")
            with open(cpath, "wb") as f:
                f.write(cert.public_bytes(serialization.Encoding.PEM))
            with open(kpath, "wb") as f:
                f.write(cert_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                               serialization.NoEncryption()))
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            ctx.check_hostname = False
            ctx.verify_mode = ssl.CERT_NONE
            ctx.minimum_version = ctx.maximum_version = ssl.TLSVersion.TLSv1_3
            ctx.set_alpn_protocols(["libp2p"])
            ctx.load_cert_chain(cpath, kpath)
        self.incoming, self.outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
        self.tls = ctx.wrap_bio(self.incoming, self.outgoing, server_side=False)
        while True:
            try:
                self.tls.do_handshake()
                break
            except ssl.SSLWantReadError:
                self._flush()
                self._feed()
        self._flush()
        self.alpn = self.tls.selected_alpn_protocol()
        self.server_peer_id = peer_id_of_certificate(self.tls.getpeercert(binary_form=True))
        sign = self.account_key.sign((self.peer_id + (self.sign_for or self.server_peer_id)).encode())
        identity = b"\x12\x20" + raw_public(self.account_key)
        payload = pb_bytes(1, identity) + pb_bytes(2, sign)
        cred = pb_varint(1, 1) + pb_bytes(2, payload) + pb_varint(3, self.version) + pb_bytes(4, b"pytest/any-sync:v0")
        self._tls_write(self._frame(1, cred))
        kind, body = self._tls_read_frame()
        if kind == 2:
            raise HandshakeRefused(dict(pb_fields(body)).get(1, 0))
        assert kind == 1
        fields = dict(pb_fields(body))
        self.server_version = fields.get(3, 0)
        signed = dict(pb_fields(fields[2]))
        assert signed[1][:2] == b"\x12\x20"
        ed25519.Ed25519PublicKey.from_public_bytes(signed[1][2:]).verify(
            signed[2], (self.server_peer_id + self.peer_id).encode())
        self._tls_write(self._frame(2, b""))
        kind, body = self._tls_read_frame()
        assert (kind, body) == (2, b""), (kind, body)
        assert self.incoming.pending == 0 and self.tls.pending() == 0
        self.tls = None  # dropped: no close_notify; the socket now carries yamux in cleartext
        return self

    @staticmethod
    def _frame(kind, body):
        return bytes([kind]) + struct.pack("<I", len(body)) + body

    def _flush(self):
        data = self.outgoing.read()
        if data:
            self.sock.sendall(data)

    def _feed(self):
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("closed during TLS")
        self.incoming.write(data)

    def _tls_write(self, data):
        self.tls.write(data)
        self._flush()

    def _tls_read_exact(self, n):
        out = b""
        while len(out) < n:
            try:
                chunk = self.tls.read(n - len(out))
                if not chunk:
                    raise ConnectionError("TLS closed")
                out += chunk
            except ssl.SSLWantReadError:
                self._feed()
        return out

    def _tls_read_frame(self):
        header = self._tls_read_exact(5)
        return header[0], self._tls_read_exact(struct.unpack("<I", header[1:])[0])

    # -- yamux
    def send_yamux(self, kind, flags, stream, length, payload=b""):
        self.sock.sendall(struct.pack(">BBHII", 0, kind, flags, stream, length) + payload)

    def _recv_exact(self, n):
        while len(self.raw) < n:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("closed")
            self.raw += data
        out, self.raw = self.raw[:n], self.raw[n:]
        return out

    def read_yamux(self):
        version, kind, flags, stream, length = struct.unpack(">BBHII", self._recv_exact(12))
        assert version == 0
        payload = self._recv_exact(length) if kind == 0 else b""
        return kind, flags, stream, length, payload

    def open_stream(self, stream=1):
        """Opens a yamux stream with the Proto handshake; returns the server's Proto reply."""
        self.send_yamux(1, 1, stream, 0)
        proto = bytes.fromhex("030400000012020100")
        self.send_yamux(0, 0, stream, len(proto), proto)
        got_ack, data = False, b""
        while not got_ack or len(data) < 8:
            kind, flags, sid, length, payload = self.read_yamux()
            if kind == 1 and sid == stream and flags & 2:
                got_ack = True
            if kind == 0 and sid == stream:
                data += payload
        self.stream, self.buffer = stream, data[8:]
        return data[:8]

    # -- DRPC
    @staticmethod
    def drpc_frame(kind, sid, mid, data=b"", done=True):
        return bytes([kind << 1 | (1 if done else 0)]) + varint(sid) + varint(mid) + varint(len(data)) + data

    def call(self, method, body=b""):
        """One unary call on the open stream; returns the response body or raises DRPCError."""
        if self.stream is None:
            self.open_stream()
        sid = self.next_drpc
        self.next_drpc += 1
        packet = (self.drpc_frame(1, sid, 1, f"/pushproto.Push/{method}".encode())
                  + self.drpc_frame(2, sid, 2, body) + self.drpc_frame(6, sid, 3))
        self.send_yamux(0, 0, self.stream, len(packet), packet)
        message = None
        while True:
            frame = self._next_drpc_frame()
            kind, fsid, mid, data = frame
            if fsid != sid:
                continue
            if kind == 3:
                code = struct.unpack(">Q", data[:8])[0]
                raise DRPCError(code, data[8:].decode(), self.last_frame)
            if kind == 2:
                message = data
            if kind == 6:
                assert message is not None
                return message

    def _next_drpc_frame(self):
        while True:
            parsed = self._parse_drpc(self.buffer)
            if parsed:
                frame, used = parsed
                self.last_frame, self.buffer = self.buffer[:used], self.buffer[used:]
                return frame
            kind, flags, sid, length, payload = self.read_yamux()
            if kind == 2 and flags & 1:
                self.send_yamux(2, 2, 0, length)
            if kind == 0 and sid == self.stream:
                self.buffer += payload
            if kind == 3:
                raise ConnectionError(f"GoAway {length}")
            if sid == self.stream and flags & (4 | 8) and kind != 0:
                raise ConnectionError("stream closed")

    @staticmethod
    def _parse_drpc(buf):
        if not buf:
            return None
        try:
            i = 1
            sid, i = read_varint(buf, i)
            mid, i = read_varint(buf, i)
            n, i = read_varint(buf, i)
        except IndexError:
            return None
        if len(buf) < i + n:
            return None
        return ((buf[0] >> 1) & 0x3F, sid, mid, buf[i:i + n]), i + n

    def close(self):
        self.sock.close()


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
