"""A password manager's or a browser's export as CSV: a header row naming a password column,
then rows; a row that holds a value in that column holds a password ('"name","url","username",
"password"' then '"GitHub","https://github.com","mira","Tulip#Field42"'). An empty, masked or
hidden cell holds none ('"********"', '"(hidden)"', '""'), and the header alone names columns."""

from __future__ import annotations

import csv
import re

from engram.domain.sensitive.secret_values import pointer

_PASSWORD_COLUMN = re.compile(r"password|passwort|passwd|pwd|pass|contraseña|senha|mot de passe|wachtwoord", re.I)
# A column named for a password, also under its login's prefix (Bitwarden's "login_password").
_COLUMN = re.compile(r"(?:login[_ ])?(?:" + _PASSWORD_COLUMN.pattern + ")", re.I)
# A bare "pass" column is a result's or a travel pass's ("student,score,pass"), a password's
# only beside whose login it is ("user,pass").
_LOGIN_COLUMN = re.compile(r"(?:login[_ ])?(?:user(?:name)?|login|e-?mail|url|uri|site|website|account)", re.I)
_MAX_ROWS = 200
_MAX_HEADERS = 20


def exported_password(text: str) -> bool:
    lines = text.strip().splitlines()
    at, headers = 0, 0
    while at < len(lines) - 1 and headers < _MAX_HEADERS:
        line = lines[at]
        at += 1
        if "," not in line or _PASSWORD_COLUMN.search(line) is None:
            continue
        headers += 1
        header = [c.strip().lower() for c in next(csv.reader([line]))]
        columns = [i for i, name in enumerate(header) if _password_column(name, header)]
        if not columns or len(header) < 2:
            continue
        for row in csv.reader(lines[at : at + _MAX_ROWS]):
            if len(row) != len(header):
                break  # the table ended
            at += 1  # (a row is read once, never again as a header)
            if any(_a_password(row[i]) and row[i].strip().lower() != header[i] for i in columns):
                return True
    return False


def _password_column(name: str, header: list[str]) -> bool:
    if _COLUMN.fullmatch(name) is None:
        return False
    return name != "pass" or any(_LOGIN_COLUMN.fullmatch(other) for other in header)


def _a_password(cell: str) -> bool:
    value = cell.strip()
    if len(value) < 4 or pointer(value) or _PASSWORD_COLUMN.fullmatch(value) is not None:
        return False  # (a header written again is no row)
    return value.lower() not in ("null", "none", "hidden", "n/a")
