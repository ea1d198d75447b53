"""Secrets in a network device's configuration and in what a security tool shows in clear.

A switch's, a router's or a firewall's configuration gives a secret after its own keyword,
not after "password =": an SNMP community (`snmp-server community Pr1v4teRW-Campus RW`,
`rwcommunity n0c-Wr1te`: it reads, and with RW writes, the device's settings), a Cisco
secret or password of type 0 (written in clear: `username admin secret 0 Cisc0Adm!n`), a
FortiGate `set psksecret` or `set passwd` not stored as `ENC ...`, a Junos
`pre-shared-key ascii-text "..."`. A value said to be shown in clear is one too ("the
"set psksecret" still has Tunnel!PSK-Leeds in plaintext", "mimikatz shows cleartext for
svc_print: Pr1nt-Spool-99").

What passes: the read-only community everyone's device ships with (`public`), an encrypted
or hashed value (`ENC ...`, a Cisco type 5, 8 or 9 hash, Junos `$9$`), a placeholder."""

from __future__ import annotations

import re

from engram.domain.sensitive.prefilter import keyed
from engram.domain.sensitive.secret_values import credential_like, pointer

_SETTING = keyed(
    r"(?<![\w\-])(?:snmp-server\s+community|snmp\s+community(?!\s+string)|(?:ro|rw)community6?|community\s+string\s*(?:is|:|=)?"
    # (type 0 is written in clear; so is ProCurve's and EdgeOS's "plaintext", an SSID's wpa-psk and
    # an SNMPv3 user's auth and priv keys)
    r"|(?:secret|password)\s+0|(?:wpa-)?psk\s+ascii\s+0|plaintext(?:-password)?"
    r"|snmp-server\s+user\s+\S+\s+\S+\s+v3\s+auth\s+(?:sha|md5)|priv\s+(?:aes|des|3des)(?:\s+\d{3})?"
    r"|set\s+(?:psksecret|passwd|password|secret|passphrase|auth-pwd|auth-password|priv-pwd"
    r"|sae-password|psk)|(?:pre-shared-key|authentication-key)\s+ascii-text)"
    r"\s+[\"']?(?P<value>[^\s\"']{3,64})",
    re.IGNORECASE,
)
# A value said to be shown in clear (the phrase found first, the value the word before it),
# or a tool's clear text for an account: each tried only where its first word starts a word.
_IN_CLEAR = keyed(r"(?<![\w])in\s+(?:plain[\s\-]?text|clear[\s\-]?text|the\s+clear)\b", re.IGNORECASE)
_VALUE_BEFORE = re.compile(r"(?<![^\s\"'“(])(?P<value>[^\s\"'”]{6,64})[\"'”]?\s+$")
_CLEAR_FOR = keyed(
    r"(?<![\w])(?:clear|plain)[\s\-]?text(?:\s+(?:password|pw|creds?|credentials?))?\s+(?:for|of)\s+[\w.\-@\\$]+\s*[:=]\s*"
    r"(?P<value>[^\s\"'”]{6,64})",
    re.IGNORECASE,
)
# (what is said in clear is a secret only beside a secret's word)
_SECRET_WORD = re.compile(r"psk|secret|passw|\bpw\b|\bkey\b|credential|creds|cleartext|clear\s+text|mimikatz", re.I)
_NOT_IN_CLEAR = frozenset(["enc", "public", "<redacted>", "redacted", "xxxx", "********"])


def device_secret(text: str) -> bool:
    for m in _SETTING.finditer(text):
        value = m.group("value")
        if value.lower() in _NOT_IN_CLEAR or pointer(value) or value.startswith("$"):
            continue  # (public, ENC ..., a hash or Junos' $9$ encoding, a placeholder)
        if m.group().lower().startswith(
            ("secret", "password", "community", "plaintext", "priv")
        ) and not credential_like(value):
            continue  # ("password 0 attempts left", "community string: see vault"; a setting's own line is its value)
        return True
    values = [m.group("value") for m in _CLEAR_FOR.finditer(text)]
    values += [
        v.group("value")
        for m in _IN_CLEAR.finditer(text)
        if (v := _VALUE_BEFORE.search(text, max(0, m.start() - 70), m.start()))
    ]
    return (
        any(
            credential_like(value) and not pointer(value) and value.lower() not in _NOT_IN_CLEAR
            for value in (v.rstrip(".,;:!?)") for v in values)
        )
        and _SECRET_WORD.search(text) is not None
    )
