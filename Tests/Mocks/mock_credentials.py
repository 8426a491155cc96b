"""Throwaway credentials the mock providers make at start: a test CA with a server
certificate for 127.0.0.1/localhost, an unrelated CA (for "wrong CA" tests), a Google
service-account JSON, an APNs .p8 signing key and the public halves to verify with."""

import datetime
import ipaddress
import json
import os
import secrets

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import NameOID


def _name(common_name):
    return x509.Name([
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "pushnode mock providers"),
        x509.NameAttribute(NameOID.COMMON_NAME, common_name),
    ])


def _ca(common_name):
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name(common_name))
        .issuer_name(_name(common_name))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(
            digital_signature=True, key_cert_sign=True, crl_sign=True, content_commitment=False,
            key_encipherment=False, data_encipherment=False, key_agreement=False,
            encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    return key, cert


def _server_cert(ca_key, ca_cert, hosts):
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.timezone.utc)
    names = []
    for host in hosts:
        try:
            names.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            names.append(x509.DNSName(host))
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name(hosts[0]))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    return key, cert


def _pem_cert(cert):
    return cert.public_bytes(serialization.Encoding.PEM)


def _pem_key(key):
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def _write(path, data, mode=0o600):
    with open(path, "wb") as f:
        f.write(data)
    os.chmod(path, mode)


class Credentials:
    """Everything generated for one run, written under `directory`."""

    def __init__(self, directory, ca_file, hosts, project_id, team_id, key_id, apns_key_file=None):
        os.makedirs(directory, exist_ok=True)
        self.directory = directory
        ca_key, ca_cert = _ca("pushnode mock CA")
        server_key, server_cert = _server_cert(ca_key, ca_cert, hosts)
        _, other_ca = _ca("pushnode unrelated CA")

        self.ca_file = ca_file or os.path.join(directory, "ca.pem")
        self.other_ca_file = os.path.join(directory, "other-ca.pem")
        self.server_cert_file = os.path.join(directory, "server.pem")
        self.server_key_file = os.path.join(directory, "server-key.pem")
        _write(self.ca_file, _pem_cert(ca_cert), 0o644)
        _write(self.other_ca_file, _pem_cert(other_ca), 0o644)
        _write(self.server_cert_file, _pem_cert(server_cert) + _pem_cert(ca_cert), 0o644)
        _write(self.server_key_file, _pem_key(server_key))

        # FCM: a service account like the JSON the Firebase console hands out.
        self.project_id = project_id
        self.sa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.sa_public_key = self.sa_key.public_key()
        self.client_email = f"firebase-adminsdk-mock@{project_id}.iam.gserviceaccount.com"
        self.service_account_file = os.path.join(directory, "service-account.json")

        # APNs: an ES256 .p8 key with its key id and team id.
        self.team_id = team_id
        self.key_id = key_id
        if apns_key_file:  # the key another mock made: Apple's two environments share one key
            with open(apns_key_file, "rb") as f:
                self.apns_key = serialization.load_pem_private_key(f.read(), password=None)
            self.apns_key_file = apns_key_file
        else:
            self.apns_key = ec.generate_private_key(ec.SECP256R1())
            self.apns_key_file = os.path.join(directory, f"AuthKey_{key_id}.p8")
            _write(self.apns_key_file, _pem_key(self.apns_key))
        self.apns_public_key = self.apns_key.public_key()

    def write_service_account(self, token_uri):
        """Written once the port is known, since `token_uri` points at the mock."""
        document = {
            "type": "service_account",
            "project_id": self.project_id,
            "private_key_id": secrets.token_hex(20),
            "private_key": _pem_key(self.sa_key).decode(),
            "client_email": self.client_email,
            "client_id": str(100000000000000000000 + secrets.randbelow(10 ** 20)),
            "auth_uri": "https://accounts.google.com/o/oauth2/auth",
            "token_uri": token_uri,
            "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
            "client_x509_cert_url": "https://www.googleapis.com/robot/v1/metadata/x509/"
                                    + self.client_email.replace("@", "%40"),
            "universe_domain": "googleapis.com",
        }
        _write(self.service_account_file, json.dumps(document, indent=2).encode())
