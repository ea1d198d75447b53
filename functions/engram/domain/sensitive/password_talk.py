"""Talk about a password that gives none, read by the password rules (``passwords.py``): a word
saying there is none right before the password's word ("oma heeft geen wachtwoord meer bij
MijnGezondheid.net", "kein Passwort für Moodle2", "there's no password on the Guest_5G
network"), where it is after a verb of place ("Passwort steht auf der Unterseite der
FRITZ!Box", "printed on the sticker"), and what it is made of ("is based on my birthday", "is
tied to my SIM"). A value given after a colon, or further on, still counts: the caller asks."""

from __future__ import annotations

import re

from engram.domain.sensitive.dead_words import CHANGED
from engram.domain.sensitive.secret_values import pointer, quoted_pointer, quoted_reason

# A word saying there is no password, right before its word (a word between: "no wifi password"):
# what follows is whose or where, not a value ("sin contraseña en el WiFi-Cafe2", "ingen kode til
# ..."); a value given after a colon or "=" still counts ("no password: ...").
_NEGATED = re.compile(
    r"(?<![\w])(?:no|geen|kein|keine|keinen|ingen|inget|intet|sin|sem|aucun|aucune|nessuna|nessun|brak|nie\s+ma"
    r"|нет|без|немає|hakuna|tidak\s+ada|tanpa|không\s+có|without|ohne|sans|zonder|utan|uden|uten|senza|bez)"
    r"\s+(?:[^\W\d_][\w\-]*\s+)?$",  # (not "customer no 58821047 pw ...": a number's "no")
    re.IGNORECASE,
)
_NEGATED_REACH = 24
# Verbs saying where a thing is ("steht auf", "printed on", "liegt unter", "está en").
_PLACED = frozenset(
    [
        *("steht", "stehen", "liegt", "liegen", "klebt", "hängt", "staat", "ligt", "står", "ligger", "sitter"),
        *("finns", "findes", "está", "esta", "sta", "trouve", "printed", "written", "stuck", "taped", "located"),
        *("kept", "stored", "saved", "noted", "imprimé", "écrit", "gedruckt", "impresa", "impreso", "escrita"),
    ]
)
# A participle and the word joining it to what the password is made of ("based on", "tied to").
_PARTICIPLE = re.compile(r"[a-z]{2,}ed")
_PARTICIPLE_LINKS = frozenset(["on", "to", "from", "of", "by", "with", "off", "after", "around", "upon"])


def negated(text: str, m: re.Match[str]) -> bool:
    """A word right before the password's word says there is none, and no colon gives one."""
    if m.group("sep").strip() in (":", "="):
        return False
    return _NEGATED.search(text, max(0, m.start() - _NEGATED_REACH), m.start()) is not None


def placed(first: str, then_where: bool) -> bool:
    """A verb of place, then where ("steht auf", "printed on")."""
    return first in _PLACED and then_where


def described(first: str, second: str) -> bool:
    """A participle and its link: what the password is made of ("based on", "tied to")."""
    return second in _PARTICIPLE_LINKS and _PARTICIPLE.fullmatch(first) is not None


def quoted_value(m: re.Match[str], rest: str, quoted: str) -> bool:
    """Whether the quotes right after the password's word hold its value: not a pointer, and,
    with no copula or separator before them, not a reason ('asked me for my password "to add
    me to their team"'; 'my wifi password is "to be or not"' gives it)."""
    if pointer(rest.split()[0] if rest.split() else rest) or quoted_pointer(quoted):
        return False
    return m.group("sep").strip() != "" or not quoted_reason(quoted)


_CHANGE_IN_CLAUSE = re.compile(CHANGED, re.IGNORECASE)
_CLAUSE_END = re.compile(r"[.;\n]|,\s|\s[-–—]\s")
_JOINS = frozenset(["and", "but", "&", "und", "et", "y", "e", "en", "og", "och", "ve", "i", "a"])


def said_changed(first: str, rest: str) -> bool:
    """The clause after the separator is a sentence saying someone changed it: a plain word
    first, three words at least, a change in them; not a value and then "and we changed it"."""
    words = _CLAUSE_END.split(rest, maxsplit=1)[0].split()
    # (a plain word not capitalised: lower case, or a script with no case, "어제 관리실에서 바꿨어")
    if not first.isalpha() or first[:1].isupper() or len(words) < 3 or words[1].lower() in _JOINS:
        return False
    return _CHANGE_IN_CLAUSE.search(" ".join(words[:12])) is not None
