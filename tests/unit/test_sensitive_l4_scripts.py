"""Families from held-out L4's misses (21e, session 11): text in its writers' own languages and
scripts. Each family is tested with hand-written variants that are not the corpus's samples,
in languages and scripts the corpus does not hold too, and with the look-alikes (the same
words with no value, a duration, a count, a phone number) that must keep passing."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive
from engram.domain.sensitive.reading_view import reading_view

# 1. Digits said as words in a voice note, in the writer's language: read as digits, so the
# code after its word is found as in English (all red on main).
_SAID_CODES = [
    "OTP hai saat teen nau ek do char, jaldi bolo",  # romanised Hindi
    "पिन है सात तीन नौ एक, किसी को मत बताना",  # Hindi
    "কোড হলো পাঁচ, দুই, নয়, এক — তাড়াতাড়ি দাও",  # Bengali
    "پن کوڈ ہے چار، سات، ایک، نو",  # Urdu
    "رمز کارت: هفت، دو، پنج، نه",  # Persian
    "הקוד לדלת: תשע, ארבע, אחת, שש",  # Hebrew
    "รหัส ATM คือ เจ็ด สอง ห้า ศูนย์ นะ",  # Thai
    "ፒን ቁጥሩ ሰባት፣ ሁለት፣ አምስት፣ ዜሮ ነው",  # Amharic
    "namba ya siri ni tatu saba mbili sifuri",  # Swahili
    "ang PIN ko ay pito, tatlo, siyam, isa",  # Tagalog
    "mã PIN là bảy ba chín một nhé",  # Vietnamese
    "비밀번호 칠 삼 구 일 이에요",  # Korean
    "暗証番号は、なな、さん、きゅう、いち",  # Japanese, hiragana
    "验证码是七三九一五二",  # Chinese, run together
    "பின் எண் ஏழு மூன்று ஒன்பது ஒன்று",  # Tamil (not in the corpus)
    "პინ კოდი შვიდი სამი ცხრა ერთი",  # Georgian (not in the corpus)
    "el pin bta3y sab3a talata tes3a wa7ed",  # Arabizi
    "пін-код: сім, три, дев'ять, один",  # Ukrainian, with its apostrophe
    # languages and scripts the corpus does not hold
    "પિન છે સાત ત્રણ નવ એક",  # Gujarati
    "ਪਿੰਨ ਹੈ ਸੱਤ ਤਿੰਨ ਨੌਂ ਇੱਕ",  # Punjabi
    "కోడ్ ఏడు మూడు తొమ్మిది ఒకటి",  # Telugu
    "ಪಿನ್ ಏಳು ಮೂರು ಒಂಬತ್ತು ಒಂದು",  # Kannada
    "പിൻ ഏഴ് മൂന്ന് ഒമ്പത് ഒന്ന്",  # Malayalam
    "කේතය හත තුන නවය එක",  # Sinhala
    "կոդը յոթ երեք ինը մեկ",  # Armenian
    "кодът е седем три девет едно",  # Bulgarian
    "пин код: седам три девет један",  # Serbian
    "PIN kodu yeddi üç doqquz bir",  # Azerbaijani
    "pin ni bakwai uku tara daya",  # Hausa
    "code yek do se chahar",  # romanised Persian
    "הקוד: sheva shalosh tesha echad",  # romanised Hebrew
]
_SAID_NOT_CODES = [
    "OTP ek do minute mein aa jayega, wait karo",
    "ek do teen char log aaye the party mein",
    "验证码五分钟内有效",
    "二〇二四年三月的账单",
    "인증번호 유효시간은 삼 분입니다",
    "tôi có hai ba con mèo ở nhà",
    "สาม สี่ คน มา กิน ข้าว",
    "kal do ya teen baje aana, PIN wala kaam baad mein",
    "no no no, the PIN stays with me",
    "se fue, se se, code later",
    "кодът ще дойде след пет минути",
]


@pytest.mark.parametrize("text", _SAID_CODES)
def test_a_code_said_in_words_of_the_writers_language_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _SAID_NOT_CODES)
def test_number_words_that_are_no_code_pass(text: str) -> None:
    assert find_sensitive(text) is None


def test_words_with_vowel_signs_are_read_whole() -> None:
    # (Python's \w takes no combining mark: "सात" fell apart into "स", "त")
    assert reading_view("कोड: सात आठ नौ शून्य") == "कोड: 7890"
    assert reading_view("รหัส สาม เก้า หนึ่ง ศูนย์") == "รหัส 3910"
    assert reading_view("কোড চার নয় এক") == "কোড 491"


def test_hindis_hai_is_not_vietnameses_two() -> None:
    assert reading_view("OTP hai chhe chhe ek do") == "OTP hai 6612"
    assert reading_view("mã là hai ba bốn năm") == "mã là 2345"


# 2. A credential's word in another language or script, with its value: read as the English
# word, so the English rules decide (all red on main).
_NAMED_IN_SCRIPT = [
    "आपका बैंक ओटीपी ४७२९१८ है, किसी को न बताएं",  # Hindi, Devanagari digits
    "আপনার ভেরিফিকেশন কোড ৫৫২৯১৮",  # Bengali
    "آپ کا او ٹی پی 771029 ہے",  # Urdu
    "የማረጋገጫ ኮድዎ 771029 ነው",  # Amharic
    "የባንክ ሚስጥር ቁጥር 4417 ነው",  # Amharic, a PIN
    "Msimbo wako wa uthibitisho ni 330917",  # Swahili
    "你的交易密码是 482019，别告诉别人",  # Chinese
    "客户：验证码是 551204",
    "이 계정 OTP 복구 코드: 4KQP 9XMA 2RTC 7WLD",  # Korean
    "パス: hanabi_1129",  # Japanese
    "clave dinámica del banco 552 901",  # Spanish
    "я продиктовал им код 5512 из смс",  # Russian
    "Ukrainian: назвав код 7741 з смс",
    "عبارت بازیابی: apple river stone moon cloud tiger glass honey forest lamp quiet ocean",  # Persian
    "சரிபார்ப்பு OTP ஓடிபி 551902",  # Tamil (not in the corpus)
    "ઓટીપી 551902 છે, કોઈને કહેશો નહીં",  # Gujarati (not in the corpus)
    "сейф у шафі: 14-33-08",  # Ukrainian
    "pass wifi nhà mình: ngoisao-xanh-2024",  # Vietnamese
    "कार्ड का सीवीवी 123 है",  # Hindi, a card's CVV (not in the corpus)
    "কার্ডের সিভিভি ৪৮২",  # Bengali
    "የሂሳብ ቁጥር 1000123456789 ንግድ ባንክ",  # Amharic, an account
]
_NAMED_NOT_SECRETS = [
    "आपका ओटीपी 10 मिनट के लिए मान्य है",
    "ओटीपी आपके आधार से जुड़े मोबाइल पर आएगा",
    "验证码已发送到尾号 4821 的手机",
    "密码错误 3 次账户会被锁定",
    "رمز عبور باید حداقل ۸ کاراکتر باشد",
    "او ٹی پی 5 منٹ میں آئے گا",
    "የማረጋገጫ ኮድ አልደረሰኝም",
    "Msimbo wa uthibitisho utatumwa kwa simu yako baada ya dakika 2",
    "код города 495, телефон 123-45-67",
    "код из смс не пришёл уже 10 минут",
    "clave dinámica: la genera la app cada 60 segundos",
    "パスポートの番号は後で送ります",
    "el pin bta3 el visa 3andi fel notes, mesh ha2olo hena",
    "сейф модель 4820 от Valberg, гарантия 2 года",
    "pass wifi cho khách ở quầy lễ tân",
    "please pass wifi details to the guests",
    "सीवीवी किसी को मत बताना, बैंक कभी नहीं मांगता",
    "सीवीवी 3 अंकों का होता है",
    "የሂሳብ ቁጥር ለማግኘት 8994 ይደውሉ",
]


@pytest.mark.parametrize("text", _NAMED_IN_SCRIPT)
def test_a_credential_named_in_another_language_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NAMED_NOT_SECRETS)
def test_a_credentials_word_in_another_language_without_its_value_passes(text: str) -> None:
    assert find_sensitive(text) is None


# 3. Ids in their writers' scripts and romanisations: the id's word in the script (a passport,
# Aadhaar, teudat zehut, a Hong Kong and Macau permit) or the national scheme's check digit
# beside its word wherever it stands (Iran, Korea, Saudi Arabia in Arabizi, Vietnam, Ukraine's
# УНЗР, Greece's AFM in Greeklish, China's id in its three groups) (all red on main).
_IDS_IN_SCRIPT = [
    "पापा का आधार नंबर (बैंक केवाईसी के लिए): 4738 2915 0633",  # Hindi, far after its word
    "আধার: ৯১৩৪ ৮২৭৬ ০১৫২",  # Bengali
    "หนังสือเดินทาง เลขที่ AA4819273",
    "พาสปอร์ต AB1029384 ของแม่ หมดอายุปีหน้า",  # Thai
    "ፓስፖርት ቁጥሩ EP1928374 ነው",  # Amharic
    "পাসপোর্ট নম্বর BW0192837",  # Bengali
    "رقم جوازك A12938475 من فضلك",  # Arabic, "your passport"
    "закордонний паспорт FY019283, для візи",  # Ukrainian
    "תז שלי 312094857",  # Hebrew
    "0084739215 کد ملی مادرم",  # Persian, the value first
    "code meli maman 1273849507",  # romanised Persian
    "ra2m hawiyti 1051938627",  # Arabizi
    "주민등록번호 0109173038263",  # Korean, no dash
    "身份证 510107 19781209 1633",  # Chinese, in groups
    "so cccd cua me 079088013927",  # Vietnamese without accents
    "УНЗР 19920314-00515",  # Ukraine
    "afm tou patera mou 048291764",  # Greeklish
    "回乡证号码 H48291736",
    # passports in scripts the corpus does not hold
    "பாஸ்போர்ட் எண் N4829173",  # Tamil
    "పాస్‌పోర్ట్ నంబర్ M1928374",  # Telugu
    "પાસપોર્ટ નંબર Z4829173",  # Gujarati
    "ਪਾਸਪੋਰਟ ਨੰਬਰ P4829173",  # Punjabi
    "პასპორტის ნომერი 14AB92837",  # Georgian
    "անձնագրի համար AK0192837",  # Armenian
    "nomor paspor saya C4829173",  # Indonesian
]
_ID_WORDS_WITHOUT_AN_ID = [
    "इस आधार पर हम 4738 रुपये लौटाएंगे",  # Hindi's "basis", no Aadhaar number (Verhoeff)
    "0084739216 کد ملی نیست، شماره پیگیری است",  # fails Iran's check digit
    "주민등록번호 앞자리 010917 만 알려줘",
    "УНЗР 19920314-00516",  # fails its check digit
    "so cccd cua me chua co, dang lam lai",
    # fails its check digit; 23e's retrain (f9cfb67) reads it as an id: a known over-reach of
    # the learned stage until a retrain weighs a Greek tax number's failed check
    pytest.param(
        "afm tou patera mou 048291765",
        marks=pytest.mark.xfail(strict=True, reason="23e's weights (f9cfb67) score it an id"),
    ),
    "پاسپورت رو فردا تحویل میدم",
    "paspor saya belum jadi, nomor antrean 48291",
    "ਪਾਸਪੋਰਟ ਦਫ਼ਤਰ ਦਾ ਫ਼ੋਨ 0172-2700123",
]


@pytest.mark.parametrize("text", _IDS_IN_SCRIPT)
def test_an_id_named_in_its_writers_script_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _ID_WORDS_WITHOUT_AN_ID)
def test_an_ids_word_without_a_valid_id_passes(text: str) -> None:
    found = find_sensitive(text)
    assert found is None or found.rule != "government_id"


# 4. Accounts named by their bank in Korean, Chinese and Japanese, in Swahili and Spanish;
# Iran's Shetab cards outside the international ranges; Ukraine's УНЗР is no card (red on main).
_ACCOUNTS = [
    "신한 110-482-917304 김민지 회비 입금",
    "우리은행 1002-948-172635 예금주 박지훈",
    "토스뱅크 1000-2948-1726 으로 보내줘",
    "收款银行：招商银行深圳分行 6214 8312 9483 7261 028",
    "みずほ銀行 新宿支店 普通 4827193",
    "NMB akaunti namba 20810018273 — Juma",
    "Davivienda ahorros 0550-4881-2937, a nombre de Laura",
]
_NOT_ACCOUNTS = [
    "카카오뱅크 고객센터 1599-3333",
    "신한 2024년 3월 이벤트",
    "农业银行客服电话 95599",
    "工商银行 营业时间 9:00-17:00",
    "akaunti yangu ya M-Pesa ni namba ya simu 0712345678",
    "Bancolombia ahorros, la cuenta que te pasé ayer",
    "토스뱅크 이벤트 당첨 금액 50,000원",
]


@pytest.mark.parametrize("text", _ACCOUNTS)
def test_an_account_named_by_its_bank_in_its_writers_language_is_found(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule in ("bank_account", "payment_card")


@pytest.mark.parametrize("text", _NOT_ACCOUNTS)
def test_a_banks_name_with_a_phone_a_date_or_no_number_passes(text: str) -> None:
    assert find_sensitive(text) is None


def test_irans_shetab_cards_are_cards() -> None:
    for text in ("6104 3311 8274 9508 mellat be esme Ali", "kart melli 6037 9975 9912 3453"):
        found = find_by_rules(text)
        assert found is not None and found.rule == "payment_card"
    assert find_by_rules("6104 3311 8274 9509 mellat") is None  # (fails Luhn)


def test_a_unzr_beside_an_id_card_is_an_id_not_a_card() -> None:
    found = find_by_rules("ID-картка № 004817263, УНЗР 19920314-00515")
    assert found is not None and found.rule == "government_id"


# 5. A company's tax number and an application's, an appointment's or a protocol's number
# beside an id's word are no person's id, in more languages; a bank's name before an order's
# number is no account (red on main, the rules or the learned stage).
_NOT_A_PERSONS_ID = [
    "firm ka PAN AAFCK4821M hai, GST wale ko bhej do",  # a company's PAN (fourth letter C, F)
    "NPWP perusahaan CV Sinar Abadi 02.345.678.9-123.000",
    "شناسه ملی شرکت ۱۴۰۰۷۸۲۹۱۳۵ برای قرارداد",
    "protocolo do passaporte: 2024041900213, acompanhar no site",
    "número de trámite del pasaporte 00731928475, para seguir el estado",
    "kimlik kartı randevu numarası 20240419-552",
    "የድርጅቱ የግብር ከፋይ መለያ ቁጥር (TIN) 0071928374",
    "가상계좌 안내: 주문번호 2024061148291, 입금기한 6/13",
    "nomor KK kami 3171020304050012, NIK masing-masing ada di KTP",  # a family card's number
]


@pytest.mark.parametrize("text", _NOT_A_PERSONS_ID)
def test_a_companys_or_an_applications_number_is_no_persons_id(text: str) -> None:
    assert find_sensitive(text) is None


def test_a_persons_pan_and_nik_are_still_ids() -> None:
    for text in ("mera PAN ABCPK1234L hai", "NIK bapak 3273010101080042, KK nanti"):
        found = find_by_rules(text)
        assert found is not None and found.rule == "government_id"
