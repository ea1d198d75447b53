"""A user name and a password written as a pair with no word before them: "admin /
Synology!2468", "log in as deploy / Wint3r-Harbor!22", "VPN: msands / Sunset#Blvd9",
"root:Delta!Quebec-55@127.0.0.1". The password must look chosen (three of lower case,
capitals, digits and symbols, a digit among them, eight characters or more, no product's
or version's name), the user name like a login (a handle, an e-mail address, or an account
such as root); a bare "user:password" needs one of those accounts ("root:Rh8!xPq2Lz").

A password in brackets right after its word, in any language the password words cover
("nous a donné son mot de passe (Chaton2019!)", "gaf zijn wachtwoord (Molen#Kaas88)"), with
the same look of a chosen password: "password (optional)", "(SHA-256)" pass. So is a chosen
password said to be what someone set for an account ("Tr0mbone!Sunday was what i set for
the church email")."""

from __future__ import annotations

import re

from engram.domain.sensitive.prefilter import keyed
from engram.domain.sensitive.secret_values import credential_like, pointer
from engram.domain.sensitive.secret_words import PASSWORD_WORD

# "user / password": the two joined by a slash with a space on both sides (without the
# spaces it is a path: "spaces/AAAAq7Lk2Wx", "America/Chicago").
_SPACED_PAIR = re.compile(r"(?<![\w.@/\-])(?P<user>[A-Za-z0-9][\w.+\-@]{1,40})[ \t]+/[ \t]+(?P<pw>[^\s/]{8,64})")
# Accounts every system has, so "root:Rh8!xPq2Lz" is a pair with no other word.
_ACCOUNTS = r"root|admin|administrator|pi|ubuntu|postgres|sa|deploy|ec2-user|guest|sysadmin|superuser"
# (or a slash without spaces, "FortiGate admin is admin/F0rt1-HQ-2024!": a path's part has no
# password's symbol, "root/Projects2024")
_COLON_PAIR = keyed(
    r"(?<![\w.@/\-])(?P<user>" + _ACCOUNTS + r")(?P<join>[:/])(?P<pw>[^\s:@/'\"]{8,64})(?!/)", re.IGNORECASE
)
# (a shared mailbox's name cut at its "@", or a user at a host: "hr.test@", "admin@staging")
_USER = re.compile(r"(?=.*[a-z])[\w.+\-]+(?:@(?:[\w\-]+(?:\.[\w\-]+)*)?)?|" + _ACCOUNTS, re.IGNORECASE)
# An account every system has, alone or at a host ("admin@staging"): its password may be
# letters and digits alone ("changeme123"), a default nobody changed.
_ACCOUNT_USER = re.compile(r"(?:" + _ACCOUNTS + r")(?:@[\w.\-]*)?", re.IGNORECASE)
_SYMBOLS = frozenset("!@#$%^&*~_+=?<>|-")
# A product's, a model's or a version's name ("Galaxy-S24", "Python3.12", "iOS-17.4").
_PRODUCT = re.compile(r"[A-Za-z]+[\-_]?[A-Za-z]?\d+(?:[.\-]\d+)*[A-Za-z]?", re.IGNORECASE)


def chosen_password(pw: str) -> bool:
    """A password that looks chosen: eight characters or more, three of lower case, capitals,
    digits and symbols, a digit among them, no product's or version's name."""
    return bool(pw) and _chosen(pw)


def _chosen(pw: str) -> bool:
    pw = pw.rstrip(".,;:)(\"'!?") if pw[-1:] in ".,;:)\"'" else pw.rstrip(".,;)(\"'")
    if len(pw) < 8 or _PRODUCT.fullmatch(pw) or "://" in pw or pw.count(".") > 1:
        return False
    classes = (
        any(c.islower() for c in pw),
        any(c.isupper() for c in pw),
        any(c.isdigit() for c in pw),
        any(c in _SYMBOLS for c in pw),
    )
    return sum(classes) >= 3 and classes[2] and any(c.isalpha() for c in pw)


# What a name has and a chosen password, written beside its user, does not: words joined by
# "_" ("feature-ABC_123x", "EMEA-Q3_Report2", "Dashboard_2024"), an item's number at the end
# ("Setup-Guide#3", "Q4-Forecast#2").
_NAMED_THING = re.compile(r".*[A-Za-z\d]_[A-Za-z\d].*|.*[A-Za-z]#\d{1,2}")
# Two names joined by a slash: a plain capitalised word, then words joined by hyphens only
# ("London / Paris-Eurostar9", "Kyiv / Kharkiv-Express12").
_PLAIN_NAME = re.compile(r"[A-Z][a-z]+")
_HYPHENED_NAME = re.compile(r"[A-Za-z\d]+(?:-[A-Za-z\d]+)+")


def _pair(user: str, pw: str) -> bool:
    pw = pw.rstrip(".,;:)(\"'")
    if _NAMED_THING.fullmatch(pw) or (_PLAIN_NAME.fullmatch(user) and _HYPHENED_NAME.fullmatch(pw)):
        return False
    return _chosen(pw)


def _default_of(user: str, pw: str) -> bool:
    pw = pw.rstrip(".,;:)(\"'")
    return (
        _ACCOUNT_USER.fullmatch(user) is not None
        and re.fullmatch(r"(?=[a-z]*\d)(?=\d*[a-z])[a-z\d]{8,32}", pw) is not None
        and not _NOT_A_DEFAULT.match(pw)
    )


# What follows an account's name and a slash and is no password: a system, a version, a page.
_NOT_A_DEFAULT = re.compile(
    r"(?:version|release|build|ubuntu|debian|centos|fedora|alpine|rhel|python|node|java|windows|win|ios|android"
    r"|macos|sqlserver|mssql|mysql|postgres|oracle|chapter|page|section|step|item|room|floor|level|group|team|port"
    r"|vlan|site|server|host)\d",
    re.IGNORECASE,
)


def user_password_pair(text: str) -> bool:
    if "/" in text:
        for m in _SPACED_PAIR.finditer(text):
            user, pw = m.group("user"), m.group("pw")
            if pw.lower().startswith(user.lower()):
                continue  # "FritzBox / FritzBox_Guest5": a network and its guest network
            if _USER.fullmatch(user) and not user.isdigit() and (_pair(user, pw) or _default_of(user, pw)):
                return True
            if "@" in user and _mailbox_password(pw):
                return True  # ("caretaker@greenmead / cctvCaretaker1": a mailbox's login)
    if ":" in text or "/" in text:
        # (an account every system has with a default nobody changed: "admin:admin123 still works")
        return any(_account_pair(m) for m in _COLON_PAIR.finditer(text))
    return False


def _account_pair(m: re.Match[str]) -> bool:
    user, pw = m.group("user"), m.group("pw")
    if m.group("join") == "/":
        return _pair(user, pw) and not _PASSWORD_SYMBOLS.isdisjoint(pw.rstrip(".,;:)(\"'"))
    return _pair(user, pw) or _default_of(user, pw)


def _mailbox_password(pw: str) -> bool:
    """After an e-mail address and a slash, letters and digits in mixed case are its password
    even when they read like a product's name ("cctvCaretaker1"), not a date or a number."""
    pw = pw.rstrip(".,;:)(\"'")
    return (
        len(pw) >= 8
        and any(c.isdigit() for c in pw)
        and any(c.islower() for c in pw)
        and any(c.isupper() for c in pw)
        and "." not in pw
    )


_IN_BRACKETS = re.compile(
    PASSWORD_WORD + r"""(?:\s+[^\W\d]+){0,2}?\s*\(\s*(?:(?:currently|now|still|old|new|temp|default|atm)\s*[:=]?\s+)?"""
    r"""["'“«„]?(?P<value>[^\s()"'”»“]{8,40})["'”»“]?\s*\)""",
    re.IGNORECASE,
)


# In brackets after the word, a name of a scheme or a system ("(Okta-SSO2)", "(Win11-Domain)")
# has hyphens at most; a chosen password there has a symbol ("(Tulip#Field42)").
_PASSWORD_SYMBOLS = frozenset("!@#$%^&*~+=?<>|")


def password_in_brackets(text: str) -> bool:
    return "(" in text and any(
        _chosen(m.group("value")) and not _PASSWORD_SYMBOLS.isdisjoint(m.group("value"))
        for m in _IN_BRACKETS.finditer(text)
    )


# A chosen password said to be what someone set or went with for an account, with no
# password word ("Tr0mbone!Sunday was what i set for the church email", '"Quasar#Lime91" is
# what i set for the shared qa account', "i just went with Ravioli!2024 for the school
# portal"): only the look of a chosen password (_chosen) tells it from a version or a name.
_SET_FOR = re.compile(
    r"""(?<![^\s"'“‘])["'“‘]?(?P<value>[^\s"'”’]{8,64})["'”’]?\s+(?:is|was)\s+what\s+(?:i|we|he|she|they|you)\s+"""
    r"""(?:set|use|used|picked|chose|typed|entered|put\s+in|went\s+with)\s+(?:for|as|on)\b"""
    r"""|\b(?:went|go|going|gone)\s+with\s+["'“‘]?(?P<value2>[^\s"'”’]{8,64})["'”’]?\s+(?:for|as|on)\s""",
    re.IGNORECASE,
)


def set_for_an_account(text: str) -> bool:
    """ "went with" is said of a model or a product too ("went with GPT-4o-mini for the
    summaries"): after it, the value needs a password's symbol."""
    return any(
        _chosen(m.group("value"))
        if m.group("value")
        else _chosen(m.group("value2")) and not _PASSWORD_SYMBOLS.isdisjoint(m.group("value2"))
        for m in _SET_FOR.finditer(text)
    )


# A password said to be reset, changed or set to a value ("reset the wifi password to
# Kiwi!Fruit7"), the value quoted or looking like one.
_QUOTED_VALUE = re.compile(r"""^["'“‘`«„]([^"'”’`»“]{3,})["'”’`»“]""")
# (the word may end a question and the value come in the answer's line, "what's my password?"
# / "it was reset to TempPass-88421"; a local admin is reset to its password, "reset local
# admin on kiosk-3 to Kiosk3-Lobby!"; the value may follow what it is, "pw reset to the tag
# one: 3KZQ8M2T")
_NAMED_AS = r"(?:the\s+(?:[\w\-]+\s+){0,2}?(?:one|default|password|pw)\s*[:=]\s*)?"
_SET_TO_RES = (
    keyed(
        PASSWORD_WORD
        + r"(?:[^.\n]|(?<=\?)\n){0,60}?\b(?:reset|changed?|set|updated?)\s+(?:it\s+|them\s+)?to\s+"
        + _NAMED_AS
        + r"(?P<value>\S+)",
        re.IGNORECASE,
    ),
    # (the verb first: tried only where one of its words starts a word)
    keyed(
        r"(?<![\w])(?:reset|changed?|set|updated?)\s+(?:the\s+|my\s+|your\s+|his\s+|her\s+)?(?:[\w\-]+\s+){0,2}?"
        + r"(?:"
        + PASSWORD_WORD
        + r"|(?<![\w])(?:admin|administrator|root)(?:\s+(?:on|for)\s+[\w.\-]+)?)"
        + r"\s+to\s+"
        + _NAMED_AS
        + r"(?P<value>\S+)",
        re.IGNORECASE,
    ),
)


def password_set_to(text: str, *, verb_first: bool = False) -> bool:
    """A password (or an admin's account) reset, changed or set to a value; ``verb_first``:
    only "reset the local admin ... to <value>" (the password's word first is read where one
    of its words is, by the password rules)."""
    patterns = _SET_TO_RES[1:] if verb_first else _SET_TO_RES
    for m in (m for pattern in patterns for m in pattern.finditer(text)):
        value = m.group("value").strip(".,;:!?)(")
        if not pointer(value) and (_QUOTED_VALUE.match(value) or credential_like(value)):
            return True
    return False


# A password asked about by its owner, in their own words ('"is Summer-Puppy-99 strong
# enough?"', "would Tr0mbone!Sunday be a good password"): the question gives it away.
_ASKED_IF_GOOD = keyed(
    r"(?<![\w])(?:is|would|will|isn['’]t)\s+[\"'“‘]?(?P<value>[^\s\"'”’]{8,64})[\"'”’]?\s+(?:be\s+)?(?:a\s+)?"
    r"(?:strong|secure|good|safe|long|ok|okay|fine|decent)\s+(?P<what>enough|password|pw|passphrase)\b",
    re.IGNORECASE,
)
# (asked if "good enough", a model or a phone is asked about too: the text must be about a password)
_ABOUT_A_PASSWORD = re.compile(PASSWORD_WORD, re.IGNORECASE)


# (and in other languages, the password's word in the question: "¿es Perro#Azul2020 una
# contraseña segura?", "ist Sonne!77Berg ein sicheres Passwort?", "est-ce que Chat#Noir88 est un
# mot de passe sûr ?")
_ASKED_IN_OTHER_LANGUAGES = keyed(
    r"(?<![\w])(?:es|est|ist|jest|är|er)\s+[\"'“‘«„]?(?P<value>[^\s\"'”’»]{8,64})[\"'”’»“]?\s+(?:una?\s+|ein\w*\s+|uma?\s+)?"
    r"(?:(?:sicher\w*|gute?s?|starke?s?)\s+)?(?:contrase[ñn]a|clave|mot\s+de\s+passe|passwort|kennwort|senha|password"
    r"|has[łl]o|l[öo]senord|wachtwoord)\b",
    re.IGNORECASE,
)


def asked_if_good(text: str) -> bool:
    asked = (m for pattern in (_ASKED_IF_GOOD, _ASKED_IN_OTHER_LANGUAGES) for m in pattern.finditer(text))
    return any(
        _chosen(m.group("value"))
        and ("what" not in m.groupdict() or m.group("what").lower() != "enough" or _ABOUT_A_PASSWORD.search(text))
        for m in asked
    )


# A wifi's password named before the network's own words, with no preposition, as Vietnamese,
# Indonesian and Tagalog speakers write it in English words ("pass wifi phòng họp:
# phonghop-tang3-88", "password wifi kantor: Kantor#2024").
_WIFI_PASSWORD = keyed(
    r"(?<![\w])(?:pass(?:word)?|pw|pwd|mật\s+khẩu|mk|sandi|kata\s+sandi)\s+(?:wi-?fi|wlan)(?:\s+[^\s:=]+){0,3}?"
    r"\s*[:=]\s*(?P<value>\S{6,64})",
    re.IGNORECASE,
)


def wifi_password_named_first(text: str) -> bool:
    return any(
        credential_like(m.group("value")) and not pointer(m.group("value")) for m in _WIFI_PASSWORD.finditer(text)
    )
