"""A short code read out digit by digit ("kod 5 1 7 3", "PIN ...: vier, null, neun, zwei",
"the alarm 7 2 4 1 ile kapanıyor") after a word for a code or for what it locks. People
spell or space a number out like this when they pass it on to be typed; what decides is
the nearest word before it: a code or a lock ("pin", "kod", "alarm", "keypad", "cofre")
makes it a secret, a word for another kind of number ("order", "phone", "reference",
"passport", "iban") does not. Any number rule that reads the value as a card, an id or an
account runs first."""

from __future__ import annotations

import re

from engram.domain.sensitive.no_access import NAMED_CODE
from engram.domain.sensitive.reading_view import dictated_runs

_CODE = (
    r"pins?|pin-?code|pincode|codes?|codice|c[óo]digo|kod|koden|kode|koder|kodem|kodu|kodunuz|koodi|k[óo]dom|codul|senha"
    r"|пин|пін|пин-?код|пін-?код|код|пароль|heslo|parola|salasana|passord(?:et)?"
    r"|passcode|passwor[dt]|kennwort|contrase[ñn]a|mot\s+de\s+passe|wachtwoord|has[łl]o|l[öo]senord(?:et)?"
    r"|[şs]ifre(?:m|si|niz)?|combination|combo|kombination|combinaison|combinazione|combinaci[óo]n"
    r"|alarm|alarme|alarma|allarme|alarmu|alarmen|keypad|key\s?pad|tastiera|teclado|safe|tresor|coffre|cofre"
    r"|cassaforte|caja\s+fuerte|kluis|sejf\w*|kassaskåp\w*|pengeskab\w*|lock\s?box|key\s?box|key\s+safe"
    r"|schl[üu]ssel(?:kasten|box|tresor)|nyckelsk[åa]p\w*|n[øo]gleboks\w*|skrzynk\w*|cassett\w*|cancello|furtk\w*"
    r"|brama|bramy|gate|padlock|lucchetto|candado|cadeado|cadenas|vorh[äa]ngeschloss|k[łl][óo]dk\w*"
    r"|screen\s+time|unlock|entsperr\w*|digicode|t[üu]rcode"
)
_OTHER_NUMBER = (
    r"order|orders|phone|tel|telephone|mobile|call|calls|ext|fax|reference|ref|tracking|parcel|invoice|ticket"
    r"|booking|reservation|flight|room|bay|level|floor|platform|bus|route|total|price|amount|member|customer"
    r"|policy|case|claim|postcode|zip|user|service|serial|model|version|item|sku|isbn|imei|sendungsnummer"
    r"|bestellung|bestellnummer|telefon|teléfono|tel[ée]fono|t[ée]l[ée]phone|telefone|pedido|commande|ordine"
    r"|bestelling|zam[óo]wienie|sipari[şs]|numer\s+telefonu|referencia|r[ée]f[ée]rence|riferimento"
    r"|ssn|social|passport|licen[cs]e|iban|account|sort|routing|card|tarjeta|karte|carte|nhs|insurance"
    r"|hotline|helpline|support|contact|ruf\w*|anruf\w*|llam\w*|appel\w*|chiam\w*|bel|zadzwo\w*|ring"
    r"|aadhaar|bsn|pesel|tax|vat|fiscale?|steuer\w*|nif|nie|dni|cpf|id|identit\w+"
)
# (a code named as opening nothing, "status code", "area code", counts as another number)
_KEYWORD = re.compile(
    r"(?<![\w])(?:(?P<other_code>"
    + NAMED_CODE
    + r")|(?P<code>"
    + _CODE
    + r")|(?P<other>"
    + _OTHER_NUMBER
    + r"))(?![\w])",
    re.I,
)
_UNIT_AFTER = re.compile(
    r"\s*(?:mg|kg|g|ml|l|cm|mm|km|m|%|€|\$|£|usd|eur|gbp|cents?|euros?|dollars?|pounds?|years?|days?|hours?"
    r"|minutes?|min|times|people|pm|am|h|uhr|percent)\b",
    re.IGNORECASE,
)
# How a code was passed on, not what the number is ("am Telefon gesagt", "on the phone").
_MANNER = re.compile(
    r"(?<![\w])(?:on|over|by|via|am|per|al|au|por|przez|pelo|ao|at|through)\s+(?:the\s+)?"
    r"(?:phone|telefon\w*|tel[ée]fono|t[ée]l[ée]phone|telefoon)(?![\w])",
    re.IGNORECASE,
)
_LOOK_BACK = 100


def dictated_code(text: str) -> bool:
    for start, end, digits in dictated_runs(text):
        if not 3 <= digits <= 8 or _UNIT_AFTER.match(text, end):
            continue
        before = _MANNER.sub(" ", text[max(0, start - _LOOK_BACK) : start])
        words = _KEYWORD.findall(before)
        if words and words[-1][1]:  # the nearest word names a code, not another number
            return True
    return False
