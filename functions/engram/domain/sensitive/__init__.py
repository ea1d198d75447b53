"""Sensitive-data filter (behaviour item 9): what Engram refuses to remember.

Four categories, each a stable rule name: ``secret`` (passwords, PINs and access codes,
API keys and tokens, recovery phrases, security answers), ``payment_card``,
``government_id`` (SSN/ITIN/EIN, passports, driving licences, tax and national ids) and
``bank_account`` (IBAN, account, routing and sort-code numbers). An explicit write that
trips one gets a 422 naming it; extraction drops the fact and counts it; conversation
messages keep their text with the match redacted (docs/security.md lists every path).

How it decides, and why this way: a number alone says little (a 16-digit run may be a
card, an IMEI, a tracking number), so numbers are checked by shape and checksum
(card brand prefixes and lengths plus Luhn, IBAN country length plus mod-97, SSN
area rules, Spanish DNI and Brazilian CPF check digits), and by the words before them
("passport no.", "routing", "imei", "order"). Words alone say little too ("my pin is in
my wallet", "the secret is out"), so a secret needs a value that looks like one after
its keyword. Tokens are matched against the credential formats providers document,
with an entropy fallback for unknown shapes. When no rule fires, a small learned model
(``learned_model.py``) looks for a value near a word that names it, in phrasings no
rule was written for. Measured on a hand-written development
corpus, a generated held-out part built from other templates and formats, and ordinary
memory text: ``bench/sensitive_corpus.py``; figures in docs/security.md.

Where each family lives (one module per concern):

- ``filter``: the entry points, ``find_sensitive``, ``find_by_rules``, ``reject_sensitive``.
- ``categories``: the four categories and the match reported.
- ``cards``: payment cards.
- ``bank_accounts``: IBANs and account, routing and sort-code numbers.
- ``government_ids``, ``government_id_checks`` and ``national_id_checks``: ids by word and
  form, and by check digit.
- ``secret``: the secret category's dispatch; ``secret_formats`` (a secret by its shape),
  ``secret_settings`` (a setting of code or configuration named by a secret),
  ``passwords`` (a secret named by a word), ``login_pairs`` (a user and a password after
  their word), ``named_codes`` (an access code after its word), ``issued_codes`` (a code an account
  issues, after a longer description), ``password_mentions`` (a password named in
  code or prose that gives none), ``passwords_other_languages``
  (a password named in other languages, where only a credential-looking value counts),
  ``cjk_passwords`` (Chinese, Japanese and Korean password words run into their value), ``codes_other_languages`` and
  ``security_answers_other_languages`` (codes and security answers in other languages),
  ``security_answers``, ``lock_codes``, ``secret_words`` (the words)
  and ``secret_values`` (what a value, a placeholder or a pointer looks like).
- ``keys``: keys that name or hold a sensitive value.
- ``records``: ids and bank accounts in records, JSON, ``key=value`` logs and SQL errors,
  named by their fields' keys.
- ``reading_view``: the one second reading: the text with numbers dictated, spelled out,
  spaced digit by digit, OCR'd, broken over lines or written in another script's digits
  written as ASCII digit groups; the rules and the learned stage read it as well as the text.
- ``one_time_codes`` and ``dictated_codes``: codes sent by text, and codes read out.
- ``no_access``: numbers named as opening nothing (a status or zip code, a board's pin),
  which no key rule and not the learned stage may call a secret.
- ``learned_model``: the learned second stage (weights in ``learned_model.json.gz``).
- ``redaction``: what a kept text (a message, a trace) loses: the narrowest run of words
  the filter flags, widened to its phrase, and nothing the filter still flags.
"""

from engram.domain.sensitive.bank_accounts import iban_valid
from engram.domain.sensitive.cards import luhn_valid
from engram.domain.sensitive.categories import BANK, CARD, GOVERNMENT_ID, SECRET, SensitiveMatch
from engram.domain.sensitive.filter import find_by_rules, find_sensitive, reject_sensitive

__all__ = [
    "BANK",
    "CARD",
    "GOVERNMENT_ID",
    "SECRET",
    "SensitiveMatch",
    "find_by_rules",
    "find_sensitive",
    "iban_valid",
    "luhn_valid",
    "reject_sensitive",
]
