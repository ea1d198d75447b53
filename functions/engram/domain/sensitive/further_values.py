"""A password's value further on in its clause, after words that describe it ("my password
is the same as my bank one: Rosebud!9"): what else such a clause holds that is not the value
(a hash, a ticket, a keeper, a mailbox, whose password it is)."""

from __future__ import annotations

import re

from engram.domain.sensitive.password_mentions import ABBREVIATION_CASE
from engram.domain.sensitive.prefilter import answered_once
from engram.domain.sensitive.secret_values import credential_like, pointer
from engram.domain.sensitive.secret_words import NETWORK_NAMED, NOT_A_VALUE

# The copula right after the word ("contraseña está guardada ..."): the form with its
# copula is read by the other pattern.
COPULAS = frozenset(
    [
        *("is", "was", "are", "ist", "est", "es", "é", "è", "är", "to", "je", "jest", "está", "esta", "estaba"),
        *("είναι", "ειναι"),
    ]
)
_TICKET = re.compile(r"[A-Z]{2,6}-\d{2,7}")
# A mailbox: an e-mail address, or its name cut at the "@" as offices write a shared one
# ("info@", "faktury@"): whose password it is, never the password.
MAIL_ADDRESS = re.compile(r"(?<![\w.+\-])[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+")
_HANDLE = re.compile(r"[\w.+\-]+@")
_KEEPERS = frozenset(["1password", "bitwarden", "lastpass", "keepass", "keychain", "vault", "kluis", "dashlane"])
_CALL = re.compile(r"[A-Za-z_][\w.]*\(")  # code: "await getPassword();"
_SHORT_HEX_ID = re.compile(r"(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,15}")
_HEX_RUN = re.compile(r"(?:sha\d*:)?[0-9a-fA-F]{16,}")


def value_further_on(words: list[str], before: str = "") -> bool:
    """ "my password is the same as my bank one: Rosebud!9", "... is my dog's name so rex99".
    A commit hash, a digest or a short hex id further on is not the password, nor a
    key=value pair of a log line ("password refreshed for user_id=12262"). ``before`` is the
    word before ``words``. (Asked once a filter run for the same words: 96,000 characters
    of "the password is" asked it for every password word.)"""
    return answered_once("value_further_on", (tuple(words), before), lambda: _value_further_on(words, before))


def _value_further_on(words: list[str], before: str) -> bool:
    network = NETWORK_NAMED.search(" ".join(words))
    if network is not None:
        words = " ".join(words)[: network.start()].split()  # a network's name follows, not the password
    for i, w in enumerate(words):
        bare = w.strip(".,;:!?)(\"'")
        if re.match(r"--\w", w):
            return False  # a command's options follow ("secret-id prod/db/password --query SecretString")
        if bare.lower() in _KEEPERS:
            return False  # "het wachtwoord staat in de kluis van 1Password": where it is kept
        if re.search(r'"\s*[,:}\]]', w):
            return False  # the JSON string that held the word ends ('(reset pw if needed)","at":...')
        if (
            "=" in w
            or ABBREVIATION_CASE.fullmatch(bare)
            or _HEX_RUN.fullmatch(bare)
            or _SHORT_HEX_ID.fullmatch(bare)
            or _CALL.match(w)
            or pointer(bare)
        ):
            continue
        if bare.lower() in NOT_A_VALUE:
            continue  # "el password bta3 el wifi 3ala el router", "sent via WhatsApp"
        if _TICKET.fullmatch(bare):
            continue  # "rotated the password (incident INC-2291)": a ticket, not the password
        if _HANDLE.fullmatch(bare):
            continue  # whose password it is: "das Passwort für das Postfach buchhaltung@ wurde zurückgesetzt"
        if _whose_before_a_copula(words, i, before):
            continue  # "le mot de passe de FranceConnect est dans mon gestionnaire": FranceConnect's
        if credential_like(w):
            return True
    return False


# "of" and "for" of the languages the password words are in: the word after them names whose
# password it is.
_OF_FOR = frozenset(
    [
        *("of", "for", "de", "du", "des", "für", "fur", "van", "voor", "del", "do", "da", "di", "för", "til", "dla"),
        *("na", "vom", "von", "від", "для", "от", "untuk", "ng"),
    ]
)
# What happened to whose password it is, said right after the name ("the password for WS-ACCT-07
# expired and rotated", "пароль від Приват24 змінив", "Passwort vom Admin-Konto ist geändert").
_WHAT_HAPPENED = re.compile(
    r"(?:expired|expires|changed|reset|rotated|updated|locked|blocked|disabled|revoked|removed|deleted|renewed"
    r"|abgelaufen|geändert|gesperrt|zurückgesetzt|expiré|changé|réinitialisé|caducó|cambiado|expirou|alterad[ao]"
    r"|змінив|змінила|змінено|поміняв|изменил|изменён|сменил|поменял|истёк|заблокирован|diganti|ditukar|tukar"
    # (expired, changed or blocked in more languages: "hasło do USOSweb wygasło", "wachtwoord van X is verlopen")
    r"|wygasło|wygasł[ao]?|zmienione|zablokowane|vypršelo|vypršel[ao]?|verlopen|gewijzigd|geblokkeerd|scadut[ao]"
    r"|cambiat[ao]|bloccat[ao]|vencid[ao]|venceu|caducad[ao]|expirad[ao]|bloquead[ao]|kadaluarsa|kedaluwarsa"
    r"|vanhentunut|vanhentui|lejárt|utløpt|udløbet|upphört|doldu|hết\s+hạn|منتهي|انتهت|expiré|expirée|bloqué|bloquée)\b",
    re.IGNORECASE,
)


def _whose_before_a_copula(words: list[str], i: int, first: str) -> bool:
    """The word after "of" or "for" and before the copula is whose password it is, the
    subject of the sentence ("das Passwort für MyFritz2 ist abgelaufen"), not its value."""
    before = (words[i - 1] if i else first).lower()
    after = words[i + 1].lower() if i + 1 < len(words) else ""
    # (or an aside in brackets: "das alte Passwort vom Admin-Konto (das mit ... vorne) ist geändert")
    said = after.strip(".,;:!?") in COPULAS or _WHAT_HAPPENED.match(after) is not None or after.startswith("(")
    return before in _OF_FOR and said
