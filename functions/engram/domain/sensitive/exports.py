"""A password manager's or a browser's export as CSV: a header row naming a password column,
then rows; a row that holds a value in that column holds a password ('"name","url","username",
"password"' then '"GitHub","https://github.com","mira","Tulip#Field42"'). An empty, masked or
hidden cell holds none ('"********"', '"(hidden)"', '""'), and the header alone names columns.
A markdown table is read the same way ('| system | user | password |'), and so is a column of
a lock's codes ('staff_id,name,door_code' then '07,Tom,4420'), whose cells must be codes. One
line of an export with no header, a site's address, its user and a chosen password
('https://portal.example.gov | dwhitcombe | Tr0ub4dor&Lamp'), is a password too."""

from __future__ import annotations

import csv
import re

from engram.domain.sensitive.credential_pairs import chosen_password
from engram.domain.sensitive.keys import POINTER_VALUE
from engram.domain.sensitive.secret_values import pointer

_PASSWORD_COLUMN = re.compile(r"password|passwort|passwd|pwd|pass|contraseña|senha|mot de passe|wachtwoord", re.I)
# A column named for a password, also under its login's prefix (Bitwarden's "login_password").
_COLUMN = re.compile(r"(?:login[_ ])?(?:" + _PASSWORD_COLUMN.pattern + ")", re.I)
# A bare "pass" column is a result's or a travel pass's ("student,score,pass"), a password's
# only beside whose login it is ("user,pass").
_LOGIN_COLUMN = re.compile(r"(?:login[_ ])?(?:user(?:name)?|login|e-?mail|url|uri|site|website|account)", re.I)
# A column of a lock's or a keypad's codes, or of PINs ("door_code", "alarm pin", "keysafe").
# A column named only for the thing holds its number, not its code: a building's, a locker's,
# a garage's, a ledger's entry, an alarm clock's time ("name,building,street,postcode" then
# "Tom,1042,Mill Lane,SW1A 1AA"; "student,locker,homeroom"; "day,alarm" then "Mon,0630").
_CODE_COLUMN = re.compile(
    r"(?:door|gate|alarm|safe|lock|keypad|keysafe|key_safe|lockbox|locker|garage|entry|building|alarm_panel)"
    r"[_ \-]?(?:code|pin|combo|combination)|keypad|keysafe|key_safe|lockbox|lock"
    r"|(?:pin|pin[_ \-]?code|passcode|entry[_ \-]?code|access[_ \-]?code)",
    re.I,
)
_HEADER_WORD = re.compile(_PASSWORD_COLUMN.pattern + r"|code|pin|safe|combo|combination|lock", re.I)
_CODE_CELL = re.compile(r"[#*]?\d{4,8}[#*]?")
_MAX_ROWS = 200
_MAX_HEADERS = 20
_RULE_ROW = re.compile(r"\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?")


def _cells(line: str) -> list[str]:
    """A row's cells: a markdown table's between its pipes, a CSV's as CSV reads them."""
    if "|" in line:
        inner = line.strip()
        inner = inner[1:] if inner.startswith("|") else inner
        inner = inner[:-1] if inner.endswith("|") else inner
        return inner.split("|")
    return next(csv.reader([line]), [])


def exported_password(text: str) -> bool:
    lines = [line for line in text.strip().splitlines() if not _RULE_ROW.fullmatch(line.strip())]
    at, headers = 0, 0
    while at < len(lines) - 1 and headers < _MAX_HEADERS:
        line = lines[at]
        at += 1
        if ("," not in line and "|" not in line) or _HEADER_WORD.search(line) is None:
            continue
        headers += 1
        header = _selected(line) or [c.strip().lower() for c in _cells(line)]
        columns = [i for i, name in enumerate(header) if _password_column(name, header)]
        codes = [i for i, name in enumerate(header) if _CODE_COLUMN.fullmatch(name)]
        if not (columns or codes) or len(header) < 2:
            continue
        for row in map(_cells, lines[at : at + _MAX_ROWS]):
            if len(row) != len(header):
                break  # the table ended
            at += 1  # (a row is read once, never again as a header)
            if _holds_one(row, header, columns, codes):
                return True
    return False


# A query's columns, when its result follows as rows (sqlite's "admin|Bramble-Gate-7", a CSV
# export's lines): "SELECT username, password FROM users" names the columns of what follows.
_SELECT = re.compile(r"\bselect\s+(?P<columns>[\w.\s,`\"\[\]]{1,200}?)\s+from\b", re.IGNORECASE)


def _selected(line: str) -> list[str] | None:
    m = _SELECT.search(line)
    if m is None:
        return None
    return [re.split(r"[\s.]", c.strip(' `"[]'))[-1].lower() for c in m.group("columns").split(",")]


def _holds_one(row: list[str], header: list[str], columns: list[int], codes: list[int]) -> bool:
    if any(_a_password(row[i]) and row[i].strip().lower() != header[i] for i in columns):
        return True
    return any(_CODE_CELL.fullmatch(row[i].strip()) and len(set(row[i].strip())) > 1 for i in codes)


# One line of an export: a site's address, its user and its password, set apart by pipes,
# tabs or semicolons ("https://portal.cityutilities.gov | dwhitcombe | Tr0ub4dor&Lamp"), or a
# browser's saved login copied by hand, the site's name without its scheme and dashes between
# ("hospitalrota.nhs.uk - staff.nurse4 - Rota#Nurse4Pass").
_EXPORT_LINE = re.compile(
    r"https?://[^\s|;\t]+[ \t]*([|;\t])[ \t]*(?P<user>[^\s|;\t]{2,64})[ \t]*\1[ \t]*"
    r"(?P<pw>[^\s|;\t]{8,64})(?![^\s|;\t])"
)
_SITE_LINE = re.compile(
    r"(?<![\w.@/\-])(?:[a-z\d][\w\-]*\.)+[a-z]{2,}(?:/[^\s|;\t]*)?(?P<sep>[ \t]*[|;\t][ \t]*|[ \t]+[\-–—][ \t]+)"
    r"(?P<user>[^\s|;\t]{2,64})(?P=sep)(?P<pw>[^\s|;\t]{8,64})(?![^\s|;\t])",
    re.IGNORECASE,
)


def exported_line(text: str) -> bool:
    lines = _EXPORT_LINE.finditer(text) if "://" in text else iter(())
    sites = _SITE_LINE.finditer(text) if _SITE_SEPARATOR.search(text) else iter(())
    return any(
        chosen_password(m.group("pw"))
        and "://" not in m.group("pw")
        and not pointer(m.group("pw"))
        and (found is lines or _a_sites_login(m.group("user"), m.group("pw")))
        for found in (lines, sites)
        for m in found
    )


# Without a scheme, "site | word | Word-2024" is as often a table's row or a page's title
# ("| docs.company.com | Confluence | HR-Onboarding-2024 |", "bbc.co.uk - news - Brexit2024Update",
# "api.staging.io | passed | 1204/1204-tests"): the user must read as a login (a dot, a digit,
# "@" or "_" in it, "staff.nurse4") or the password hold a password's symbol ("Tr0ub4dor&3").
_LOGIN_MARK = re.compile(r"[.\d@_]")
_PASSWORD_MARK = re.compile(r"[!@#$%^&*~+=?<>]")


def _a_sites_login(user: str, pw: str) -> bool:
    if "/" in pw:
        return False  # (a count of results or a path: "1204/1204-tests")
    return _LOGIN_MARK.search(user) is not None or _PASSWORD_MARK.search(pw) is not None


# (a site's name, a separator and more after it: most text holds none, and is not read for sites)
_SITE_SEPARATOR = re.compile(r"\.[a-z]{2,}(?:/\S*)?[ \t]*[|;\t\-–—]", re.IGNORECASE)


def _password_column(name: str, header: list[str]) -> bool:
    if _COLUMN.fullmatch(name) is None:
        return False
    return name != "pass" or any(_LOGIN_COLUMN.fullmatch(other) for other in header)


def _a_password(cell: str) -> bool:
    value = cell.strip()
    if len(value) < 4 or pointer(value) or _PASSWORD_COLUMN.fullmatch(value) is not None:
        return False  # (a header written again is no row)
    if POINTER_VALUE.match(value) or (value.count(" ") >= 2 and not any(c.isdigit() for c in value)):
        return False  # (a note in the cell: "ask Tom", "set on first login")
    return value.lower() not in ("null", "none", "hidden", "n/a")


# A list of codes under a heading that names them ("Door codes:" then "- Flat 1: 4471", one a
# line): each line's label says whose, the heading what.
_CODES_HEADING = re.compile(
    r"^[ \t#*]*(?:[\w'’]+[ \t]+){0,3}?(?:door|gate|alarm|keypad|lock|lockbox|keysafe|key[ \t]+safe|safe|locker|entry"
    r"|access|building|garage|padlock|intercom)[ \t]*(?:codes|pins|combos|combinations)\b[^\n]{0,40}$",
    re.IGNORECASE | re.MULTILINE,
)
_LISTED_CODE = re.compile(
    r"[ \t]*(?:[-*•]|\d{1,2}[.)])?[ \t]*(?P<label>[^:=\n]{1,40}?)[ \t]*[:=][ \t]*(?P<value>[#*]?\d{3,8}#?)[ \t]*"
)
# (nor a plan's step or a period's name: "Gate codes project timeline:" then "- Phase 1: 2024")
_NOT_A_LABEL = re.compile(
    r"updated|changed|since|date|year|count|total|number|how\s+many|last|next|reset"
    r"|phase|step|stage|week|month|quarter|sprint|wave|round|milestone|version|release|\bq[1-4]\b",
    re.I,
)
_LISTED_LINES = 20
_LINE_MAX = 80  # (a line of the list: its label and its code; what is read below a heading stops there)


def listed_codes(text: str) -> bool:
    for heading in _CODES_HEADING.finditer(text):
        below = text[heading.end() + 1 : heading.end() + 1 + _LISTED_LINES * _LINE_MAX]
        for line in below.split("\n", _LISTED_LINES)[:_LISTED_LINES]:
            m = _LISTED_CODE.fullmatch(line)
            if m is None:
                if line.strip():
                    break  # the list ended
                continue
            if not _NOT_A_LABEL.search(m.group("label")) and len(set(m.group("value")) - {"0", "#", "*"}) > 1:
                return True
    return False
