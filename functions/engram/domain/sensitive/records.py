"""Ids and bank accounts in records: JSON, YAML and object fields, ``key=value`` logs and SQL
errors. A field's key names its value the way a key given with a value does
(``"passport_no": "561208834"``, ``tax_id=499151931``, ``Key (ssn)=(512447781)``); a
generic field ("number") takes its name from the object it is in or from that object's
type (``"driver_license": {"number": ...}``, ``{"type": "drivers_license", "number": ...}``).
The value must look like one: an id's shape, an account's digits, nothing masked."""

from __future__ import annotations

import re
from collections.abc import Iterator

from engram.domain.sensitive.bank_account_forms import branch_code_alone
from engram.domain.sensitive.branch_codes import only_branch_codes
from engram.domain.sensitive.categories import BANK, GOVERNMENT_ID
from engram.domain.sensitive.government_ids import company_numbers, id_like
from engram.domain.sensitive.keys import RECORD_KEY_WORDS, key_rule, names_id_or_account
from engram.domain.sensitive.national_id_words import companys_form

# A field: a key (quoted or not, dotted paths and camelCase too, a form's "#key"), ":", "="
# or "=>", then a quoted value or a bare one (not the next field: "entry: dfi_acct=...").
_FIELD = re.compile(
    r"(?<![\w.\-])(?P<kq>[\"'`]?)#?(?P<key>[A-Za-z][\w.\-]{0,60})(?P=kq)\s*(?::|=>|=)\s*"
    r"(?:(?P<vq>[\"'])(?P<quoted>[^\"'\n]{1,40})(?P=vq)|(?![A-Za-z][\w.\-]{0,60}(?:=|:\s))(?P<bare>[^\s\"',;&{}\[\]()]{1,40}))"
)
# An XML element ("<passportNumber>X1234567</passportNumber>").
_ELEMENT = re.compile(r"<(?P<key>[A-Za-z][\w.\-:]{0,60})>(?P<value>[^<\n]{1,40})</(?P=key)>")
# A table's rows: markdown, tab-, comma- or semicolon-separated, a header naming the columns.
_SEPARATORS = ("|", "\t", ";", ",")
_MAX_ROWS = 200
# A SQL error's value and column: Postgres ('value "x" for column y', "Key (ssn)=(x)")
# and MySQL ("Duplicate entry 'x' for key 'customers.passport_number'").
_SQL_VALUE = re.compile(
    r"\b(?:value|entry)\s*:?\s*[\"'`(](?P<value>[^\"'`)\n]{1,40})[\"'`)]\s+(?:for|in|of)\s+"
    r"(?:column|field|key|attribute)\s+[\"'`]?(?:\w+\.)*(?P<key>\w{1,60})",
    re.IGNORECASE,
)
_SQL_KEY = re.compile(r"\bKey \((?P<key>[\w, ]{1,80})\)=\((?P<value>[^)\n]{1,80})\)")
# A field whose key says only that it holds a number of the thing around it.
# (not "id": {"account": {"id": 1234567}} is the record's own id)
_GENERIC = frozenset({"number", "no", "num", "nr", "nummer", "numero", "número", "value"})
_PARENT_KEY = re.compile(r"[\"'`]?([A-Za-z][\w.\-]{0,60})[\"'`]?\s*(?::|=>|=)\s*$")
_TYPE_FIELD = re.compile(
    r"[\"'`]?(?:type|kind|document_?type|doc_?type|id_?type)[\"'`]?\s*[:=]\s*[\"'`]?([\w\- ]{1,40})", re.IGNORECASE
)
_REACH = 400
# An ACH (NACHA) entry's receiving account field ("dfi_acct=7710284493", "DFI Account Number").
_NACHA_ACCOUNT = re.compile(r"\bdfi[_\- ]?(?:acct|account)", re.IGNORECASE)
_MASKED = re.compile(r"[*•]|[xX#]{3}")
# camelCase keys ("bankAccountNumber", "nationalId") are one word to the word splitter.
_CAMEL_KEY = re.compile(r"(?:Number|Num|No|Id|License|Licence|Account|Routing|Passport)\b")
# What follows a key's word in a key ("passport_no": , tax_id=).
_KEY_TAIL = re.compile(r"[\w.\-]{0,40}[\"'`]?\s*(?::|=|>)")
_HEADER_TAIL = re.compile(r"[\w.\-]{0,40}[ ]*(?:\||,|\t|;|\n|\)|$)")  # a table's header cell
# A SQL dump's column list: pg_dump's "COPY hr.employees (id, passport_no) FROM stdin;" (its
# rows follow, tab-separated) and "INSERT INTO t (id, iban) VALUES (3, 'IT60...'), (...)".
_COPY_HEADER = re.compile(r"^COPY\s+[\w.\"]+\s*\((?P<columns>[^()\n]{1,400})\)\s*FROM\s+stdin", re.IGNORECASE)
_INSERT = re.compile(
    r"\bINSERT\s+INTO\s+[\w.\"`]+\s*\((?P<columns>[^()\n]{1,400})\)\s*VALUES\s*(?P<rows>(?:\([^()\n]{1,400}\)[\s,]*)+)",
    re.IGNORECASE,
)
_INSERT_ROW = re.compile(r"\(([^()\n]{1,400})\)")


_CARDS_PAN = re.compile(r"(?:card[_\-]?)?pan", re.IGNORECASE)


def record_rule(text: str, words: frozenset[str]) -> str | None:
    """The category of an id or bank-account field in the text, if any."""
    if not _may_hold_a_field(text, words):
        return None
    for key, value in _fields(text, words):
        rule = BANK if _NACHA_ACCOUNT.search(key) else key_rule(key)
        if rule == GOVERNMENT_ID and (_software_licence(key, words) or companys_form(key.lower(), value)):
            continue  # (a software licence's key; "RFC: ABC920315KX9", a company's RFC)
        if rule == GOVERNMENT_ID and _CARDS_PAN.fullmatch(key) and not any(map(str.isalpha, value)):
            continue  # ("pan": "4539 7810 2266 4318": a card's primary account number, not India's PAN)
        if rule == GOVERNMENT_ID and _id_value(value) and not company_numbers(text.replace("_", " ")):
            return rule  # (tax_id_type=eu_vat tax_id_value=DE123456789 company=Acme GmbH: a company's)
        # (a form's "Routing: 021000021" with "Account: (attach voided cheque)": every number a branch code)
        if (
            rule == BANK
            and _account_value(value)
            and not branch_code_alone(text, branch_key=key)
            and not only_branch_codes(text)
        ):
            return rule  # ({"routing_number": "026627852", "account_last4": "8842"}: the bank's number)
    return None


# A record's "license_number" in code is a software licence's unless the text is about
# driving ({"license_number": "ENT-4471-2291-0048", "seats": 50}).
_LICENCE_KEY_WORDS = frozenset({"license", "licence", "lic", "number", "no", "num", "nr", "id", "key"})
_DRIVING_WORDS = frozenset({"driver", "drivers", "driving", "dl", "dmv", "motorist", "permit", "vehicle"})


def _software_licence(key: str, words: frozenset[str]) -> bool:
    parts = {p.lower() for p in re.split(r"[_\-.\s]+|(?<=[a-z])(?=[A-Z])", key) if p}
    return bool(parts & {"license", "licence", "lic"}) and parts <= _LICENCE_KEY_WORDS and not words & _DRIVING_WORDS


def _may_hold_a_field(text: str, words: frozenset[str]) -> bool:
    """Whether a key's word, or a generic field's, is followed by ":" or "=" (reading every
    field of a long message costs more than looking at these few words)."""
    if any(m.start() and text[m.start() - 1].islower() for m in _CAMEL_KEY.finditer(text)):
        return True
    if "dfi" in words and _NACHA_ACCOUNT.search(text):
        return True  # an ACH entry's account field
    if not names_id_or_account(words):
        return False
    if "insert" in words and "values" in words:
        return True  # a SQL INSERT's column list
    lower = text.lower()
    table = "\n" in text
    if "key (" in lower or any(f" {p} {c} " in lower for p in ("for", "in", "of") for c in ("column", "key", "field")):
        return True  # a SQL error's value and column
    for word in (words & RECORD_KEY_WORDS) | (words & _GENERIC):
        at = lower.find(word)
        for _ in range(50):
            if at < 0:
                break
            if _KEY_TAIL.match(lower, at + len(word)) or (table and _HEADER_TAIL.match(lower, at + len(word))):
                return True
            at = lower.find(word, at + 1)
    return False


def _fields(text: str, words: frozenset[str]) -> Iterator[tuple[str, str]]:
    for m in _SQL_VALUE.finditer(text):
        yield m.group("key"), m.group("value")
    for m in _SQL_KEY.finditer(text):
        yield from zip(m.group("key").split(","), m.group("value").split(","), strict=False)
    for m in _FIELD.finditer(text):
        key, value = m.group("key"), m.group("quoted") or m.group("bare")
        last = re.split(r"[_\-.]|(?<=[a-z])(?=[A-Z])", key)[-1].lower()
        if last in _GENERIC:
            key = f"{_context(text, m.start())} {key}"
        yield key, value
    if "<" in text:
        for m in _ELEMENT.finditer(text):
            yield m.group("key"), m.group("value")
    if "\n" in text:
        yield from _table_fields(text, words)
    if "insert" in words and "values" in words:
        yield from _insert_fields(text)


def _insert_fields(text: str) -> Iterator[tuple[str, str]]:
    """Each value of a SQL INSERT under the column it is given for."""
    for m in _INSERT.finditer(text):
        columns = [c.strip().strip('"`') for c in m.group("columns").split(",")]
        for row in _INSERT_ROW.finditer(m.group("rows")):
            values = [v.strip().strip("'\"") for v in row.group(1).split(",")]
            if len(values) == len(columns):
                yield from zip(columns, values, strict=True)


def _table_fields(text: str, words: frozenset[str]) -> Iterator[tuple[str, str]]:
    """Each cell under a header cell that names an id or an account ("name,passport_no"
    then "Ana Lopez,X1234567"; a markdown table; tab-separated rows)."""
    lines = [_as_header(line.strip().strip("|").strip()) for line in text.splitlines()[:_MAX_ROWS] if line.strip()]
    named = [w for w in words & RECORD_KEY_WORDS if len(w) > 2]
    for n, line in enumerate(lines):
        lower = line.lower()
        if not any(word in lower for word in named):
            continue  # (a header names its columns with a key's words)
        for sep in _SEPARATORS:
            cells = [c.strip() for c in line.split(sep)] if sep in line else []
            columns = [i for i, c in enumerate(cells) if len(c) <= 40 and key_rule(c) in (GOVERNMENT_ID, BANK)]
            if not columns:
                continue
            for row in lines[n + 1 :]:
                values = [c.strip() for c in row.split(sep)]
                if len(values) != len(cells):
                    break
                yield from ((cells[i], values[i]) for i in columns)


def _as_header(line: str) -> str:
    """A dump's COPY line as the header of the tab-separated rows under it."""
    copy = _COPY_HEADER.match(line) if line[:4].upper() == "COPY" else None
    return line if copy is None else "\t".join(c.strip().strip('"') for c in copy.group("columns").split(","))


def _context(text: str, at: int) -> str:
    """The key of the object a field is in, and that object's type ("driver_license",
    "document drivers_license")."""
    # (each look is bounded, so a long record costs no more per field)
    start = text.rfind("{", max(0, at - _REACH), at)
    if start < 0 or text.rfind("}", start, at) >= 0:
        return ""
    parent = _PARENT_KEY.search(text, max(0, start - 80), start)
    end = text.find("}", at, at + _REACH)
    kind = _TYPE_FIELD.search(text, start, end if end >= 0 else min(len(text), at + _REACH))
    return " ".join(m.group(1) for m in (parent, kind) if m is not None)


def _id_value(value: str) -> bool:
    value = value.strip()
    return not _MASKED.search(value) and id_like(value)


# An IBAN's check digits are 02 to 98: "DE00123456789012345678" fills a fixture's field.
_NO_IBAN = re.compile(r"[A-Za-z]{2}(?:00|01|99)\d")


def _account_value(value: str) -> bool:
    value = value.strip()
    digits = sum(map(str.isdigit, value))
    letters = sum(map(str.isalpha, value))
    return not _MASKED.search(value) and digits >= 6 and letters <= 2 and not _NO_IBAN.match(value)
