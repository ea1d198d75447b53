"""Ids and accounts from held-out N's misses (23c, session 13), by cause: ids and accounts written
in local scripts and languages (their words for "id number", "passport", "account", a Cyrillic or
Burmese series before the digits, local digits), accounts told by their check digits with no
word (Serbia's 3-13-2, Nigeria's NUBAN beside its bank), and ids kept under a key in a country's
short name. Each family is tested with hand-written variants that are not the corpus's samples,
and with look-alikes (a phone, an order's, an application's or a tracking number, a date) that
must stay what they are."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules

# 1. An id after its word in a local script or language (the word was missing; the digits may be
# the script's own, a series of Cyrillic or Burmese letters may stand first).
_IDS = [
    "বাবার জন্ম নিবন্ধন নম্বর ১৯৮৭২৬৯৩০১৪৪৭৮২১৫ লাগবে পাসপোর্ট অফিসে",  # Bengali birth registration
    "بیٹی کا ب فارم نمبر 35202-8841207-4 داخلے کے لیے",  # Urdu B-form
    "شمېره د تذکرې: ۱۳۹۸-۰۴۰۱-۲۲۹۱۴ د پلار",  # Pashto tazkira
    "تذکره برادرم 1399-0207-55120 برای ثبت نام",  # Dari tazkira
    "आमाको नागरिकता नं. ०४-०२-७५-१२३४७ चाहियो",  # Nepali citizenship, Devanagari digits
    "राहदानी नम्बर 09871234 म्याद सकियो",  # Nepali passport
    "rashtriya parichaya patra no 123-456-7890 bubako",  # Nepali national id card in Latin letters
    "අම්මගේ ගමන් බලපත්‍ර අංකය N6612345 වීසා එකට",  # Sinhala passport
    "அப்பாவின் அடையாள அட்டை எண் 197512345678",  # Tamil identity card
    "मतदार ओळखपत्र क्रमांक ABC1234567 आईचं",  # Marathi voter's card
    "ਮੇਰਾ ਡਰਾਈਵਿੰਗ ਲਾਇਸੈਂਸ D1234-56789-01234 ਹੈ",  # Gurmukhi driving licence
    "ідентифікаційний код батька 3012345678, для банку",  # Ukrainian identification code
    "паспорт бабусі: МК 123456, на пенсію",  # a Cyrillic series before the number
    "мій песель 85010112345 для роботи",  # PESEL in Cyrillic
    "Менинг ЖШШИР рақамим 30506912345678",  # Uzbek personal number in Cyrillic
    "JShShIR raqami: 40101912345674 (onamniki)",  # Uzbek in Latin letters, 14 digits
    "регистрийн дугаар: ТА87052314 ээжийн",  # Mongolia's register number
    "мамын 'ը ՀԾՀ (հանրային ծառ․) 1234567890",  # Armenian social card number, an aside first
    "ბებიას პ/ნ 01001012345 სჭირდება",  # Georgian personal number abbreviated
    "နိုင်ငံကူးလက်မှတ် MA123456 သက်တမ်းကုန်ပြီ",  # Burmese passport
    "ບັດປະຈຳຕົວ 0123456789 ຂອງແມ່",  # Lao identity card
    "Myanmar NRC 7/PaKhaNa(N)123456 for the bank form",  # NRC, Latin letters
    "မှတ်ပုံတင် ၅/မရန(နိုင်)၁၂၃၄၅၆ အဖေ့ဟာ",  # NRC, Burmese letters and digits
    "FİN kodum 7AB2C9D, ərizə üçün",  # Azerbaijani FIN
    "şəxsiyyət vəsiqəsi AA 1234567 anamın",  # Azerbaijani identity card
    "fasfo na: B12345678, don biza",  # Hausa passport
    "inombolo kamazisi kababa ngu-7501015800086",  # Zulu identity book
    "lisensya ng driver ko: A12-34-567890",  # Tagalog driving licence
    "PhilHealth ID ng nanay ko 01-234567890-1",  # Tagalog kin after the id's word
    "mã số thuế cá nhân của tôi 8012345678",  # Vietnamese personal tax code
    "sổ bảo hiểm xã hội số 0123456789 của mẹ",  # Vietnamese social insurance book
    "namba ya NSSF ya mfanyakazi 1234567890",  # Swahili, "of the worker" between
    "PIS/PASEP: 120.12345.67-8 do meu pai",  # Brazil's PIS
]
# The same words before another thing's number, and numbers of the same shapes with no id's word.
_NOT_IDS = [
    "کد رهگیری تذکره ۱۴۰۲-۲۲۸۴۹۱ را پیامک کردند",  # a tazkira's tracking code
    "کد رهگیری گذرنامه 1402-228491",  # a passport's post tracking code
    "নম্বর ০১৭১২৩৪৫৬৭৮ এ ফোন দাও",  # a phone in Bengali digits
    "राहदानी कार्यालयको फोन 01-4416025",  # the passport office's phone
    "регистр 2024 года, строка 15",  # Russian's "register" with a year
    "регистр сведений 12345678",  # ... with digits but no Mongolian series
    "ბანკის ოფისის ტელეფონი 032 2 444 444",  # a Georgian phone
    "order 12/AB(N)123 shipped",  # not an NRC's form
    "FIN 2024-03 report due",  # FIN beside a month
    "the fin on the boat is 30 cm",  # fin, a word
    "sổ tay số 1234567890",  # a notebook's number in Vietnamese
    "PIS do condomínio, protocolo 2024",  # no number of the PIS's form
]
# 2. Accounts in more languages' words, Serbia's account by its check digits, Nigeria's NUBAN
# beside its bank.
_ACCOUNTS = [
    "ਮੇਰਾ ਖਾਤਾ ਨੰਬਰ 12345678901 ਪੰਜਾਬ ਨੈਸ਼ਨਲ ਬੈਂਕ",  # Gurmukhi account number
    "হিসাব নং ১২৩৪৫৬৭৮৯০১২৩, সোনালী ব্যাংক",  # Bengali "account no."
    "இந்தியன் வங்கி கணக்கு 6123 4567 8901",  # Tamil bank account
    "данс 5012345678 Голомт банк, ахынх",  # Mongolian account
    "hashiv 2470012345678901 Ardshinbank, mayrik",  # Armenian in Latin letters
    "Ardshinbank հաշիվ 2470012345678901",  # Armenian account
    "Nabil Bank खाता नं. 4872030156192001, बानेश्वर शाखा",  # a Visa's prefix and Luhn, but a branch named
    "BRAC Bank A/C 4872030156192001, Gulshan branch",
    "asusuna 0123456789 GTBank, don kudin makaranta",  # Hausa "my account"
    "hisob raqami 20208000123456789012 Hamkorbank",  # Uzbek account number
    "uplata na 160-0000004829173-89 do petka",  # Serbian account by its check, no word
    "рачун 160-4829173-89, сврха: чланарина",  # the same, its zeros left out
    "pay Zenith 2218409370 before Friday",  # NUBAN beside its bank
    "0693182751 (Access) for the rent",  # the bank's name after
    "ACLEDA 0100-20-194857-1-7 for my sister",  # Cambodia's bank named
    "ABSA cheque 4071928364 for the deposit",  # a cheque account at a named bank
]
_NOT_ACCOUNTS = [
    "poziv na broj 160-0000004829173-88",  # the Serbian form failing its check
    "order 123-4567890-12 shipped",  # Amazon's order number (3-7-2), failing the check
    "Union 2218409370 members",  # passing NUBAN for another bank, not Union's
    "card a/c 4872030156192001, Gulshan branch, visa debit",  # a card named
    "call Access on 0700 300 0000",  # the bank's line
    "Access 2019 licence, 0123456789 seats",  # no bank named beside a checked number
    "கணக்கு 25 + 17 = 42",  # Tamil "sum": too few digits
    "данс 12 сар",  # too few digits
]


@pytest.mark.parametrize("text", _IDS)
def test_an_id_after_its_word_in_a_local_script_is_found(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "government_id", text


@pytest.mark.parametrize("text", _NOT_IDS)
def test_another_things_number_beside_an_ids_word_is_no_id(text: str) -> None:
    found = find_by_rules(text)
    assert found is None or found.rule != "government_id", text


@pytest.mark.parametrize("text", _ACCOUNTS)
def test_an_account_in_more_languages_or_by_its_check_is_found(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "bank_account", text


@pytest.mark.parametrize("text", _NOT_ACCOUNTS)
def test_a_number_of_an_accounts_shape_failing_its_check_is_no_account(text: str) -> None:
    found = find_by_rules(text)
    assert found is None or found.rule != "bank_account", text


# 3. An id kept under a key in its country's short name.
@pytest.mark.parametrize(("key", "value"), [("iin_mum", "880514400123"), ("pinfl", "41703912700828")])
def test_an_id_under_its_countrys_key_is_found(key: str, value: str) -> None:
    found = find_by_rules(value, key)
    assert found is not None and found.rule == "government_id"


# 4. An SSN as people say it or a photo reads it: a dash said as a word, OCR's letters for digits
# in its groups, a form's boxes set apart by bars. Read as digits, the number is the id, not a
# secret's mix of letters and digits.
_SPOKEN_OR_SCANNED_SSNS = [
    "my social is four one two dash five five dash one two three four",
    "ssn: six oh three hyphen one nine hyphen four four eight two",
    "[scan] Social Security No. 4l2-55-l234",
    "SSN  5 2 9 | 4 4 | 1 0 7 3  (from the W-4 photo)",
]
_NOT_SPOKEN_SSNS = [
    "the score was two dash one dash three",  # a score
    "call five five five dash one two three dash four five six seven",  # a phone, no id's word
    "take I-95 then I-10 west",  # roads
    "row | 1 | 2 | 3 | total 6",  # a table's cells
]


@pytest.mark.parametrize("text", _SPOKEN_OR_SCANNED_SSNS)
def test_an_ssn_said_or_scanned_is_an_id(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "government_id", text


@pytest.mark.parametrize("text", _NOT_SPOKEN_SSNS)
def test_numbers_said_with_dashes_or_bars_are_not_ids(text: str) -> None:
    assert find_by_rules(text) is None, text


# 5. A company's or an organisation's tax number is no person's id (the policy): Spain's CIF by
# its letter, a legal form that ends in a full stop ("S.L."), Portugal's "Lda", a cooperative, a
# league, a Greek association or legal person, a Hungarian association, a contractor; and a
# trade's permit. A person's own number beside the same words stays an id.
_ORGANISATIONS = [
    "CIF del taller: A28017895 para la factura",
    "NIF: B12345674 — Reformas Pérez S.L.",
    "NIPC da Sousa & Irmãos Lda 503004642 para o recibo",
    "NIF da cooperativa agrícola 501234560",
    "EIN for the league: 12-3456789 (for the 990-N)",
    "ΑΦΜ σωματείου 090000045 (νομικό πρόσωπο)",
    "az alapítvány adószáma 18123456-1-42",
    "contractor's NIP 5260250995 on the invoice",
    "forklift license # for the site is FL-22918",
]
_PERSONS = [
    "mi NIF es 12345678Z para la gestoría S.L.",
    "my EIN for the league is 84-2917364",
    "ο ΑΦΜ μου 090000045 για τον σύλλογο",
    "mój NIP 5260250995 do faktury",
    "NIF de mi madre: 12345678Z",
]


@pytest.mark.parametrize("text", _ORGANISATIONS)
def test_an_organisations_tax_number_is_no_persons_id(text: str) -> None:
    found = find_by_rules(text)
    assert found is None or found.rule != "government_id", text


@pytest.mark.parametrize("text", _PERSONS)
def test_a_persons_tax_number_beside_an_organisation_stays_an_id(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "government_id", text


# 6. Words of other things read as ids' words: a UK parking fine's PCN, a German car's FIN, a
# rugby club's RFC; a card's "pan" in a record failing the card's check; a record's routing
# number or ABA alone (the policy: a branch code alone is no account).
_NOT_IDS_NOR_ACCOUNTS = [
    "PCN WK44120983, £35 if paid within 14 days",
    "Fahrzeugschein: FIN WVWZZZ1KZAW123456",
    "Hollins RFC, acc 41820596, sort 40-47-84",
    '{"pan": "4539 7810 2266 4318", "error": "invalid card number (checksum)"}',
    '{"routing_number": "121000358", "account_number": null}',
    '{"payee": "Ferris & Lamb LLP", "aba": "026009593", "acct_mask": "*****7465"}',
]


@pytest.mark.parametrize("text", _NOT_IDS_NOR_ACCOUNTS)
def test_other_things_numbers_are_no_ids_and_branch_codes_no_accounts(text: str) -> None:
    found = find_by_rules(text)
    expected = "bank_account" if "acc 418" in text else None  # (the club's account is one)
    assert (found.rule if found else None) == expected, text


@pytest.mark.parametrize(
    "text",
    [
        '{"routing_number": "121000358", "account_number": "48291736"}',
        "routing,account\n114000721,48291736",
        '{"card_pan": "4539 7810 2266 4319"}',
    ],
)
def test_an_account_or_card_beside_its_branch_code_is_still_found(text: str) -> None:
    assert find_by_rules(text) is not None, text
