"""A code or password its writer says is dead: the old one, said to no longer work or to have
been changed ("old code 0052 won't work anymore", "the wifi password used to be bluebell22 but
we changed it", "PIN was 1234, we changed it at the branch", "القديم ٤٨٢٩ لم يعد يعمل",
"รหัสเก่า Somchai@99 เปลี่ยนไปแล้ว", "Hana!2023seoul 이거 이제 안 돼"), and an access key's id said to
be deactivated. It opens nothing now, so it is masked before the secret rules and the learned
stage read the text.

A value is read as dead in two ways (the words: ``dead_words.py``):
- the text marks it as the old or past one ("old", "previous", "used to be", "was", "पुराना",
  "เก่า", "旧") and says, later in the same clause, that it was changed or stopped working;
- it is said to stop working right after it ("(2 2 8 0) was replaced", "Hana!2023seoul 이거
  이제 안 돼"): not "changed" alone there, as a value given as it is now and then "changed it
  yesterday" is the new one.

What stays a secret: an old value with no word of its death ("the old code 1234 still works"),
one only about to change ("will be changed tomorrow", "until we rotate it"), one dead only "if"
it fails ("if 4471 doesn't work, try 4471#"), and any text that gives a new value beside the
old one ("old one 1234 doesn't work, the new code is 5678", "changed it today to 9902"): the
new one is read as before, so nothing is masked there."""

from __future__ import annotations

import re
import unicodedata

from engram.domain.sensitive.alternatives import Alternatives, alternatives
from engram.domain.sensitive.dead_words import (
    CHANGED,
    CHANGED_VERBS,
    DEFAULT,
    DEFAULT_IN_SCRIPT,
    IF,
    NEW,
    NEW_IN_SCRIPT,
    NO_LONGER,
    OLD_BEFORE,
    OLD_IN_SCRIPT,
    PUBLIC_DEFAULT,
    STOPPED,
)
from engram.domain.sensitive.prefilter import keyed

# The value's name between "old" and the value (or "one"), at most four words ("the old
# password for Dad's email was ...", "पुराना पासवर्ड ...", "ਪੁਰਾਣਾ ਗੇਟ ਕੋਡ ...": the vowel signs of
# the Indic scripts are no \w).
_NAME = r"(?:[\w\-'’\u0900-\u0dff\u200c\u200d]+\s+){0,4}?"
# (where it was may come between: "the old wifi password at the stall was ...")
_LONG_NAME = r"(?:[\w\-'’\u0900-\u0dff\u200c\u200d]+\s+){0,6}?"
# A value as given: digits in any script, maybe grouped, or a token with a digit or a symbol;
# after "old" in brackets, a hint of it too ("das alte Passwort (das mit "Sommer" vorne)").
_VALUE = (
    r"(?P<value>\d(?:[\s\-]?\d){2,9}|(?=\S*[\d!@#$%^&*])[^\s()\[\],;:]{4,40}|(?<=\()[^()\n]{1,40}(?=\))"
    r"|(?<=[\"“])[^\s\"”]{3,40}(?=[\"”]))"  # (or quoted: 'was "marketday"')
)
_COPULA = r"(?:is\s+|was\s+|war\s+|era\s+|était\s+|[:=(（]\s*|\(\s*|は\s*|是\s*|는\s*|은\s*)?[\"“]?"
_OLD_VALUE = keyed(r"(?<![\w])(?:" + OLD_BEFORE + r")\s+" + _LONG_NAME + _COPULA + _VALUE, re.IGNORECASE)
# A temporary or first value: dead only when said to no longer work ("I changed the temporary
# password ... right after first login, it's dead"); "reset it" after one tells what to do with it.
_TEMPORARY_VALUE = keyed(
    r"(?<![\w])(?:temporary|temp|initial|provisional|one-time|first)\s+" + _NAME + _COPULA + _VALUE, re.IGNORECASE
)
# Said no longer to be the value, before it ("the gate code is no longer 3319", "ya no es 2819").
_NO_LONGER_VALUE = re.compile(r"(?:" + NO_LONGER + r")\s+(?:the\s+)?[\"“']?" + _VALUE, re.IGNORECASE)
# A death in brackets between the value's name and the value ("digicode (ne marche plus) : 3B812").
_DEAD_ASIDE = re.compile(r"\((?P<aside>[^()\n]{1,80})\)\s*[:=→\-]?\s*[\"“']?" + _VALUE)
# "old" after the name or fused with it ("รหัสเก่า Somchai@99", "旧密码 Wang@2019", "password
# lama saya Budi#2021").
_OLD_VALUE_IN_SCRIPT = re.compile(
    r"(?:(?<![\w])(?:lama|cũ)\b|"
    + OLD_IN_SCRIPT
    + r")[^\s\d:：]{0,8}\s*"
    + _NAME
    # (a short word stuck to the bracket: "예전 거(*1357#)", "旧的那个（4821）")
    + r"(?:[^\s\d(（:：]{1,4}(?=[(（]))?"
    + _COPULA
    + _VALUE,
    re.IGNORECASE,
)
# A product's default ("the default 0000", "a default combination of 0-0-0-0", "默认密码 123456").
_DEFAULT_VALUE = keyed(
    r"(?<![\w])(?:" + DEFAULT + r")\s+" + _LONG_NAME + r"(?:of\s+|is\s+|was\s+|[:=(]\s*)?[\"“]?" + _VALUE, re.IGNORECASE
)
_DEFAULT_VALUE_IN_SCRIPT = re.compile(
    r"(?:" + DEFAULT_IN_SCRIPT + r")[^\s\d:：]{0,8}\s*(?:[^\s\d:：]+\s+){0,3}?[:：是は는은]?\s*" + _VALUE
)
_PUBLIC_DEFAULT = keyed(PUBLIC_DEFAULT, re.IGNORECASE)
# A default named after its value ("pin-code 0000 was the factory default", "SIM PIN 1234 default
# hota hai").
_VALUE_THEN_DEFAULT = keyed(
    r"(?<![\w])"
    + _VALUE
    + r"[\s,)]+(?:(?:is|was|are|were|hai|hota\s+hai|era|é|est|ist|هست)\s+)?(?:the\s+|its\s+|a\s+)?"
    r"(?:factory\s+)?(?:" + DEFAULT + r")",
    re.IGNORECASE,
)
# A conventional default (all one digit, counting up, a product's stock word), with advice to change
# it: what the product ships with, known to anyone ("SIM PIN 1234 default hota hai, badal lena", "PIN
# پیش‌فرض سیم‌کارت ۰۰۰۰ هست، حتما عوضش کنید"); a chosen value or no advice ("the default code on our
# garage keypad is 1234") stays live.
_CONVENTIONAL_VALUE = re.compile(
    r"(\d)(?:\s?\1){3,7}|1\s?2\s?3\s?4(?:5(?:6(?:78?)?)?)?|admin|password|root|guest|changeme|default|user", re.I
)
_CHANGE_IT = keyed(
    r"\bchange\s+it\s+(?:when|before|after|once|on|at|right|as\s+soon)\b|\b(?:please|be\s+sure\s+to|make\s+sure\s+to"
    r"|remember\s+to|always)\s+change\s+it\b|\bbadal\s+(?:lena|lein|lo|lijiye|dena)\b|\bchange\s+kar\s+(?:lena|lo|lein)\b"
    r"|عوضش\s+کنید|عوضش\s+کن\b|تغییرش\s+(?:بدید|بدهید|دهید)|\bbadilisha\b|\bcámbi(?:alo|ala)\b|\bmude-[ao]\b"
    r"|\baltere-[ao]\b|\bchangez-le\b|\bändern\s+Sie\b|\b(?:set|pick|choose)\s+your\s+own\b|\breprogram\s+it\b",
    re.IGNORECASE,
)
_BARE_CHANGE = keyed(r"\b(?:changed|replaced|reset|rotated|retired|swapped)\b", re.IGNORECASE)
_NO_LONGER = alternatives(NO_LONGER, re.IGNORECASE)
# Arabic: the value's name, then "the old one" and the value ("رمز الباب ... القديم ٤٨٢٩").
_OLD_VALUE_ARABIC = re.compile(r"(?:القديم|القديمة|السابق|السابقة)\s*[:(]?\s*(?P<value>[\d٠-٩](?:[\s\-]?[\d٠-٩]){2,9})")
# What it used to be ("used to be bluebell22", "war früher Sonne77", "era antes 4471").
_USED_TO_BE = keyed(
    r"\b(?:used\s+to\s+be|was\s+(?:formerly|originally|previously)|war\s+(?:früher|vorher|bisher)|était\s+avant"
    r"|era\s+antes|costumava\s+ser|solía\s+ser|era\s+prima|was\s+vroeger|eskiden|önceden)\s+[\"'“]?" + _VALUE,
    re.IGNORECASE,
)
# What it was, then changed ("combo was 0491 but I replaced the lock", "PIN was 1234, we changed
# it"): a change only, as "was Welcome1! and he says it doesnt work" may be a live one mistyped.
_WAS = keyed(
    r"\b(?:was|were|war|era|était|foi|fue|был[аио]?|був|була|було|był[ao]?)\s+(?:the\s+)?[\"'“]?" + _VALUE,
    re.IGNORECASE,
)
# Its death, said in the same text (phrases with no common first word: alternatives.py).
_DEAD = alternatives(CHANGED + "|" + STOPPED, re.IGNORECASE)
_CHANGED = alternatives(CHANGED, re.IGNORECASE)
_STOPPED_ONLY = alternatives(STOPPED, re.IGNORECASE)
# Said right after the value: it stopped working, or was replaced ("(2 2 8 0) was replaced").
_STOPPED = alternatives(
    STOPPED + r"|\b(?:has|have|had)\s+been\s+(?:changed|reset|replaced|rotated|revoked|deactivated|disabled|retired)"
    r"|\b(?:was|were|got)\s+(?:[a-z]+-)?(?:" + CHANGED_VERBS + r")\b(?!\s+to\b)"
    r"|\b(?:byttes|ändrades|endredes|ble\s+(?:endret|byttet)|blev\s+(?:ændret|ändrad|byttet)|werd\s+(?:gewijzigd|veranderd)"
    r"|wurde\s+geändert|été\s+changée?|foi\s+(?:trocad|alterad|mudad)[oa]|fue\s+cambiad[oa]|stat[oa]\s+cambiat[oa]"
    r"|został[ao]?\s+zmienion[ya]|değiştirildi)\b"
    # a one-time code used once is spent ("Code 582914 was already used and is no longer valid")
    r"|\b(?:was|is|has\s+been|were)\s+already\s+(?:been\s+)?used\b",
    re.IGNORECASE,
)
# The value right before it, and at most a "this one" and a "now" between ("Hana!2023seoul 이거 이제").
_RIGHT_BEFORE = re.compile(
    r"(?<![^\s(\[\"'“:])(?P<value>\d(?:[\s\-]?\d){2,9}|(?=\S*[\d!@#$%^&*])[^\s()\[\],;:\"'”]{4,40}"
    r"|(?<=[\"“])[^\s\"”]{3,40}(?=[\"”]))"
    r"[\s)\]\"'”’]*(?:[,—–\-]\s*)?(?:(?:this|that|it|which|this\s+one|that\s+one|thing|one|이거|이건|그거|ini|itu|वो|yun|ito)\s+)?"
    r"(?:(?:now|already|anymore|이제|अब|ab|na|sudah|dah)\s+)?\Z",
    re.IGNORECASE,
)
_BEFORE_REACH = 60
# A new value given beside the old one: then nothing is masked.
_NEW_VALUE = keyed(
    r"(?<![\w])(?:" + NEW + r")\s+" + _NAME + r"(?:is\s+|=\s*|:\s*|->\s*|→\s*|now\s+|adalah\s+|ay\s+)?" + _VALUE,
    re.IGNORECASE,
)
_NEW_VALUE_IN_SCRIPT = re.compile(r"(?:" + NEW_IN_SCRIPT + r")[^\s\d]{0,8}\s*[:：是는은]?\s*" + _VALUE)
# A value given after its death: the new one ("they changed it today to 9902").
_VALUE_AFTER = re.compile(r"(?<![\w\-])(?:\d(?:[\s\-]?\d){2,9}|(?=\S*[\d!@#$%^&*])[^\s()\[\],;:]{4,40})", re.IGNORECASE)
_YEAR_OR_TIME = re.compile(r"(?:19|20)\d\d[.,!)]?|\d{1,2}(?:[.:]\d\d)?(?:am|pm|h)?[.,!)]?|\d+(?:st|nd|rd|th)", re.I)
# An access key's id (it grants nothing without its secret) said to be switched off.
_KEY_ID = re.compile(r"(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])")
_KEY_DEAD = keyed(r"\b(?:deactivated|revoked|deleted|disabled|inactive|invalidated|rotated\s+out)\b", re.IGNORECASE)
_RETIRED = " revoked "  # (a word no rule reads as a value: "the password was revoked")
_IF = re.compile(IF, re.IGNORECASE)


def without_dead_values(text: str) -> str:
    """The text with each value said to be dead read as "revoked"."""
    if ("AKIA" in text or "ASIA" in text) and _KEY_ID.search(text) and _KEY_DEAD.search(text):
        text = _KEY_ID.sub(_RETIRED, text)  # "key id AKIA... in the cloudtrail event; key already deactivated"
    # (a death first: its words are few in ordinary text, and most texts are passed over at once)
    if not _a_death_said(text) or _NEW_VALUE.search(text) is not None or _NEW_VALUE_IN_SCRIPT.search(text) is not None:
        return text
    ifs = _IF.search(text) is not None  # (most texts hold no "if": its clause is not read then)
    spans = {m.span("value") for p in _MARKED for m in p.finditer(text) if _said_dead(text, m, _DEAD, ifs)}
    spans |= {m.span("value") for m in _WAS.finditer(text) if _said_dead(text, m, _CHANGED, ifs)}
    temporary = _TEMPORARY_VALUE.finditer(text)
    spans |= {m.span("value") for m in temporary if _said_dead(text, m, _STOPPED_ONLY, ifs, at_once=False)}
    spans |= _dead_before(text, ifs)
    spans |= _stopped_right_after(text, ifs)
    spans |= _public_defaults(text)
    if not spans or _value_after_its_death(text, spans):
        return text
    return _retired(text, spans)


def _a_death_said(text: str) -> bool:
    return any(p.search(text) is not None for p in (_DEAD, _PUBLIC_DEFAULT, _BARE_CHANGE, _NO_LONGER, _CHANGE_IT))


def _retired(text: str, spans: set[tuple[int, int]]) -> str:
    out, at = [], 0
    for start, end in sorted(spans):
        if start >= at:
            if start > 0 and end < len(text) and text[start - 1] in '"“' and text[end] in '"”':
                start, end = start - 1, end + 1  # (a quoted value goes with its quotes: '" revoked "' is a value)
            out += [text[at:start], _RETIRED]
            at = end
    return "".join(out) + text[at:]


_MARKED = (_OLD_VALUE, _OLD_VALUE_IN_SCRIPT, _OLD_VALUE_ARABIC, _USED_TO_BE, _DEFAULT_VALUE, _DEFAULT_VALUE_IN_SCRIPT)


def _public_defaults(text: str) -> set[tuple[int, int]]:
    """A default the text says is the manual's or the factory's, or a conventional one the text
    says to change."""
    public = _PUBLIC_DEFAULT.search(text) is not None
    if not public and _CHANGE_IT.search(text) is None:
        return set()
    found = (m for p in (_DEFAULT_VALUE, _DEFAULT_VALUE_IN_SCRIPT, _VALUE_THEN_DEFAULT) for m in p.finditer(text))
    return {m.span("value") for m in found if public or _conventional(m.group("value"))}


def _conventional(value: str) -> bool:
    # (digits of any script: "۱۲۳۴" is 1234)
    ascii_digits = "".join(str(unicodedata.digit(c)) if c.isdigit() else c for c in value)
    return _CONVENTIONAL_VALUE.fullmatch(ascii_digits) is not None


def _dead_before(text: str, ifs: bool) -> set[tuple[int, int]]:
    """A value its death comes before: said no longer to be it, or in brackets after its name
    that it stopped working ("le code n'est plus 4471", "Türcode (funktioniert nicht mehr): 5521")."""
    # (each starts where a "no longer" phrase does: read from the first one)
    first = _NO_LONGER.search(text)
    said = () if first is None else _NO_LONGER_VALUE.finditer(text, first.start())
    spans = {m.span("value") for m in said if not (ifs and _if_before(text, m.start()))}
    if "(" in text:
        spans |= {
            m.span("value")
            for m in _DEAD_ASIDE.finditer(text)
            if _STOPPED_ONLY.compiled.search(m.group("aside")) and not (ifs and _if_before(text, m.start()))
        }
    return spans


def _stopped_right_after(text: str, ifs: bool) -> set[tuple[int, int]]:
    spans = set()
    for m in _STOPPED.finditer(text):
        before = _RIGHT_BEFORE.search(text, max(0, m.start() - _BEFORE_REACH), m.start())
        if before is not None and not (ifs and _if_before(text, before.start())):
            spans.add(before.span("value"))
    return spans


def _value_after_its_death(text: str, spans: set[tuple[int, int]]) -> bool:
    """A value after the last dead one and its death is a new one given."""
    end = max(e for _, e in spans)
    death = _DEAD.search(text, end)
    rest = text[death.end() if death is not None else end :]
    return any(not _YEAR_OR_TIME.fullmatch(m.group()) for m in _VALUE_AFTER.finditer(rest))


# Its death is said of it: after the value, in the same clause ("old code 0052 won't work
# anymore", "was the installer default and has been changed", "used to be bluebell22 but we
# changed it"). A death said of another value beside it leaves it live ("my old PIN 4471 for the
# debit card; the credit card PIN was changed", "Sonne!77 nutze ich noch, das für die Arbeit
# wurde geändert", "Kestrel#2290 (the NAS one has been replaced)").
_DEATH_REACH = 90
_OTHER_CLAUSE = re.compile(
    r"[;.!?\n(]|\s[-–—]\s(?!\s*(?:changed|replaced|reset|retired|does|doesn|won|no\s+longer)\b)"
    r"|,\s*(?:the|das|die|der|la|le|les|el|los|las|o|a|il|lo|het|de)\s"
    r"|\b(?:still|noch|toujours|todav[íi]a|ainda|ancora|nog|though|although|whereas|while)\b",
    re.IGNORECASE,
)
_NOT = re.compile(
    r"\b(?:nobody|no\s+one|never|not|niemand|nie|jamais|personne|nunca|nadie|mai|nessuno|nooit|aldrig|никто|никогда)\b"
    r"|n['’]t\b",
    re.IGNORECASE,
)
_CLAUSE_START = re.compile(r"[;.!?\n]|,\s")


def _said_dead(text: str, m: re.Match[str], deaths: Alternatives, ifs: bool, *, at_once: bool = True) -> bool:
    at = m.end()
    if ifs and _if_before(text, m.start()):
        return False
    if at_once and _CHANGED_AT_ONCE.match(text, at):
        return True  # ("default 123456 changed on day one", "old code 4410 — CHANGED")
    dead = deaths.search(text, at, at + _DEATH_REACH)
    if dead is None:
        return False
    if _NOT.search(text, max(at, dead.start() - 16), dead.start()):
        return False  # (nor one "nobody ever rotated")
    return _OTHER_CLAUSE.search(text, at, dead.start()) is None


# A change said at once after a value marked old or a default (not "changed to 5678").
_CHANGED_AT_ONCE = re.compile(
    r"[\s\"'”)]*(?:[-–—:,(]\s*)?(?:(?:was|got|is|has\s+been)\s+)?(?:changed|replaced|reset|rotated|retired|swapped)\b"
    r"(?!\s+(?:to|for|with|on\s+purpose)\b)(?!\s*[:=→])",
    re.IGNORECASE,
)


def _if_before(text: str, at: int) -> bool:
    """ "If" opens the clause the value is in: dead only if it fails."""
    starts = [m.end() for m in _CLAUSE_START.finditer(text, max(0, at - 80), at)]
    return _IF.search(text, starts[-1] if starts else max(0, at - 80), at) is not None
