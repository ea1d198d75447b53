"""A login told as what happened, with no "is" or ":" after the word: "log in as
m.okafor@mailbox.org with Lagos-Harbour-72", "it let me in with admin/admin123", "login
moth.and.mirror / Mirr0r_Moth#88", "ich hab mich mit lena.k / Fichte!2023 angemeldet". The user
and the password follow the way in, joined by a slash or by "with"; the password has a chosen
password's look, or is a product's default beside its admin user ("admin/admin123").

Not one: a way of logging in named as such ("log in with Google / Apple", "sign in with your
email/password", "logged in as admin with 2FA"), a path or a URL, a ratio or a date.
"""

from __future__ import annotations

import re

from engram.domain.sensitive.credential_pairs import chosen_password
from engram.domain.sensitive.prefilter import keyed
from engram.domain.sensitive.secret_values import credential_like, pointer

_NARRATED = keyed(
    r"(?<![\w])(?:log(?:ged|ging|s)?[\s\-]?in(?:to)?|login|sign(?:ed|ing|s)?[\s\-]?in|let\s+(?:me|us|him|her|them)\s+in"
    r"|got\s+in|einloggen|eingeloggt|angemeldet|anmelden|connect[ée]e?|connecter|entr[ée]|iniciar\s+sesi[óo]n"
    r"|inloggen|ingelogd|zalogowa\w*)(?![\w])"
    r"(?:[^.\n/]{0,40}?\s(?:as|als|comme|como|jako|mit|with|using|avec|con|met|z))?\s+"
    r"(?P<user>[^\s/:,()]{2,64})\s*(?:/|\s(?:with|using|mit|avec|con|met)\s)\s*(?P<pw>[^\s,;()]{4,64})",
    re.IGNORECASE,
)
# A way of logging in, not a password: a provider, a second factor, a slot.
_A_WAY_IN = re.compile(
    r"(?:google|apple|facebook|microsoft|github|gitlab|sso|saml|oauth|okta|2fa|mfa|otp|passkey|password|passwort"
    r"|passwords?|pass|pw|pin|email|e-mail|username|user|phone|sms|face\s?id|touch\s?id|fingerprint|key|token|cookies?)"
    r"[.,;:!?]*",
    re.IGNORECASE,
)
# A product's default admin password beside its user ("admin/admin123", "root/toor", "admin/password1").
_DEFAULT_PAIR_USERS = frozenset(["admin", "administrator", "root", "user", "guest", "sa", "pi", "ubnt"])


def narrated_login(text: str) -> bool:
    for m in _NARRATED.finditer(text):
        user, pw = m.group("user"), m.group("pw").rstrip(".,;:!?)\"'")
        if _A_WAY_IN.fullmatch(pw) or _A_WAY_IN.fullmatch(user) or pointer(user) or pointer(pw):
            continue
        if user.isdigit() and pw.isdigit():
            continue  # (a ratio or a date)
        if chosen_password(pw) or (credential_like(pw) and not pw.isalpha()):
            return True
        if user.lower() in _DEFAULT_PAIR_USERS and any(c.isdigit() for c in pw):
            return True
    return False
