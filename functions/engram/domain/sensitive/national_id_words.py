"""More countries' id words, and ids told by their own printed form beside their word
(held-out H's misses: Asia, the Middle East, Africa and Latin America).

- Id words of scripts the word splitter cuts apart or that run on into the next word
  (Cyrillic, Greek, Arabic, Hebrew, the Indic scripts and Sinhala, Ethiopic, Thai,
  Japanese, Chinese, Korean), then the value within a few characters (``SCRIPT_ID_RE``).
- Latin-script id words of more countries (``MORE_ID_WORDS``): Oman's and Kuwait's civil
  number, Vietnam's hộ chiếu (passport), Nepal's citizenship certificate, Ethiopia's Fayda,
  Sri Lanka's and Pakistan's NIC (in capitals, and only in its own shapes), Sweden's
  "personnr"; and whose the id is in more languages (``MORE_KIN``: "căn cước của mẹ",
  "KTP ibu saya", Swahili's "nambari").
- Ids with a printed form of their own, beside their word: Greece's ΑΦΜ by its check digit
  (the word may stand further off: "ΑΦΜ του εργαζομένου: …"); Mexico's RFC of a person
  (four letters, a birth date, three characters: a company's has three letters and passes);
  Chile's RUT without its dots ("mi rut es 21407690-K"; a company's RUT, 50 million and
  up, passes); a Hong Kong id after its Chinese name ("身份證 E062838(5)", whatever the
  check digit: the word and the form say it)."""

from __future__ import annotations

import re

from engram.domain.sensitive.prefilter import keyed

# A letter of the scripts below (Greek to Sinhala, Thai, Ethiopic, kana, CJK ideographs, Hangul).
OTHER_SCRIPT = re.compile(r"[\u0370-\u0dff\u0e00-\u0e7f\u1200-\u137f\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")
# Georgian's, Khmer's and Burmese's id words (their scripts are outside the range above: a text in
# them is read for ids only when it holds one of these, not at every character)
_NEWER_SCRIPTS_ID_WORDS = (
    *("პირადი", "პ/ნ", "អត្តសញ្ញាណ", "មត្តសញ្ញាណ", "မှတ်ပုံတင်", "နိုင်ငံကူးလက်မှတ်", "ບັດປະຈຳຕົວ"),
    *("ໜັງສືຜ່ານແດນ", "ລະຫັດປະຈຳຕົວ"),
)


def in_another_script(text: str) -> bool:
    """Whether the text may hold an id in a script ``SCRIPT_ID_RE`` reads."""
    return OTHER_SCRIPT.search(text) is not None or any(w in text for w in _NEWER_SCRIPTS_ID_WORDS)


# Myanmar's NRC: a state's number (1-14), its township's letters, the citizen's kind, six digits,
# in Latin or Burmese letters and digits ("12/OUKAMA(N)123456", "၁၂/ကမရ(နိုင်)၀၄၈၂၇၁").
MYANMAR_NRC = (
    r"\d{1,2}/(?:[A-Za-z]{3,9}\((?:N|C|P|E|NAING)\)|[\u1000-\u103f]{2,12}\([\u1000-\u103f]{2,10}\))\d{6}(?!\d)"
)


SCRIPT_ID_WORDS = (
    # (Ukraine's passport for travel abroad is named so in full: "Паспорт громадянина України для
    # виїзду за кордон FX482917")
    r"(?:паспорт[аеу]?(?:\s+(?:громадян(?:ина|ки)|граждан(?:ина|ки))\s+\w+)?"
    r"(?:\s+для\s+(?:виїзду|выезда)\s+за\s+(?:кордон|границу))?(?:\s+серия)?|инн|иин|жсн|снилс|ת[\"״]ז|ஆதார்(?:\s*எண்)?|හැඳුනුම්පත්\w*|জাতীয়\s*পরিচয়পত্র\w*|رقم\s*هوي[ةه]|рнокпп|іпн|податков\w*\s+номер\w*|егн|јмбг|αμκα|αφμ|ταυτότητ\w*|διαβατ[ηή]ρ[ιί]\w*|תעודת\s*זהות|ת\.\s?ז\.?|דרכון"
    r"|رقم\s*الهوية|الرقم\s*القومي|الهوية|جواز\s*السفر|رقم\s*الجواز|کد\s*ملی|آدھار|आधार|पैन|पासपोर्ट|บัตรประชาชน"
    r"|เลขประจำตัวประชาชน|หนังสือเดินทาง|パスポート番号|旅券番号|運転免許証番号|免許証番号|在留カード番号|护照号码?|護照號碼?"
    r"|驾驶证号?|社会保障号|여권\s*번호|운전면허\s*번호|외국인등록번호"
    # the document's name, "の" and then its number (運転免許証の番号, パスポートの番号は)
    r"|(?:運転免許証?|免許証|パスポート|旅券|在留カード|マイナンバーカード)の?番号|(?:往来)?港澳(?:台)?通行[证證]|台胞[证證]|回[乡鄉][证證]|驾照|駕照|駕駛執照|운전면허증?"
    r"|водительск\w+\s+удостоверени\w+|посвідчення\s+водія|רישיון\s*נהיגה|رخصة\s*(?:ال)?(?:قيادة|سياقة)|ใบขับขี่"
    r"|δίπλωμα\s+οδήγησης"
    # Taiwan's resident certificate (居留證號碼), a driving licence in Hindi and Bengali
    # (DigiLocker's "ड्राइविंग लाइसेंस नंबर MH12 20190048271"; Thailand's taxpayer number is
    # the person's id by its check digit, a company's starts with 0: national_id_checks.py)
    r"|پاسپورت|گذرنامه|پاسپورٹ|удостоверени[еяю]\s+личности|id-картк[аиу]|ідентифікаційн\w+\s+номер"
    r"|идентификационн\w+\s+номер|居留[證证](?:號碼|号码|號|号)?|ड्राइविंग\s*लाइसेंस|ड्राइविंग\s*लाइसेन्स|ড্রাইভিং\s*লাইসেন্স"
    # China's and Hong Kong's identity card and its number (身份證號碼), Bengali's NID with
    # either spelling of its "য়", Tamil's, Telugu's and Kannada's Aadhaar, Ethiopia's Fayda
    r"|身份[证證](?:号码?|號碼?)?|জাতী(?:য়|য়)\s*পরিচ(?:য়|য়)পত্র\w*|ఆధార్|ಆಧಾರ್|ፋይዳ"
    # Bangladesh's NID written in Bengali letters, Amharic's "identity card" (መታወቂያ)
    r"|এনআইডি|መታወቂያ"
    # Georgia's personal number (პირადი ნომერი), Armenia's public service number (ՀԾՀ),
    # Kazakhstan's IIN in full, Khmer's identity card, Myanmar's NRC (မှတ်ပုံတင်)
    r"|პირადი\s+ნომერ\w*|ՀԾՀ|հանրային\s+ծառայությունների\s+համարանիշ\w*|сәйкестендіру\s+нөмір\w*"
    r"|អត្តសញ្ញាណប័ណ្ណ|មត្តសញ្ញាណ|မှတ်ပုံတင်\w*"
    # Georgia's abbreviation (პ/ნ), Armenia's social card (the ՀԾՀ's old name), Burmese's and Lao's
    # passport and identity card; Bangladesh's birth registration number, Pakistan's child's
    # B-form, Afghanistan's tazkira (Dari and Pashto), Nepal's citizenship certificate, national
    # identity card and passport (राहदानी), Sinhala's passport, Tamil's identity card, a voter's card in
    # Marathi and Hindi, a driving licence in Gurmukhi; Ukraine's identification code and Poland's
    # PESEL in Cyrillic; Uzbekistan's personal number (ЖШШИР)
    r"|პ/ნ|սոցիալական\s+քարտ\w*|နိုင်ငံကူးလက်မှတ်|ບັດປະຈຳຕົວ(?:ເລກທີ)?|ໜັງສືຜ່ານແດນ|ລະຫັດປະຈຳຕົວ"
    r"|জন্ম\s*নিবন্ধন\w*|بی\s*فارم|ب[\s\-]?فارم|تذکر[هېہ]\w*|नागरिकता|राहदानी|राष्ट्रिय\s*परिचय\s*पत्र"
    r"|ගමන්\s*බලපත්\u200d?ර\w*|அடையாள\s*அட்டை|मतदार\s*(?:ओळखपत्र|ओळख\s*पत्र|पहचान\s*पत्र)|वोटर\s*आई\s*डी"
    r"|ਡਰਾਈਵਿੰਗ\s*ਲਾਇਸੈਂਸ|ਪਾਸਪੋਰਟ|ідентифікаційн\w+\s+код\w*|песел\w*|жшшир"
    # Mongolia's register number (регистрийн дугаар: two Cyrillic letters, eight digits; the
    # word alone is Russian's "register" too, so only before that form)
    r"|регистр\w*(?:\s+дугаар\w*)?(?=[^\d\n]{0,16}?(?-i:[А-ЯӨҮ]{2})\s?\d{8}(?!\d))"
    # "my passport's number" in Arabic (رقم جوازي), the mainland's permits to Hong Kong, Macau and
    # Taiwan (港澳通行证) and their residents' permits home (回乡证, 台胞证); Iran's national code
    r"|رقم\s*جواز\w*|جواز(?:ي|ه|ها|ك)(?![\u0600-\u06ff])|(?:港澳|往来港澳|往來港澳|赴港澳|台湾|臺灣|台灣)通行[证證]"
    r"(?:号码?|號碼?)?|回[乡鄉][证證]|台胞[证證]|شماره\s*ملی)"
    # (the number's word and an acronym in brackets may stand between: "নম্বর (NID) "; or whose
    # and what for, up to a colon: "आधार नंबर (बायोमेट्रिक अटेंडेंस के लिए): ", "کد ملی بابابزرگ
    # برای حقوق بازنشستگی: ")
)
SCRIPT_ID_RE = re.compile(
    SCRIPT_ID_WORDS
    # (or "is" in Greek, Ukrainian, Russian: "ο αριθμός ταυτότητας του παππού είναι ΑΚ 482913"; a
    # Greek id card's two letters are Greek capitals)
    # (an aside in brackets may stand first: "ՀԾՀ (սոցիալական քարտ) 2908850471")
    + r"(?:\s*\([^()\d\n]{1,30}\))?"
    r"(?:[^\d\n]{0,16}?|[^\d\n:：.。!?؟,，、،;]{0,48}(?:[:：]|\s(?:είναι|ειναι|це|это))\s*)"
    # (Myanmar's NRC: a state's number, its township's letters, the citizen's kind, six digits;
    # the letters in Latin or in Burmese; a Cyrillic series: Ukraine's "КВ 482913", Mongolia's "УБ92031512")
    r"(?P<id>(?:[A-Za-z]{0,3}|[Α-Ω]{2}\s?|(?-i:[А-ЯЁІЇЄҐӨҮ]{2})\s?)\d[\d\s\-./]{4,24}[\dA-Za-z]?|" + MYANMAR_NRC + ")",
    re.IGNORECASE,
)
# Another thing's number named between an id's word and the number, in the scripts above:
# an appointment's, an application's, a reservation's, an order's, a case's ("香港身份證換領
# 預約編號 HKID-2024-5513": the renewal appointment's number).
_SCRIPT_ANOTHER_NUMBER = re.compile(
    r"預約|预约|申請|申请|受理|予約|접수|예약|신청|訂單|订单|案件|處理|处理|처리|заявк|заявлени|обращени|запис"
    # an application or a request, a contract (the UAE's Ejari), a hospital's record ("HN", 门诊号)
    r"|طلب|عقد|إيجاري|ejari|门诊|門診|病历|病歷|住院|\bHN\b"
    # an order's, a parcel's, a payment's, a vehicle's or a device's identification number
    # ("идентификационный номер заказа", "ідентифікаційний номер посилки", VIN, IMEI)
    r"|заказ|посылк|посилк|отправлени|відправлен|накладн|платеж|платіж|транспорт|автомобил|устройств|пристро"
    r"|товар|\bVIN\b|\bIMEI\b"
    # a phone line, a helpline, support ("आधार केंद्र का फोन नंबर: 0120 ...", "ہیلپ لائن")
    r"|हेल्पलाइन|फ़ोन|फोन|मोबाइल|टोल|संपर्क|تلفن|تماس|پشتیبانی|هاتف|ہیلپ|فون|телефон|гаряч|горяч|电话|電話|热线|熱線|客服"
    r"|전화|โทร"
    # ... in Burmese, Georgian, Armenian and Khmer (a phone, an office: "မှတ်ပုံတင် ရုံး ဖုန်း ...")
    r"|ဖုန်း|ရုံး|ტელეფონ|ოფის|հեռախոս|ទូរស័ព្ទ"
    # ... and in the Indic scripts whose id words 23c added: a phone, an office ("ਪਾਸਪੋਰਟ ਦਫ਼ਤਰ ਦਾ
    # ਫ਼ੋਨ 0172-...": the passport office's phone)
    r"|ਫ਼ੋਨ|ਫੋਨ|\u0a5e\u0a4b\u0a28|ਦਫ਼ਤਰ|ਦਫਤਰ|\u0a26\u0a5e\u0a24\u0a30|ফোন|অফিস|কার্যালয়|ફોન|ઓફિસ|ಫೋನ್|ಕಚೇರಿ|ഫോൺ|ഓഫീസ്"
    r"|ఫోన్|కార్యాలయ|போன்|தொலைபேசி|அலுவலக|දුරකථන|කාර්යාල|दफ़्तर|दफ्तर|कार्यालय"
    # a tracking code in Persian and Urdu ("کد رهگیری گذرنامه ۱۴۰۲-۲۲۸۴۹۱": the passport's post)
    r"|رهگیری|پیگیری|ٹریکنگ"
)
# ... or named right before the id's word ("номер заявления на загранпаспорт 2024-0481-73",
# "رقم طلب الهوية 2024/481/0029173": the application's number, "ИНН" of ten digits: a company's).
_SCRIPT_ANOTHER_BEFORE = re.compile(
    r"(?:заявлени\w*|заявк\w*|обращени\w*|طلب|عقد|申請|申请|預約|预约|신청|접수|\bVIN\b|رهگیری|پیگیری|ٹریکنگ)[^\d\n]{0,12}$",
    re.IGNORECASE,
)


def names_another_number(text: str) -> bool:
    """Whether the text names an application's, an appointment's, an order's or another
    thing's number in one of the scripts above (a reading with its id's word in English
    asks: "رقم طلب جواز السفر 2024/481", the application's number)."""
    return _SCRIPT_ANOTHER_NUMBER.search(text) is not None


def script_id_value(m: re.Match[str]) -> str | None:
    """The value a ``SCRIPT_ID_RE`` match gives as the id, unless what stands between the
    word and the value (or right before the word) names it as another thing's number, or it
    is a company's ИНН (ten digits; a person's has twelve)."""
    if _SCRIPT_ANOTHER_NUMBER.search(m.group(), 0, m.start("id") - m.start()):
        return None
    if _SCRIPT_ANOTHER_BEFORE.search(m.string, max(0, m.start() - 30), m.start()):
        return None
    digits = sum(map(str.isdigit, m.group("id")))
    return None if m.group()[:3].lower() == "инн" and digits == 10 else m.group("id")


# A passport number after a nationality ("pasaporte español PAF482910").
PASSPORT_WORDS = frozenset(
    ["passport", "pasaporte", "passeport", "reisepass", "passaporto", "paspoort", "paszport", "pasaport"]
)
PASSPORT_NATIONALITY_RE = keyed(
    r"\b(?:" + "|".join(sorted(PASSPORT_WORDS)) + r")\s+[^\W\d_]{3,15}\s+"
    r"(?P<id>[A-Z]{1,3}\d{5,9})\b",
    re.IGNORECASE,
)
# A Russian passport: series (four digits) and number (six).
# (the country may stand between: "паспорт РФ серия 4519 номер 382716"; and "серия ... номер ..."
# name a passport's two parts whatever word comes before)
RU_PASSPORT_RE = re.compile(
    r"паспорт\w*(?:\s+(?:РФ|России|гражданина\s+\w+))?\s+(?:серия\s+)?\d{2}\s?\d{2}\s*,?\s*(?:№|номер|n)?\s*\d{6}(?!\d)"
    r"|серия\s*:?\s*\d{2}\s?\d{2}\s*,?\s*(?:№|номер)\s*:?\s*\d{6}(?!\d)",
    re.IGNORECASE,
)
# Other papers numbered by a series and a number: a school's or a university's certificate, a
# bond, a lottery ticket ("аттестат серия 7718 номер 012345", "облигация серия 4519 номер ...").
_ANOTHER_SERIES = re.compile(
    r"(?:аттестат|диплом|облигаци|билет|лото|лотере|сертификат|полис|бланк)\w*[^\n]{0,40}$", re.IGNORECASE
)


def russian_passport(text: str) -> bool:
    """A Russian passport's series and number, not another paper's (above)."""
    return any(
        m.group()[:7].lower() == "паспорт" or not _ANOTHER_SERIES.search(text, max(0, m.start() - 60), m.start())
        for m in RU_PASSPORT_RE.finditer(text)
    )


MORE_ID_WORDS = (
    r"civil\s+(?:id|number|no|card)(?:\s+(?:card|number|no))?|h[ộo]\s+chi[ếe]u|citizenship\s+(?:certificate|card"
    r"|number|no)(?:\s+(?:number|no))?|nagarikta|fayda(?:\s+(?:id|number|no|fan|fin))?|(?-i:NIC)|personnr"
    r"|num[ée]ro\s+d['’]identification\s+national[e]?"
    # France's foreigner's number on a titre de séjour (the AGDREF number: "numéro étranger 7504812936")
    r"|num[ée]ro\s+(?:d['’])?[ée]tranger|(?-i:AGDREF)"
    # the US's and Canada's trusted traveller numbers (TSA PreCheck's KTN, Global Entry's and
    # NEXUS's PASSID, DHS's redress (control) number)
    r"|known\s+travell?er(?:\s+(?:number|no|id|#))?|(?-i:KTN|PASSID)|global\s+entry(?:\s+(?:number|no|id|#|card))?"
    r"|nexus\s+(?:card|number|no|id|passid)|redress\s+(?:control\s+)?(?:number|no|#)|trusted\s+travell?er\s+(?:number|no|id)"
    # Nigeria's bank verification number (a person's biometric id), the Philippines' PhilSys,
    # Portugal's SNS number, New Zealand's NHI, Brazil's voter title, Czechia's and Hungary's
    # identity cards
    r"|(?-i:BVN)|bank\s+verification\s+number|philsys(?:\s+(?:card|number|no|id|(?-i:PCN)))?|n[úu]mero\s+de\s+utente"
    r"|(?-i:NHI)(?:\s+(?:number|no))?|t[íi]tulo\s+de\s+eleitor|[čc][íi]slo\s+(?-i:OP)|ob[čc]ansk[ýy]\s+pr[ůu]kaz"
    r"|szem[ée]lyi\s+igazolv[áa]ny(?:\s+sz[áa]ma?)?"
    # a passport in Finnish, Czech and Slovak, Hungarian, Croatian, Serbian, Romanian, Danish
    # and Norwegian, Slovenian, Lithuanian, Latvian, Estonian ("passi numero FP4829173",
    # "číslo pasu 48291736"; not Italian "passi", steps, nor "pas" alone)
    r"|passi(?:n)?\s+(?:numero|nro|nr|number)|passinumero|passinro|[čc][íi]slo\s+(?:cestovn[íi]ho\s+)?pasu"
    r"|cestovn[íi](?:ho)?\s+pas(?:u|em)?|[úu]tlev[ée]l(?:sz[áa]m|em|e|\s+sz[áa]ma)?|putovnic[aeu]|pasoš(?:a|u)?|pasos(?:a|u)"
    r"|pa[șşs]aport(?:ul(?:ui)?)?|pasnummer|potn(?:i|ega)\s+list(?:a)?|paso\s+numeris|pases\s+numurs"
    # and in Swahili, Albanian, Malay ("nambari ya pasipoti AB1234567", "pasaporta nr.", "pasport no.")
    r"|pasipoti|pasaporta|pasport"
    # Uzbekistan's personal number (JShShIR, PINFL), Azerbaijan's FIN (in capitals: "fin" is a
    # word) and identity card, Nepal's national identity card in Latin letters, Hausa's passport,
    # Zulu's identity book (umazisi), Tagalog's licence, the Philippines' PhilSys card number
    # (PCN), Vietnam's personal tax code and social insurance book, Tanzania's and Kenya's social
    # security fund (NSSF), Brazil's PIS/PASEP
    r"|jshshir|pinfl|(?-i:F[İI]N)|[şs][əe]xsiyy[əe]t\s+v[əe]siq[əe]si|r[aā]s(?:h)?triya\s+parichaya?\s+patra"
    r"|fasfo|(?:ka|u|i)?mazisi|lisensya(?:\s+ng\s+(?:driver|drayber|pagmamaneho))?"
    r"|m[ãa]\s+s[ốo]\s+thu[ếe]\s+c[áa]\s+nh[âa]n|(?:s[ốo]\s+)?s[ổo]\s+b[ảa]o\s+hi[ểe]m\s+x[ãa]\s+h[ộo]i|(?-i:BHXH)"
    r"|(?-i:NSSF)|(?-i:PIS)(?:/(?-i:PASEP))?|(?-i:PASEP)"
)
# Tax numbers' words that a company's number has too (its words as the word splitter gives them).
COMPANY_ID_WORDS = frozenset({"nif", "nipc", "nip", "cif", "inn", "инн", "afm", "αφμ", "vat", "cuit", "rfc", "rut"})
# ... unless the text says the tax number is a person's own ("o meu NIF é ...", "NIF pessoal ...",
# "ΑΦΜ μου"): an employee's form names the employer too (review rv5).
_TAX_WORD = r"(?:nif|nipc|nip|cif|cuit|rfc|rut|inn|afm|αφμ|инн)"
_PERSONS_TAX_WORD = re.compile(
    r"\b(?:my|meu|minha|mi|mio|mia|mon|ma|mein|meine|mój|moje)\s+(?:\w+\s+)?" + _TAX_WORD + r"\b"
    r"|\b"
    + _TAX_WORD
    + r"\s+(?:pessoal|personal|persönlich|personale|personnel|μου|мой|do\s+trabalhador|da\s+trabalhadora"
    r"|del\s+trabajador|de\s+la\s+trabajadora|of\s+the\s+employee|do\s+funcion[áa]rio|del\s+empleado"
    r"|του\s+εργαζομένου|работника)(?!\w)",
    re.IGNORECASE,
)


def persons_tax_number(text: str) -> bool:
    return _PERSONS_TAX_WORD.search(text) is not None


MORE_ID_STEMS = frozenset(
    {"civil", "hộ", "ho", "citizenship", "nagarikta", "fayda", "nic", "personnr", "agdref"}
    | {"known", "ktn", "passid", "global", "nexus", "redress", "trusted", "bvn", "bank", "philsys", "nhi"}
    | {"título", "titulo", "číslo", "cislo", "občanský", "obcansky"}
    | {"passi", "passin", "passinumero", "passinro", "cestovní", "cestovniho", "cestovního", "cestovni"}
    | {"útlevél", "utlevel", "útlevélszám", "útlevelem", "útlevele", "putovnica", "putovnice", "putovnicu"}
    | {"pasoš", "pasos", "pasoša", "pasošu", "pașaport", "paşaport", "pașaportul", "pasnummer", "potni"}
    | {"potnega", "paso", "pases", "pasipoti", "pasaporta", "pasport"}
    | {"jshshir", "pinfl", "şəxsiyyət", "sexsiyyet", "şexsiyyet", "rastriya", "rashtriya", "fasfo", "mazisi"}
    | {"kamazisi", "umazisi", "imazisi", "lisensya", "mã", "ma", "số", "so", "sổ", "bhxh", "nssf", "pis"}
    | {"pasep"}
)
MORE_KIN = (
    r"mẹ|bố|cha|vợ|chồng|con|ông|bà|ibu|bapak|ayah|istri|suami|adik|kakak|pribadi|annemin|babamın|eşimin"
    r"|nambari|namba"
    # Tagalog's kin ("PhilHealth ID ng asawa ko")
    r"|asawa|anak|nanay|tatay|kapatid|lola|lolo"
    # Zulu's and Xhosa's ("kamazisi kababa ngu-...": the father's identity book)
    r"|ka(?:baba|mama|gogo|mkhulu|bhuti|sisi)|yami|yakhe"
)
# The shapes a short word's id has: Sri Lanka's NIC (a birth year, the day of the year, 500
# added for a woman, a serial; or the old nine digits and V or X) and Pakistan's CNIC.
NIC_SHAPE = re.compile(r"(?:19|20)\d\d(?:[0-3]\d\d|[5-8]\d\d)\d{5}|\d{9}[VvXx]|\d{5}-?\d{7}-?\d")
# Kuwait's civil id (twelve digits) and Oman's civil number (up to nine), digits only: "Civil
# No. 2023-004512" with a year and a dash is a court's case number (review rv5).
CIVIL_SHAPE = re.compile(r"\d{7,12}")

# (and in Greeklish, by its check digit: "afm tis giagias 048291764")
_AFM = re.compile(r"(?:αφμ|a\.?φ\.?μ\.?|(?<![\w])afm(?![\w]))[^\d\n]{0,40}?(?<![\d.])(\d{9})(?![\d.])", re.IGNORECASE)
_RFC_PERSON = re.compile(
    r"\bRFC\b[^\n]{0,50}?(?<![\w&])(?!X[AE]XX010101000)[A-ZÑ&]{4}(\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])[A-Z\d]{2}[\dA](?!\w)"
)
# (Chile's RUN only in capitals: "run" is English's, "CI run 20231124-5" its number; review rv5)
_RUT_WORD = keyed(r"\b(?:rut|(?-i:RUN))\b[^\d\n]{0,20}?(?<![\d.\-])(\d{7,8})-([\dkK])(?!\w)", re.IGNORECASE)
_MYANMAR_NRC_RE = re.compile(MYANMAR_NRC, re.IGNORECASE)
_HK_ID = re.compile(r"身份[证證][^\n\dA-Za-z]{0,6}([A-Z]{1,2}\d{6})\s?\(([\dA])\)")


# An SSN's form said to be no SSN right after it ("118-22-0473 (clinic internal, not SSN)",
# "555-01-8833 is the fax line at the clinic, not anybody's SSN").
NOT_AN_SSN_AFTER = re.compile(
    r"[^\n]{0,60}?\b(?:not|isn['’]t|is\s+no)\s+(?:an?\s+|any(?:body|one)['’]s\s+|some(?:body|one)['’]s\s+|my\s+|the\s+"
    r"|his\s+|her\s+|a\s+real\s+)?(?:ssn|social\s+security)\b",
    re.IGNORECASE,
)
# Germany's Rentenversicherungsnummer (area, birth date DDMMYY, the surname's letter, serial
# and check digit: "12 150354 M 017") and Singapore's NRIC or FIN after "IC" ("my ic is
# T5333147H"), whatever the check letter, beside their word.
_RVNR = re.compile(r"(?<![\w])\d{2}\s?(0[1-9]|[12]\d|3[01])(0[1-9]|1[0-2])\d{2}\s?[A-Z]\s?\d{3}(?![\w])")
_RVNR_WORD = keyed(r"sozialversicherung|rentenversicherung|versicherungsnummer|\bsvnr\b|\brvnr\b", re.IGNORECASE)
_IC = re.compile(
    r"\b(?:ic|nric|fin|i/c)\b[^\n\w]{0,4}(?:(?:no|number|is|:)\W{0,3}){0,2}[STFGM]\d{7}[A-Z]\b", re.IGNORECASE
)
# A VAT number with its country's prefix ("GB 123 4567 89", "VAT GB123456789"): a company's.
_VAT_NUMBER = re.compile(r"(?:vat\s*)?(?:GB|XI)\s?\d{3}\s?\d{4}\s?\d{2}(?:\s?\d{3})?|vat\b.*", re.IGNORECASE)


# A receipt's, an invoice's or an order's words shortly before "Document No.": the receipt's number.
RECEIPT_BEFORE = re.compile(r"\b(?:receipt|invoice|order|purchase|billing|shipping|delivery)\b[^\n]{0,40}$", re.I)


# Words right before an id's word that make its number another's: a pension scheme's tax
# reference, a receipt's "Document No." (read by government_ids.py).
SHAPE_BEFORE = {
    "tax": re.compile(r"\b(?:scheme|trust|charity|company|corporation|partnership|paye|employer['’]?s?)\s+$", re.I),
    "document": RECEIPT_BEFORE,  # ("Your receipt ... Order ID MT8L2X9Q1P, Document No. 1820...")
    # a school's, an employer's, a club's or a network's id card or id ("school ID card number
    # 33010620", "student id card 2023-1457"): not a state's
    "id": re.compile(
        r"\b(?:school|student|pupil|employee|staff|work|company|corporate|office|library|gym|club|university|uni"
        r"|college|campus|member(?:ship)?|badge|press|access|game|player|user|app|pan|network|device|session"
        r"|customer|vendor|supplier|patient|hospital|faculty|alumni|union|church|loyalty)(?:['’]s)?\s+$",
        re.I,
    ),
}
# An application's, an appointment's or a tracking number named before the id's word, as
# Romance languages and German order them ("numéro de demande de passeport 24118233",
# "número de solicitud del pasaporte", "Antragsnummer Personalausweis"): the application's.
NUMBER_OF_AN_APPLICATION_BEFORE = re.compile(
    r"\b(?:num[ée]ro|n[úu]mero|numero|nummer|numer|n[°º]|no\.?)\s+(?:de\s+|di\s+|da\s+|do\s+)?(?:la\s+|le\s+)?"
    r"(?:demande|solicitud|richiesta|pedido|requerimento|aanvraag|wniosku|dossier|suivi|seguimiento|rendez-vous|cita"
    r"|prenotazione|agendamento|expediente|tr[áa]mite|protocolo)\s+(?:de\s+|del\s+|di\s+|da\s+|do\s+|du\s+|van\s+|per\s+|para\s+|pour\s+)?"
    r"(?:la\s+|le\s+|l['’]|el\s+|il\s+|o\s+|a\s+|het\s+)?$"
    r"|\b\w*(?:antrags|vorgangs|termin|bearbeitungs|aktenzeichen)\w*\s+(?:f[üu]r\s+(?:den|die|das)\s+)?$"
    # the application, protocol or appointment word alone before the id's ("protocolo do RG novo:
    # 2024...", "trámite del DNI", Swahili's "namba ya maombi ya NIDA", Indonesian's and Turkish's)
    r"|\b(?:protocolo|tr[áa]mite|solicitud|requerimento|agendamento|maombi|permohonan|pendaftaran|randevu|ba[şs]vuru)"
    r"\s+(?:de\s+|del\s+|do\s+|da\s+|ya\s+|untuk\s+)?(?:la\s+|el\s+|o\s+|a\s+)?$",
    re.I,
)
# Another thing's number named right before an SSN's form ("my claim number is 465 36 6822").
ANOTHER_NUMBER_NAMED_BEFORE = re.compile(
    r"\b(?:claim|case|policy|application|appointment|confirmation|booking|reservation|member(?:ship)?|patient"
    r"|account|ticket|order|tracking|ref(?:erence)?|invoice|receipt|transaction|request|serial|model|part"
    r"|parcel|package|voucher|promo|coupon|room|suite|unit|product|sku|item|lot|batch)"
    r"\s*(?:number|no\.?|nr\.?|#|id|code)?\s*(?:is|was|:|=|-)?\s*$",
    re.I,
)
# An id's own word around that label: "booking ref for my NI number JK123456C".
_ID_WORD_BETWEEN = re.compile(r"\b(?:ssn|social\s+security|ni|nino|national\s+insurance|dni|nie|nif)\b", re.I)


def another_numbers_form(text: str, start: int) -> bool:
    """Whether an id's printed form at ``start`` (an SSN's, a NINO's, a DNI's) follows a label
    naming it another thing's number ("booking ref JK123456C", "room 123-45-6789", "promo
    code X1234567L"), with no id's word between."""
    named = ANOTHER_NUMBER_NAMED_BEFORE.search(text, max(0, start - 30), start)
    # (the id's word may stand before the label too: "NIE for the spanish bank account: X1263541J")
    return named is not None and _ID_WORD_BETWEEN.search(text, max(0, named.start() - 40), start) is None


def afm_valid(d: str) -> bool:
    """Greece's ΑΦΜ: eight digits weighted by powers of two, mod 11, mod 10."""
    return sum(int(c) << (8 - i) for i, c in enumerate(d[:8])) % 11 % 10 == int(d[8]) and d != "000000000"


def rut_valid(body: str, check: str) -> bool:
    """Chile's RUT or RUN: the digits (dots between them are skipped) weighted 2 to 7 from the
    right, mod 11 ("K" for 10)."""
    digits = [int(c) for c in body if c.isdigit()][::-1]
    total = sum(d * (2 + i % 6) for i, d in enumerate(digits))
    return {11: "0", 10: "K"}.get(11 - total % 11, str(11 - total % 11)) == check.upper()


# Mexico's tax office's generic RFCs: the one an invoice to the public at large carries, and
# a foreigner's ("el RFC genérico XAXX010101000 es para público en general"); nobody's own.
_SPANISH_CIF = re.compile(r"[ABCDEFGHJNPQRSUVW]-?\d{7}[0-9A-J]")
_GENERIC_RFCS = frozenset({"XAXX010101000", "XEXX010101000"})


def companys_form(stem: str, value: str) -> bool:
    """A company's number of a person's id's form, after its word ``stem``: Argentina's
    CUIT of 30, 33 or 34, Mexico's RFC of three letters, an Icelandic kennitala with 40
    added to its day. (Not Portugal's NIF by its first digit: numbers written for people by a rule
    that knows only the check digit start with any digit.)"""
    digits = re.sub(r"\D", "", value)
    if _VAT_NUMBER.fullmatch(value.strip()):
        return True  # "tax reference ... GB 123 4567 89", "tax_id_seller": "VAT GB 123 4567 89"
    if stem == "cuit" and len(digits) == 11 and digits[:2] in ("30", "33", "34"):
        return True  # Argentina's CUIT of a company (a person's starts 20, 23, 24 or 27)
    if stem == "rfc" and value.strip().upper() in _GENERIC_RFCS:
        return True  # the SAT's generic RFCs, for the public and for foreigners: printed on every such invoice
    if stem == "rfc" and re.match(r"[A-ZÑ&]{3}\d{6}", value.strip().upper()):
        return True  # Mexico's RFC of a company: three letters (a person's has four)
    if stem in ("nif", "cif") and _SPANISH_CIF.fullmatch(value.strip().upper()):
        return True  # Spain's CIF: a company's letter first (a person's NIF is eight digits and a letter)
    if stem == "pan" and re.fullmatch(r"[A-Z]{3}[ABCFGJLT][A-Z]\d{4}[A-Z]", value.strip()):
        return True  # India's PAN of a company, a firm, a trust, ... (a person's fourth letter is P)
    return stem == "kennitala" and len(digits) == 10 and int(digits[:2]) >= 40


def printed_id_beside_its_word(text: str) -> bool:
    """An id of the printed forms in the module's docstring, beside its word. (A company's
    ΑΦΜ is left to the caller, which knows a company's words.)"""
    lowered = text.lower()
    if ("αφμ" in lowered or "a.φ.μ" in lowered or "afm" in lowered) and any(
        afm_valid(m.group(1)) for m in _AFM.finditer(text)
    ):
        return True
    if "RFC" in text and _RFC_PERSON.search(text):
        return True
    if any(int(m.group(1)) < 50_000_000 and rut_valid(m.group(1), m.group(2)) for m in _RUT_WORD.finditer(text)):
        return True
    if _RVNR_WORD.search(text) and _RVNR.search(text):
        return True
    if _IC.search(text):
        return True
    if "/" in text and _MYANMAR_NRC_RE.search(text):
        return True  # ("NRC: 9/MaHtaLa(N)117305", "Myanmar NRC ၁၄/ပသန(နိုင်)၂၀၉၄၇၁": its form needs no word)
    return not text.isascii() and _HK_ID.search(text) is not None


# A company named, and its tax or registration number.
BUSINESS = re.compile(
    r"\b(?:gmbh|ag|ltd|limited|inc|llc|plc|s\.a\.|s\.l\.|b\.v\.|sociedad|empresa|bedrijf|company|firma|corp"
    r"|corporation|unternehmen|companies|şirket|sirket|societ[àa]|soci[ée]t[ée]"
    # more languages' and countries' words and legal forms for a company
    r"|entreprise|impresa|azienda|f[öo]retag(?:et)?|yritys|virksomhed|selskab|firm[ayieą]|sp[óo][łl]k\w*|sp\.\s*z\s*o\.o"
    r"|sarl|sas|eurl|srl|s\.r\.l|s\.p\.a|spa|oy|oyj|aps|a/s|kft|zrt|s\.r\.o|ltda|eireli|pty|llp|pvt|ehf|fyrirt[æa]k\w*"
    r"|business"
    # a seller's or a supplier's, as an invoice names them ("NIP sprzedawcy", "Steuernummer des Lieferanten")
    r"|seller|vendor|supplier|merchant|sprzedawc\w*|dostawc\w*|kontrahent\w*|lieferant\w*|verk[äa]ufer\w*"
    r"|proveedor\w*|fournisseur\w*|vendeur\w*|fornitor\w*|venditor\w*|fornecedor\w*|vendedor\w*"
    # Portugal's limited company (Lda, unipessoal), a contractor invoicing ("Polish contractor invoice:
    # NIP ...", "wykonawca"); (not "\b" after the forms that end in a full stop: "S.L." ends texts)
    r"|lda|unipessoal|contractor|subcontractor|wykonawc\w*)(?!\w)"
    r"|公司|株式会社|εταιρ|компани|фирм|организаци|предприяти|учреждени|شركة"
    # Russia's, Kazakhstan's and Ukraine's legal forms (ООО, АО, ТОО, ТОВ; not ИП, a person's),
    # Hebrew's Ltd (בע"מ), Arabic's establishment (مؤسسة), Mexico's legal person (persona moral)
    r"|\b(?:ООО|ОАО|ЗАО|ПАО|АО|ТОО|ТОВ|ПрАТ)\b|בע[\"״]מ|مؤسس[ةه]|\bpersona\s+moral\b|บริษัท|นิติบุคคล"
    # a company or an organisation in Indonesian, Swahili, Vietnamese, Persian, Amharic, Hindi,
    # Bengali, Japanese and Korean ("NPWP perusahaan", "شناسه ملی شرکت", "የድርጅቱ")
    r"|\b(?:perusahaan|kampuni|c[ôo]ng\s+ty|(?-i:PT|CV|Tbk))\b|شرکت|ድርጅ|कंपनी|কোম্পানি|会社|회사|법인",
    re.IGNORECASE,
)
BUSINESS_ID = re.compile(
    r"\b(?:ust-?id(?:nr)?|umsatzsteuer|vat|btw|kvk|cif|cnpj|siren|siret|abn|acn|gstin|steuernummer"
    r"|handelsregister|hrb|companies\s+house|partita\s+iva|tva|nip|vergi|regon|krs|siret|naf|rcs|kbo|i[čc]o|di[čc]|cui|cvr"
    r"|org\.?\s*nr|orgnr|organisationsnummer|y-tunnus|nipc|nif|бсн|бин|rc\s+(?:number|no)|єдрпоу|едрпоу)\b|统一社会信用代码|法人番号|αφμ|инн|огрн|кпп|ח\.פ|ע\.מ|السجل\s*التجاري|الرقم\s*الضريبي"
    # (in capitals only: German's article "ein", a "bin", an "ape" are words; a bare "house" is one)
    r"|\b(?-i:EIN|CIN|BIN|APE|TIN)\b|شناسه\s*ملی|የግብር\s*ከፋይ|사업자\s*등록"
    # an EU VAT number with its country's prefix ("Acme GmbH tax id DE123456789")
    r"|\b(?:AT ?U|BE ?0?|DE|DK|EL|ES|FI|FR|IT|LU|NL|PL|PT|SE|IE|CZ|SK|SI|HU|RO|BG|HR|LT|LV|EE|MT|CY|GB|XI)\d{8,12}\b",
    re.IGNORECASE,
)


def names_a_company(text: str) -> bool:
    """Whether the text names a company (or a seller) and its tax or registration numbers."""
    flat = text.replace("_", " ")  # a record's keys ("tax_id_type": "eu_vat")
    return BUSINESS.search(flat) is not None and BUSINESS_ID.search(flat) is not None
