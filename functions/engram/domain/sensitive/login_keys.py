"""A chosen password stored under a key that names only where it is used: a password
manager's entry, a portal, a data room, a government login ([venn_estate_bitwarden]
"Tamarind lighthouse 1962 Venn!", [tax_portal_li] "Li19750923@", [edevlet_kaya]
"Kaya1975.!", [notary_dataroom] "Wm-Q3-harvest-8812"). The key says nothing of a password,
so the value decides: a password's shape, one a user name or a sentence does not have
(letters with digits, and a mark or both cases; or a few words with a digit and a mark).
A key about the login's other parts (the user, the address, the hint) holds those."""

from __future__ import annotations

import re

from engram.domain.sensitive.keys import KEY_SPLIT, key_is_meta
from engram.domain.sensitive.secret_values import pointer

# Where one signs in: password managers, portals, data rooms, web mail, banking, a country's
# government login (Turkey's e-Devlet, the Netherlands' DigiD, Germany's ELSTER, France's
# FranceConnect and impots.gouv, Italy's SPID, Australia's myGov, India's DigiLocker).
_LOGIN_PLACES = frozenset(
    [
        *("bitwarden", "1password", "onepassword", "lastpass", "keepass", "keepassxc", "dashlane", "nordpass"),
        *("roboform", "enpass", "protonpass", "keychain", "portal", "portale", "portail", "dataroom", "webmail"),
        *("login", "logon", "signin", "netbank", "netbanking", "homebanking", "onlinebanking", "edevlet", "devlet"),
        *("digid", "elster", "franceconnect", "impots", "ameli", "spid", "mygov", "mygovid", "digilocker"),
        *("zugang", "acceso", "accesso", "acesso", "giris", "giriş", "inloggen", "logowanie"),
    ]
)
# Keys about the login, not its password.
_ABOUT = frozenset(
    [
        *("user", "username", "usuario", "benutzer", "benutzername", "utilisateur", "email", "mail", "url", "uri"),
        *("link", "site", "website", "address", "handle", "id", "name", "phone", "tel", "number", "no", "nr"),
        *("owner", "who", "where", "host", "server", "port", "status", "expiry", "date", "since", "provider"),
        *("plan", "type", "notes", "note", "hint", "question", "recovery", "kullanici", "kullanıcı", "adi", "adı"),
        # the device, the app or the version one signs in with, and the login's history
        *("device", "browser", "app", "os", "version", "ticket", "migration", "renewal", "log", "history"),
    ]
)
# What a sentence has and a passphrase does not.
_SENTENCE_WORDS = frozenset(
    [
        *("the", "a", "an", "of", "in", "on", "at", "to", "by", "for", "from", "with", "is", "are", "was", "has"),
        *("and", "or", "not", "der", "die", "das", "und", "ist", "le", "la", "les", "de", "du", "et", "el", "y"),
        *("en", "il", "di", "e", "het", "een", "van", "ve", "bir", "ile", "da", "de"),
    ]
)
_MARK = re.compile(r"[!@#$%^&*?+=~<>|\\{}\[\]]")
# A passphrase's word: letters, or a short number, a mark at either end ("Venn!", "1962").
# Not a date, a version, an id or a sum ("2027-03-01!", "2.7.9", "AN01234567890!", "1.240"), and
# no comma, colon or bracket: a note's ("Done 2026-11-03, 214 items #ops") and not a chosen one.
_PASSPHRASE_WORD = re.compile(r"[!@#$%^&*?+=~<>|\-]?(?:[^\W\d_]+|\d{1,4})[!@#$%^&*?+=~<>|\-.]{0,3}")
_WEB = re.compile(r"[:/]|@[\w\-]+\.[A-Za-z]")


def password_under_a_login_key(key: str, text: str) -> bool:
    words = {w.lower() for w in KEY_SPLIT.split(key) if w}
    if not words & _LOGIN_PLACES or words & _ABOUT or key_is_meta(key):
        return False
    value = text.strip()
    if not value or pointer(value) or _WEB.search(value):
        return False
    tokens = value.split()
    if len(tokens) == 1:
        return _chosen_password(value)
    # a passphrase: a few words, a digit and a mark among them, no sentence's little words
    return (
        len(tokens) <= 6
        and any(c.isdigit() for c in value)
        and _MARK.search(value) is not None
        and not {t.strip(".,;:!?").lower() for t in tokens} & _SENTENCE_WORDS
        and all(_PASSPHRASE_WORD.fullmatch(t) for t in tokens)
    )


def _chosen_password(value: str) -> bool:
    letters = any(c.isalpha() for c in value)
    digits = any(c.isdigit() for c in value)
    if not (letters and digits) or len(value) < 6:
        return False
    mixed_case = any(c.isupper() for c in value) and any(c.islower() for c in value)
    return _MARK.search(value) is not None or mixed_case
