"""A password word followed by what kind of password it is and how it came, as French,
Spanish, Portuguese and Italian say them after the word, not before it ("mot de passe
provisoire reçu par courrier : 83 41 97 02", "contraseña temporal enviada por SMS: ...",
"senha provisória: ...", "password temporanea: ..."), with the password rules' other two
ways of naming it."""

from __future__ import annotations

import re

from engram.domain.sensitive.secret_words import COPULA, FILLER, PASSWORD_WORD

# What French, Spanish, Portuguese and Italian say after the word, not before it: what kind of
# password it is and how it came ("mot de passe provisoire reçu par courrier : 83 41 97 02",
# "contraseña temporal enviada por SMS: ...", "senha provisória: ...", "password temporanea: ...").
_KIND_AFTER = (
    r"(?:\s+(?:provisoire|temporaire|initial|initiale|actuel|actuelle|nouveau|nouvelle|unique|par\s+d[ée]faut"
    r"|temporal|provisional|nueva|nuevo|actual|inicial|por\s+defecto|provis[óo]ria|tempor[áa]ria|nova|atual"
    r"|padr[ãa]o|provvisoria|temporanea|nuova|attuale|iniziale|predefinita))"
    r"(?:\s+(?:re[çc]ue?|envoy[ée]e?|recibid[ao]|enviad[ao]|recebid[ao]|ricevut[ao]|inviat[ao])"
    r"(?:\s+(?:par|por|pelo|pela|per|via|en|no|na|le|la|el|al|au|il|lo)){1,2}\s+[\w\-]+)?"
)
# With a separator the words between may name what it is for ("pw for the laptop is ...");
# without one the value must follow at once ("password hunter2"); after the kind of password
# only a value with a digit or a mark counts ("mot de passe provisoire : voir le courrier" says where).
PASSWORD_RES = (
    re.compile(PASSWORD_WORD + FILLER + r"(?P<sep>\s*(?:" + COPULA + r")\s*)", re.IGNORECASE),
    re.compile(PASSWORD_WORD + r"(?P<sep>\s+)", re.IGNORECASE),
    re.compile(
        PASSWORD_WORD + _KIND_AFTER + r"(?P<sep>\s*(?:" + COPULA + r")\s*)(?=\S*[\d!@#$%^&*~_+=?])", re.IGNORECASE
    ),
)
