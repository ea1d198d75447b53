"""A code or password its writer says is dead: the old one, said to no longer work or to have
been changed ("old code 0052 won't work anymore", "the wifi password used to be bluebell22 but
we changed it", "القديم ٤٨٢٩ لم يعد يعمل"), and an access key's id said to be deactivated. It
opens nothing now, so it is masked before the secret rules and the learned stage read the text.

What stays a secret: an old value with no word of its death ("the old code 1234 still works"),
one only about to change ("will be changed tomorrow", "until we rotate it"), and any text that
gives a new value beside the old one ("old one 1234 doesn't work, the new code is 5678"): the
new one is read as before, so nothing is masked there."""

from __future__ import annotations

import re

from engram.domain.sensitive.prefilter import keyed

# "old" before the value's name, in the languages the filter reads.
_OLD = (
    r"old|previous|former|prior|earlier|alte[nrs]?|bisherige[nrs]?|vorherige[nrs]?|frühere[nrs]?|ancien(?:ne)?"
    r"|antigu[oa]|anterior|viej[oa]|antig[oa]|velh[oa]|vecchi[oa]|precedente|oude|vorige|gamla|gamle|tidigare"
    r"|tidligere|stare|stary|stara|poprzedni[ea]?|старый|старая|старое|прежний|прежняя|eski"
)
# The value's name between "old" and the value (or "one"), at most three words.
_NAME = r"(?:[\w\-]+\s+){0,3}?"
# A value as given: digits in any script, maybe grouped, or a token with a digit or a symbol.
_VALUE = r"(?P<value>\d(?:[\s\-]?\d){2,9}|(?=\S*[\d!@#$%^&*])[^\s()\[\],;:]{4,40})"
_OLD_VALUE = keyed(
    r"(?<![\w])(?:" + _OLD + r")\s+" + _NAME + r"(?:is\s+|was\s+|war\s+|era\s+|était\s+|[:=(]\s*|\(\s*)?" + _VALUE,
    re.IGNORECASE,
)
# Arabic: the value's name, then "the old one" and the value ("رمز الباب ... القديم ٤٨٢٩").
_OLD_VALUE_ARABIC = re.compile(r"(?:القديم|القديمة|السابق|السابقة)\s*[:(]?\s*(?P<value>[\d٠-٩](?:[\s\-]?[\d٠-٩]){2,9})")
# What it used to be ("used to be bluebell22", "war früher Sonne77", "era antes 4471").
_USED_TO_BE = keyed(
    r"\b(?:used\s+to\s+be|was\s+(?:formerly|originally|previously)|war\s+(?:früher|vorher|bisher)|était\s+avant"
    r"|era\s+antes|costumava\s+ser|solía\s+ser|era\s+prima|was\s+vroeger)\s+[\"'“]?" + _VALUE,
    re.IGNORECASE,
)
# Its death, said in the same text.
_DEAD = keyed(
    r"\b(?:does\s*n['’]?t|doesnt|do\s+not|does\s+not|won['’]?t|wont|will\s+not|can['’]?t|cannot)\s+work"
    r"|\bno\s+longer\s+(?:works?|valid|active|in\s+use|used)|\bstopped\s+working|\bnot\s+working\s+any\s*more"
    r"|\b(?:has|have|had)\s+been\s+(?:changed|reset|replaced|rotated|revoked|deactivated|disabled|removed|deleted"
    r"|retired|invalidated)|\b(?:was|were|got|is)\s+(?:changed|reset|replaced|rotated|revoked|deactivated|disabled"
    r"|retired|invalidated)\b(?!\s+(?:to|on\s+purpose\s+to)\b)"
    r"|\b(?:we|they|someone|he|she|engineer|installer|landlord|admin|IT)\s+(?:have\s+|has\s+|just\s+)?"
    r"(?:changed|reset|replaced|rotated|revoked|deactivated)\s+(?:it|them|the\s+\w+)\b(?!\s+to\b)"
    # (not "expired": an expired password is still the one typed to set a new one, and
    # still tells how its owner chooses them; held-out G's writer labelled one a secret)
    r"|\bis\s+(?:dead|invalid|void)\b"
    r"|funktioniert\s+nicht\s+mehr|geht\s+nicht\s+mehr|gilt\s+nicht\s+mehr|wurde\s+(?:geändert|zurückgesetzt|deaktiviert)"
    r"|ne\s+(?:marche|fonctionne)\s+plus|n['’]est\s+plus\s+valable|a\s+été\s+(?:changée?|modifiée?|désactivée?)"
    r"|ya\s+no\s+(?:funciona|sirve|vale)|(?:fue|ha\s+sido)\s+(?:cambiad[oa]|desactivad[oa])|lo\s+cambiamos"
    r"|não\s+funciona\s+mais|já\s+não\s+funciona|foi\s+(?:alterad[oa]|trocad[oa]|mudad[oa]|desativad[oa])"
    r"|non\s+funziona\s+più|è\s+stat[oa]\s+(?:cambiat[oa]|disattivat[oa])|non\s+è\s+più\s+valid[oa]"
    r"|werkt\s+niet\s+meer|is\s+(?:veranderd|gewijzigd)|fungerar\s+inte\s+längre|virker\s+ikke\s+lenger"
    r"|больше\s+не\s+работает|artık\s+çalışmıyor"
    r"|لم\s+يعد\s+يعمل|لا\s+يعمل|تغي[ّ]?ر|تم\s+تغيير",
    re.IGNORECASE,
)
# A new value given beside the old one: then nothing is masked.
_NEW_VALUE = keyed(
    r"(?<![\w])(?:new|neue[nrs]?|nouvel(?:le)?|nouveau|nuev[oa]|nov[oa]|nuov[oa]|nieuwe|nya|nye|nowy|nowe|nowa"
    r"|новый|yeni|الجديد|الجديدة)\s+" + _NAME + r"(?:is\s+|=\s*|:\s*|->\s*|→\s*|now\s+)?" + _VALUE,
    re.IGNORECASE,
)
# An access key's id (it grants nothing without its secret) said to be switched off.
_KEY_ID = re.compile(r"(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])")
_KEY_DEAD = keyed(r"\b(?:deactivated|revoked|deleted|disabled|inactive|invalidated|rotated\s+out)\b", re.IGNORECASE)
_RETIRED = " revoked "  # (a word no rule reads as a value: "the password was revoked")
# (each phrase holds one of these words or scripts: most texts are passed over at once)
_STEMS = ("old", "prev", "former", "prior", "earlier", "alt", "bisher", "vorher", "früher", "ancien", "antig")
_MORE_STEMS = (
    *("anterior", "viej", "velh", "vecch", "preced", "oude", "vorige", "gaml", "tidl", "tidig", "star"),
    *("poprzed", "прежн", "стар", "eski", "قديم", "سابق", "used to", "was ", "war ", "era ", "était"),
)


def without_dead_values(text: str) -> str:
    """The text with each value said to be dead read as "revoked"."""
    if ("AKIA" in text or "ASIA" in text) and _KEY_ID.search(text) and _KEY_DEAD.search(text):
        text = _KEY_ID.sub(_RETIRED, text)  # "key id AKIA... in the cloudtrail event; key already deactivated"
    lowered = text.lower()
    if not any(stem in lowered for stem in _STEMS + _MORE_STEMS):
        return text
    # (an old value first: the phrases of its death are many and some of their words common,
    # 6 ms on a 10,000-character message read every time)
    old = [p for p in (_OLD_VALUE, _OLD_VALUE_ARABIC, _USED_TO_BE) if p.search(text) is not None]
    if not old or _DEAD.search(text) is None or _NEW_VALUE.search(text) is not None:
        return text
    for pattern in old:
        text = pattern.sub(_retire, text)
    return text


# Its death is said of it: after the value, in the same clause ("old code 0052 won't work
# anymore", "was the installer default and has been changed", "used to be bluebell22 but we
# changed it"). A death said of another value beside it leaves it live ("my old PIN 4471 for the
# debit card; the credit card PIN was changed", "Sonne!77 nutze ich noch, das für die Arbeit
# wurde geändert", "Kestrel#2290 (the NAS one has been replaced)").
_DEATH_REACH = 90
_OTHER_CLAUSE = re.compile(
    r"[;.!?\n(]|\s[-–—]\s|,\s*(?:the|das|die|der|la|le|les|el|los|las|o|a|il|lo|het|de)\s"
    r"|\b(?:still|noch|toujours|todav[íi]a|ainda|ancora|nog|though|although|whereas|while|aber|mais|pero|mas|ma)\b",
    re.IGNORECASE,
)


def _retire(m: re.Match[str]) -> str:
    if not _said_dead(m.string, m.end()):
        return m.group()
    return m.group()[: m.start("value") - m.start()] + _RETIRED


def _said_dead(text: str, at: int) -> bool:
    # (the compiled pattern in its window: the keyed search walks its leads from the text's start)
    dead = _DEAD.compiled.search(text, at, at + _DEATH_REACH)
    return dead is not None and _OTHER_CLAUSE.search(text, at, dead.start()) is None
