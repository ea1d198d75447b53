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
    r"|(?:secret|password)\s+0|set\s+(?:psksecret|passwd|password|secret|passphrase|auth-pwd|auth-password|priv-pwd"
    r"|sae-password|psk)|(?:pre-shared-key|authentication-key)\s+ascii-text)"
    r"\s+[\"']?(?P<value>[^\s\"']{3,64})",
    re.IGNORECASE,
)
# A value said to be shown in clear, or a tool's clear text for an account.
_IN_CLEAR = keyed(
    r"(?<![^\s\"'“(])(?P<value>[^\s\"'”]{6,64})[\"'”]?\s+in\s+(?:plain[\s\-]?text|clear[\s\-]?text|the\s+clear)\b"
    r"|\b(?:clear|plain)[\s\-]?text(?:\s+(?:password|pw|creds?|credentials?))?\s+(?:for|of)\s+[\w.\-@\\$]+\s*[:=]\s*"
    r"(?P<value2>[^\s\"'”]{6,64})",
    re.IGNORECASE,
)
# (what is said in clear is a secret only beside a secret's word)
_SECRET_WORD = re.compile(r"psk|secret|passw|\bpw\b|\bkey\b|credential|creds|cleartext|clear\s+text|mimikatz", re.I)
_CLEAR = re.compile(r"clear|plain", re.IGNORECASE)
_NOT_IN_CLEAR = frozenset(["enc", "public", "<redacted>", "redacted", "xxxx", "********"])


def device_secret(text: str) -> bool:
    for m in _SETTING.finditer(text):
        value = m.group("value")
        if value.lower() in _NOT_IN_CLEAR or pointer(value) or value.startswith("$"):
            continue  # (public, ENC ..., a hash or Junos' $9$ encoding, a placeholder)
        if m.group().lower().startswith(("secret", "password", "community")) and not credential_like(value):
            continue  # ("password 0 attempts left", "community string: see vault"; a setting's own line is its value)
        return True
    if _CLEAR.search(text) is not None and _SECRET_WORD.search(text) is not None:
        for m in _IN_CLEAR.finditer(text):
            value = (m.group("value") or m.group("value2")).rstrip(".,;:!?)")
            if credential_like(value) and not pointer(value) and value.lower() not in _NOT_IN_CLEAR:
                return True
    return False
