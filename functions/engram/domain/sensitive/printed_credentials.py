"""Credentials as developers' and operators' text gives them, with no password word the
other rules read before the value:

- a command that prints a secret, then what it printed on the next line ("vault kv get
  -field=password secret/prod/db" then "Sn0wdrift!Harrow_66"; `pass show`, `op read`,
  `bw get password`, `security find-generic-password -w`, `gcloud secrets versions access`,
  `aws secretsmanager get-secret-value`, `kubectl get secret ... | base64 -d`);
- a service's auth said to be a value now ("redis primary auth is now `Rd1s-Quill-7720`"), the
  value quoted or said to be the new one, with a chosen password's look;
- a key named in another language with a random run of letters and digits ("ключ от API
  кассы: 9b7e2c41f08a4d36a15e7c9204fb83d1", "zostawiłeś klucz: `PRZELEWY24_CRC =
  "a7f2c8e3f41c9e2b"`", "la clé API : ...", "API-Schlüssel: ...").

Not these: a command with no output after it, an output that is a path, a placeholder or a
word ("<paste here>", "(redacted)"); "auth is now enabled"; a key's id or fingerprint in hex
named as such, a hash or a checksum.
"""

from __future__ import annotations

import re

from engram.domain.sensitive.credential_pairs import chosen_password
from engram.domain.sensitive.prefilter import keyed
from engram.domain.sensitive.secret_values import credential_like, pointer

# A command that prints a secret's value.
_PRINTS_A_SECRET = keyed(
    r"(?:vault\s+(?:kv\s+get|read)\b[^\n]*-field[= ]\S+|pass\s+show\s+\S+|op\s+read\s+\S+"
    r"|op\s+item\s+get\b[^\n]*--fields?"
    r"|bw\s+get\s+(?:password|totp)\b|lpass\s+show\b[^\n]*--password|security\s+find-(?:generic|internet)-password\b[^\n]*-w"
    r"|gcloud\s+secrets\s+versions\s+access\b|aws\s+secretsmanager\s+get-secret-value\b[^\n]*--output\s+text"
    r"|az\s+keyvault\s+secret\s+show\b[^\n]*-o\s+tsv|kubectl\s+get\s+secret\b[^\n]*base64\s+(?:-d|--decode)"
    r"|doppler\s+secrets\s+get\b[^\n]*--plain|heroku\s+config:get\s+\S+)"
    r"[^\n]*\n[ \t]*(?:[$>#]\s*)?(?P<value>\S{8,128})[ \t]*(?:\n|$)",
    re.IGNORECASE,
)
# "redis primary auth is now `Rd1s-Quill-7720`", "the new admin auth: 'Tq7!mere-Lake'".
_AUTH_IS = re.compile(
    r"(?<![\w])auth(?:entication)?\s+(?:(?:is|was)\s+(?:now|still)|changed\s+to|set\s+to|rotated\s+to|now)\s*[:=]?\s*"
    r"(?P<q>[`\"'“‘]?)(?P<value>[^\s`\"'”’]{8,64})(?P=q)(?![\w])"
    r"|(?<![\w])auth\s*[:=]\s*(?P<q2>[`\"'“‘])(?P<value2>[^\s`\"'”’]{8,64})(?P=q2)",
    re.IGNORECASE,
)
# A key named in another language, then a random value within a few characters.
_KEY_WORD = re.compile(
    r"(?<![\w])(?:ключ\w*|клю[чш]\w*|klucz\w*|cl[ée]s?|chiav[ei]|llaves?|chaves?|schl[üu]ssel\w*|api-schl[üu]ssel"
    r"|sleutel\w*|nyckel\w*|n[øo]gle\w*|n[øo]kkel\w*|avain\w*|anahtar\w*|kulcs\w*|kl[íi][čc]\w*|cheie|κλειδ\w*)(?![\w])"
    r"|密钥|密鑰|秘钥|キー|鍵|키|מפתח|مفتاح|المفتاح|कुंजी",
    re.IGNORECASE,
)
_RANDOM = re.compile(r"(?<![\w\-])(?=[A-Za-z\-_]*\d)(?=[\d\-_]*[A-Za-z])[A-Za-z\d_\-]{16,}(?![\w\-])")
_NOT_A_KEY = re.compile(
    r"(?<![\w])(?:fingerprint|finger|id|kid|key[\s_\-]?id|hash|sha\d*|md5|checksum|crc32|uuid|guid|commit|public|publiczny"
    r"|публичн\w*|открыт\w*|öffentlich\w*|publique|pubblic\w*|p[úu]blic\w*|example|przyk[łl]ad\w*|пример\w*|beispiel"
    # a Pix key receives money (a random one is a UUID), an idempotency key names a request
    r"|pix|idempot\w*|идемпотент\w*)(?![\w])",
    re.IGNORECASE,
)
_KEY_REACH = 60
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)
_DISTINCT = 6
_API = re.compile(r"(?<![^\W\d_])(?:api|апи)(?![^\W\d_])", re.IGNORECASE)
# The first words of the Latin and Cyrillic key words: the rule runs where one of them is.
_KEY_STEMS = ("ключ", "клю", "klucz", "cl", "chiav", "llave", "chave", "schl", "api", "sleutel", "nyckel", "nøgle")
_KEY_STEMS_MORE = ("nogle", "nøkkel", "nokkel", "avain", "anahtar", "kulcs", "klíč", "klic", "cheie", "κλειδ")


def printed_credential(text: str, words: frozenset[str]) -> bool:
    if "\n" in text:
        for m in _PRINTS_A_SECRET.finditer(text):
            value = m.group("value")
            if not pointer(value) and (credential_like(value) or len(value) >= 16) and "/" not in value:
                return True
    if "auth" in text.lower():
        for m in _AUTH_IS.finditer(text):
            value = m.group("value") or m.group("value2")
            if not pointer(value) and chosen_password(value):
                return True
    named = any(w.startswith(_KEY_STEMS) or w.startswith(_KEY_STEMS_MORE) for w in words)
    return (named or not text.isascii()) and _key_in_other_language(text)


def _key_in_other_language(text: str) -> bool:
    for m in _KEY_WORD.finditer(text):
        near = text[m.end() : m.end() + _KEY_REACH]
        value = _RANDOM.search(near)
        if value is None or _NOT_A_KEY.search(text, max(0, m.start() - 30), m.end() + value.start()):
            continue
        found = value.group()
        if _UUID.fullmatch(found) and not _API.search(text, max(0, m.start() - 12), m.end() + value.start()):
            continue  # (a UUID names a thing, unless an API's key: "ключ API Ozon Seller: 7c2a9f40-...")
        if len(set(found)) < _DISTINCT or pointer(found):
            continue  # ("test_0000000000000000" is a test key's placeholder)
        if sum(c.isdigit() for c in found) >= 3:
            return True
    return False
