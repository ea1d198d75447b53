"""Credentials given as a pair after a word that names them: a login ("login: admin /
Synology!2468"), creds or a user ("creds for Steam -> lena:pass", "my login is user / pass"),
a network and its password ("Wi-Fi: HomeNet / Kiwi!Fruit7"); not a URL, a path, a code's
signature or a flag."""

from __future__ import annotations

import re

from engram.domain.sensitive.further_values import MAIL_ADDRESS
from engram.domain.sensitive.secret_values import credential_like, pointer
from engram.domain.sensitive.secret_words import LOGIN_STEMS, NOT_A_VALUE

# The words a user and password pair (or a network and its password) follows.
_PAIR_STEMS = LOGIN_STEMS | frozenset(["wi", "fi", "wifi", "wlan"]) | frozenset(["admin", "administrator", "account"])
# (no password word at all: "jellyfin admin: lena / popcornfriday")
ADMIN_STEMS = frozenset(["admin", "administrator", "account"])


def named_pair(text: str, present: frozenset[str]) -> bool:
    """A user and a password (or a network and its password) after the word naming them."""
    return bool(present & _PAIR_STEMS) and (_login_pair(text) or _creds(text))


# (and "is still", "is now": "the BMS login is still honeywell / honeywell")
_LOGIN_RE = re.compile(
    r"\blog\s?in\b[^.\n]{0,40}?(?:is|:)\s*(?P<still>(?:still|now|just|again)\s+)?(?P<user>\S+)\s*/\s*(?P<pw>\S+)",
    re.IGNORECASE,
)


def _login_pair(text: str) -> bool:
    """ "login: admin / Synology!2468"; not a URL, a path or a ratio after the word ("login
    page: https://example.com/login", "login logs: /var/log/auth.log", "login ratio is 3/4"),
    unless the URL carries a login code ("magic login link: https://...?code=OGZeGNBxJKk86u")."""
    for m in _LOGIN_RE.finditer(text):
        user, pw = m.group("user"), m.group("pw")
        if "://" in m.group():
            if _CODE_IN_QUERY.search(pw):
                return True
        elif "/" not in user + pw and not (user.isdigit() and pw.isdigit()) and not (pointer(user) or pointer(pw)):
            if m.group("still") and not (credential_like(pw) or pw.strip(".,;!?").lower() == user.lower()):
                continue  # ("the login is still broken / flaky": how it is, not what)
            return True  # ("your till login is <USER>/<PASSWORD>": a template's slots)
    return False


_CODE_IN_QUERY = re.compile(r"[?&][\w\-]*=(?=[^&#\s]*\d)(?=[^&#\s]*[A-Za-z])[^&#\s]{16,}")


# Credentials given as a pair ("creds for Steam -> lena:pass", "my login is user / pass").
_CREDS_RE = re.compile(
    r"(?<![\w])(?:creds|credentials|login(?:\s+details)?|log-?in|sign-?in|zugangsdaten|anmeldedaten|identifiants"
    r"|credenciales|credenziali|inloggegevens|user(?:name)?|wi-?fi|wlan|(?P<admin>admin|administrator|account))(?![\w])"
    r"[^.\n]{0,40}?"
    r"(?:\s(?:is|are|sind|sont|son)\s|:|->|→|=)\s*(?P<user>[^\s/:]+)\s*(?P<join>:|/|\s+and\s+|,\s*|\s+und\s+|\s+et\s+|\s+y\s+)\s*"
    r"(?P<pw>\S+)",
    re.IGNORECASE,
)


def _admins_pair(word: str, user: str, pw: str) -> bool:
    """After "admin" or "account" a pair is two admins or two accounts as often as a user
    and a password: the password must look like one, or (after "admin") be one long word in
    lower case, not a name ("jellyfin admin: lena / popcornfriday"), beside a user that is
    no team's name either ("admin: engineering / infrastructure" are two teams)."""
    if credential_like(pw):
        return True
    return (
        word.lower() != "account"
        and len(pw) >= 12
        and pw.isalpha()
        and pw.islower()
        and not _a_kind(pw)
        and not _a_kind(user.lower())
    )


# (one long word of a dictionary, "administration", "procurementteam", "infrastructure",
# "communications" aside, is a team's or a group's name)
_SUFFIXES = ("tion", "ment", "ness", "ity", "ing", "ance", "ence", "ship", "team", "group", "ers", "ure", "ics", "ogy")


def _a_kind(word: str) -> bool:
    # (a plural names a kind too, "communications"; "stripedwalrus" and "correcthorsebattery" are no plurals)
    return word.endswith(_SUFFIXES) or (len(word) >= 8 and word.endswith("s") and not word.endswith(("ss", "us", "is")))


_HTTP_METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})
_BAND = re.compile(r"(?:\d(?:\.\d)?\s*g(?:hz)?|mbps|_?ext|guest)$", re.IGNORECASE)


# The network's word right before the pair ("Wi-Fi: Net / pw", "wifi at mum's: Net / pw").
_NETWORK_PAIR = re.compile(r"(?:wi-?fi|wlan)[^\"'\[\]{}()]{0,16}?(?:\s(?:is|are)\s|:|->|→|=)", re.IGNORECASE)


def _creds(text: str) -> bool:
    for m in _CREDS_RE.finditer(text):
        pw = m.group("pw").strip(".,;!?)(\"'")
        if (
            pointer(m.group("pw"))
            or pointer(m.group("user"))
            or _not_a_pair(m.group("user"), m.group("pw").strip(",;)(\"'"))
        ):
            continue
        if MAIL_ADDRESS.fullmatch(pw):
            continue  # ("E-Mail: tom@web.de" then "Passwort: (per SMS)"): an address is whose login, never its password
        if "://" in text[text.rfind(" ", 0, m.start()) + 1 : m.start() + 1]:
            continue  # the word is inside a URL ("mongodb+srv://<username>:<password>@...")
        if m.group().lower().startswith(("wi", "wlan")) and (
            not credential_like(pw) or _BAND.search(pw) or not _NETWORK_PAIR.match(m.group())
        ):
            continue  # "Wi-Fi: HomeNet / HomeNet-5G": two networks, not a network and its password
        # joined by a comma or "and", two words are prose ('"Hey, remind me"'), not a pair;
        # a speaker's label on the next line ("user):\nAgent: Thanks") neither
        prose = m.group("join").strip() in ("", ",", "and", "und", "et", "y") or "\n" in m.group()
        if m.group("admin") and (prose or not _admins_pair(m.group("admin"), m.group("user"), pw)):
            continue  # ("admins: Monday / Tuesday", "account: savings / checking": two of a kind)
        if len(pw) >= 4 and pw.lower() not in NOT_A_VALUE and (credential_like(pw) or (len(pw) >= 6 and not prose)):
            return True
    return False


# A file name: "--from-file=password=./pw.txt" names where the secret is.
FILE_NAME = re.compile(
    r".*\.(?:txt|json|pem|key|crt|cer|yaml|yml|env|conf|cfg|ini|p12|pfx|jks|gpg|asc|csv|log|md)", re.I
)
_SECRET_WORD = re.compile(
    r"(?:password|passwd|pass|pw|pwd|secret|token|key|credentials?|creds|auth|login|username|user)\W*", re.IGNORECASE
)


def _not_a_pair(user: str, pw: str) -> bool:
    """A code signature or a flag, not a user and a password ("login(username: str,
    password: str)", "--from-file=password=./pw.txt")."""
    return (
        user.lower().strip("(),") in NOT_A_VALUE
        or '"' in user.strip('"')  # JSON fields ('"user":"r.mehta77","reason":"bad_password"')
        or '","' in pw
        or '":' in pw
        or re.search(r'"\s*[,}\]]', pw) is not None
        or "=" in user
        or re.match(r"[A-Za-z_]\w*=", pw) is not None  # 'user="BOT", authenticator="sso"': the next argument
        # the next field, named for the password and read as one by its own rules
        # ('username:"unit14b", password:"<not captured: type=password>"')
        or re.match(r"(?:password|passwd|pass|pw|pwd|secret|token)[\"']?\s*[:=]", pw, re.IGNORECASE) is not None
        or user.startswith(("{", "["))  # '"user": {"id": 48213991, ...}': a record opens, no user name
        or user.endswith((")", "]"))  # "(type=fact, user=u_1182): ...": the bracket closed, text follows
        or _SECRET_WORD.fullmatch(pw.split("@")[0]) is not None
        or _SECRET_WORD.fullmatch(user.split("@")[0]) is not None
        or re.fullmatch(r"\d{2,5}/\S*", pw) is not None  # "user:password@localhost:5432/db": a port and a path
        or pw.endswith(":")
        or pw.startswith("//")  # "... timeouts: mongodb+srv://cluster0...": a URL's scheme and host
        or (user in _HTTP_METHODS and "/" in pw)  # "login endpoint is POST /api/v1/auth/login"
        or FILE_NAME.fullmatch(pw) is not None
    )
