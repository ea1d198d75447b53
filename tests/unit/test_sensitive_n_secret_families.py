"""Secret recall from held-out N's missed secrets (23a, session 13): the causes, not N's
samples. Each family is tested with hand-written variants in other languages, scripts,
products and layouts, read by the rules alone (the learned stage is retrained separately),
and with its look-alikes: the same words with no value, which no rule may refuse."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules

# 1. A lock's code said as the lock is named, in English: right after a lockbox or a keypad,
# after a Supra or a "combi", past an aside in brackets, the code first and the lock after
# ("its 4 4 1 9 on the keypad"), a keypad's code ended with "#", a till's or a panel's staff code.
_LOCKS = [
    "storage unit lockbox 7720, key for unit 14 inside",
    "keysafe 4408 by the back door",
    "the realtor's supra is 5519, shackle code for the listing on Elm",
    "combi lock on the gym locker: 3-17-24",
    "Master lock on the trailer hitch: 12 31 07",
    "it's 4 4 1 9 on the keypad by the loading dock",
    "use code 7731 at the rear gate after 6pm",
    "the site office is 5580#, the hash opens it",
    "bar till: supervisor override code 4417",
    "the installer code for the alarm panel is 9911",
    "dial lock on the trailer (the red one, not the blue!): 14-22-08",
    "el candado de la bodega (4471) sigue igual, no lo cambié",
]
_LOCK_LOOK_ALIKES = [
    "unit 4 lockbox is by the door, Gary has the code",
    "lockbox 2 is empty, use the other one",
    "keypad 1000 series, ordered two for the site",
    "the back gate opens at 6:30 and closes at 18:00",
    "it's 2500 for the gate repair, invoice to follow",
    "press 1# for English",
    "dial *100# to check the balance",
    "our combi boiler is 2400 W",
    "the gate (1997) was repainted last spring",
]

# 2. A lock's or a code's word in other languages and scripts, with its code: Swahili, Hausa,
# Hungarian, Dutch, Tagalog, Vietnamese, Romanian, the Indic scripts (Kannada, Malayalam,
# Gujarati, Punjabi, Odia, Telugu, Tamil, Sinhala), Urdu, Georgian, Amharic, Lao, Armenian, and
# the Latin letters Hindi, Persian and Arabic are typed in.
_OTHER_LANGUAGES = [
    "kufuli ya mlango wa nyuma: 7 2 0 4",
    "lambar kulle na ma'ajiya 5512, kar ka gaya wa kowa",
    "a garázs kódzár: 4 8 1 6",
    "cijferslot fietsenhok: 3-8-1",
    "ang combi ng locker ay 2-4-6, huwag mong ipagsabi",
    "mã cửa nhà kho: năm tám không một",
    "pinul cardului de la benzinărie e 3 9 1 7",
    "pincode bus 12: vier twee nul acht",
    "ಎಟಿಎಂ ಪಿನ್ 4471, ಯಾರಿಗೂ ಹೇಳಬೇಡ",
    "ATM പിൻ 2280 ആണ്",
    "ATM પિન 5561 છે",
    "ਏਟੀਐਮ ਪਿੰਨ 7731 ਹੈ",
    "ATM ପିନ 4412",
    "ఇంటి గేట్ కోడ్ 4455",
    "வீட்டு கதவு கோட் 3321",
    "දොරේ කෝඩ් එක 6620",
    "دروازے کا کوڈ 4471 ہے",
    "ჭიშკრის კოდი 5520",
    "የበሩ ኮድ 7721 ነው",
    "ລະຫັດປະຕູ 4471",
    "մուտքի կոդը 4471",
    "darwaze ka code 4471 hai, kisi ko mat batana",
    "code el bab 5519 ya habibi",
    "ra2am el sirri tab3 el visa 4471",
    "ramze kart 5512, be kasi nagoo",
    "TAC 881204 dari Maybank, jangan bagi sesiapa",
    "jednorázový kód: 55 21 90",
    "il codice arrivato via SMS è 44 18 20",
    "o código que chegou do banco: 55 21 09",
    "ਬੈਂਕ ਦਾ ਓਟੀਪੀ 550 219",
]
_OTHER_LANGUAGE_LOOK_ALIKES = [
    "ಪಿನ್ ಕೋಡ್ 560001, ಬೆಂಗಳೂರು",
    "પિન કોડ 380015 અમદાવાદ",
    "ਪਿੰਨ ਕੋਡ 141001 ਲੁਧਿਆਣਾ",
    "kufuli ya mlango imevunjika, tutanunua mpya",
    "ramze wifi ro avaz kardam, 4471 dige nist",
    "ਪੁਰਾਣਾ ਪਿੰਨ 4471 ਹੁਣ ਨਹੀਂ ਚੱਲਦਾ",
    "kalimet el ser te8ayaret, el adime ma 3ad teshte8el",
    "kalmet el sir bta3t el wifi maktooba 3ala el router",
    "la clave vieja del candado (4471) ya no abre, puse otra",
    "गेटको पुरानो कोड ४४७१ अब चल्दैन",
    "જૂનો કોડ ૫૫૧૯ હવે નહીં ખુલે",
]

# 3. A group chat pasted as its lines: one turn asks for a code or a password, or names it, and
# someone else's turn is nothing but the value ("[Ana] 4 1 7 7", "Marek: 5521"), in any language.
_CHATS = [
    "[Tom] what's the code for the bike shed?\n[Ana] 4 1 7 7\n[Tom] cheers",
    "Kasia: jaki jest kod do szatni?\nMarek: 5521\nKasia: dzięki",
    "[Lea] c'est quoi le mot de passe du wifi du club ?\n[Hugo] Rugby!Toulouse31",
    "[María] ¿cuál era la contraseña del Instagram?\n[Pablo] Coro_Sevilla_2019\n[María] gracias",
    "12/03/2024, 18:22 - Jo: anyone got the lockbox code?\n12/03/2024, 18:25 - Sam: 7 7 2 1",
    "[지민] 와이파이 비번 뭐야?\n[서준] Seoul#2024",
    "[小王] 门禁密码多少？\n[小李] 4471",
    "[Pat] the alarm code is the same as last year\n[Quinn] which was?\n[Pat] 6190",
]
_CHAT_LOOK_ALIKES = [
    "[Tom] what's the discount code?\n[Ana] 2024",
    "[Tom] how many lines of code did you write?\n[Ana] 1200",
    "[Tom] what year did we change the door code?\n[Ana] 2019",
    "[Tom] what's the wifi called?\n[Ana] Netgear42",
    "[Tom] who has the gate code?\n[Ana] Gary does",
    "[Tom] what time does the gate open?\n[Ana] 0630",
    "[Tom] did you reset the password?\n[Ana] yes, done",
    "Kasia: jaki jest kod pocztowy?\nMarek: 00950",
    "[Tom] which PIN pad do we use?\n[Ana] 2400",
]

# 4. Passwords in machine text: a command's key phrase or archive password, a record's field
# named in other languages, an SNMP community string, a printed label OCR'd ("Passw0rd:").
_MACHINE = [
    "openssl enc -d -aes-256-cbc -in backup.enc -k 'blue harbour lights'",
    "zip -P Quokka!88 out.zip a.txt",
    "7z x -pMarlin42 site.7z",
    '{"utilisateur":"m.leroy","mot_de_passe":"Baguette#Soir-21"}',
    '{"palavra_passe":"Lisboa!2023x"}',
    '{"senha_cartao":"41 22 90"}',
    "snmp community string: Harb0ur!RW",
    "printer label (photo): Passw0rd: 58211904",
    "sqlite> SELECT email, password FROM staff;\nm.ruiz@x.org|Harbour#Lamp9",
    "inverter web page 192.168.8.20 admin/Solar!Roof22",
]
_MACHINE_LOOK_ALIKES = [
    "unzip -p archive.zip notes.txt",
    "openssl enc -k $PASS -in a -out b",
    '{"mot_de_passe_oublie": true}',
    '{"longueur_mot_de_passe": 12}',
    "SNMP community string is public (default, read only)",
    "Default Passw0rd is on the sticker",
    "sqlite> SELECT email, password FROM staff;\nm.ruiz@x.org|********",
    "SELECT name, pass FROM students;\ntom|yes",
    "router 192.168.0.1 admin/settings page",
]


# 5. A code said with some digits typed and some said (a voice note's or a phone's dictation),
# a dial's turns, a security question's answer named in English or in another script.
_SAID = [
    "gate pin 0 four 1 six, dont give it out",
    "code 4 nine 2 2 for the shed",
    "the door code is 7 one 7 three",
    "ロッカーのダイヤルは右に5、左に2、右に9",
    "gmail recovery question: প্রথম পোষা প্রাণীর নাম? উত্তর: টমি",
    "ਸੁਰੱਖਿਆ ਸਵਾਲ: ਪਹਿਲੇ ਪਾਲਤੂ ਦਾ ਨਾਮ? ਜਵਾਬ: ਟੌਮੀ",
    "საიდუმლო კითხვა: პირველი სკოლა? — პასუხი: 51-ე სკოლა",
]
_SAID_LOOK_ALIKES = [
    "take 1 tablet one time a day, 2 times",
    "page 2 of 5, one more to go",
    "Sicherheitsfrage: Name des ersten Haustiers?",
    "recovery question: প্রথম স্কুলের নাম?",
]


@pytest.mark.parametrize("text", _LOCKS + _OTHER_LANGUAGES + _CHATS + _MACHINE + _SAID)
def test_found_as_a_secret(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "secret", text


@pytest.mark.parametrize(
    "text",
    _LOCK_LOOK_ALIKES + _OTHER_LANGUAGE_LOOK_ALIKES + _CHAT_LOOK_ALIKES + _MACHINE_LOOK_ALIKES + _SAID_LOOK_ALIKES,
)
def test_look_alike_passes(text: str) -> None:
    assert find_by_rules(text) is None, text
