"""Secret precision from held-out L's wrong refusals (21a, session 11): texts that give a code
or a password that opens nothing, or name one and give none. Each family is tested with
hand-written variants that are not the corpus's samples, in several languages and layouts,
and with the look-alikes (the same words with a live value) that must still be found."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive

# 1. A value said to be dead, as people write it in many languages: "old" after the name or
# fused with it (Thai, Malay, Vietnamese, Persian, Chinese, Japanese), "was" then someone changed
# it, a death said right after the value ("이거 이제 안 돼"), a name of more words ("the old password
# for Dad's email was ..."), a hint of the old one in brackets, a dash then "CHANGED".
_DEAD = [
    "the old passcode for Gran's tablet was Tulip1948 but we reset it at the shop, that one won't work",
    "the bike lock combo was 3390 but I replaced the lock, the old one is useless now",
    "Mum's debit card PIN was 7781, she changed it at the branch and the new one is hers alone",
    'note on the shed: "old padlock code 5528 — CHANGED, does NOT open anymore"',
    "the gate code from before the renovation (4 4 1 9) was replaced, it's a fob now",
    "पुराना पिन 4471 मैंने बदल दिया, अब वो काम नहीं करता",
    "purani wifi password Sharma@2020 badal di, ab kaam nahi karti",
    "비번 바꿨어요, Minji#2019 이거 이제 안 돼요",
    "รหัสผ่านเก่า Nok_2534 เปลี่ยนแล้ว ใช้ไม่ได้แล้วนะ",
    "mật khẩu wifi cũ Hoa@2021 đã đổi rồi, không dùng được nữa",
    "旧的门禁密码 Chen#2018 已经改了，不能用了",
    "古いパスワード Yuki!0909 は変更しました、もう使えません",
    "رمز قدیمی وای‌فای Reza@1399 رو عوض کردم، دیگه کار نمی‌کنه",
    "kata laluan lama saya Aminah#88 dah tukar, tak boleh guna lagi",
    "password lama Budi_2017 sudah diganti, tidak bisa dipakai lagi",
    "yung lumang PIN 8812 pinalitan ko na, hindi na gumagana",
    "eski wifi şifresi Ayse1990 değiştirildi, artık geçerli değil",
    "stare hasło do routera Tomek!55 zmieniłem wczoraj, już nie działa",
    "старий пароль Oksana_77 я поміняла, вже не діє",
    "Das alte Kennwort vom Büro-PC (das mit dem Hundenamen) ist geändert und funktioniert nicht mehr.",
    "de oude code (die met 9 eindigde) werkt niet meer",
]
# The same words with a live value: a new one given, one still working, "if" it fails, nobody
# changed it, a value given as it is now and then "changed it", a value set and said to fail.
_LIVE = [
    "the old passcode Tulip1948 doesn't work, the new one is Harbour!2031",
    "the wifi password is Kiwi!Fruit7, the old one doesn't work anymore",
    "the garage code is 2280, we changed it last week",
    "the door code was 4471 yesterday, they changed it today to 9902",
    "if the old code 4471 doesn't work, try 4471#",
    "the old password Tulip!2291 was never changed",
    "the old box had SESSION_SECRET=9a8f7e6d5c4b3a2910fedcba98765432 and nobody ever rotated it",
    "the password I set for him was Welcome1! and he says it doesnt work, can you check",
    "my PIN was 1234 and it still is",
    "पासवर्ड Meera@2024 है, पुराना अब काम नहीं करता",
    "비번 Hana!2024seoul 이야, 예전 거는 이제 안 돼",
    "รหัสใหม่ Somchai@2024 ของเก่าใช้ไม่ได้แล้ว",
    "旧密码 Wang@2019 已经改了，新密码是 Li@2024x",
    "old wifi pw Sunflower88 doesn't work anymore, it's now Sunflower99",
]


@pytest.mark.parametrize("text", _DEAD)
def test_a_value_said_to_be_dead_passes(text: str) -> None:
    assert find_sensitive(text) is None


@pytest.mark.parametrize("text", _LIVE)
def test_a_live_value_beside_the_same_words_is_found(text: str) -> None:
    assert find_sensitive(text) is not None


# 2. A lock in a game, an escape room played, a book or a film, in many languages: the rules
# and the learned stage both pass it; a lock at a business, a real lock beside a game and a
# player's own login are still secrets.
_MADE_UP = [
    "the puzzle app's treasure chest needs 5-1-9 at the end of level 7, Mia can't get past it",
    "in the escape room we booked for Ana's hen do the last padlock was 3 3 0 8",
    "Leo's detective book: the safe combination 12-40-7 is hidden in the poem",
    'في اللعبة، كلمة السر لفتح الخزنة هي "برتقال" — مرحلة ٥',
    "脱出ゲームの扉の暗証番号は「2580」でした",
    "游戏里宝箱的密码是 2468，第三关",
    "小说里主角的保险箱密码是 0-3-1-4",
    "в квесте код от двери был 7712, нашли по подсказке",
    "no jogo, a senha do cadeado do vilão é 9-9-1",
    "en el juego la combinación de la caja fuerte es 3-3-9-1",
    "w grze kod do sejfu to 4-2-4-2, poziom 5",
    "oyunda kasanın şifresi 1923, ikinci bölümde",
    "방탈출에서 금고 비밀번호는 0815였어",
    "ในเกม รหัสตู้เซฟคือ 7788 นะ",
]
_REAL_LOCKS = [
    "the office door code at the escape room is 4471, staff only",
    "the garage door code is 4471 and the kids play a game in there",
    "in the game my password is Zelda#Link77",
    "游戏账号密码是 Zelda#77，别告诉别人",
    "the PIN for the kids' game console is 4471",
    "the door code on level 4 is 4471",
]


@pytest.mark.parametrize("text", _MADE_UP)
def test_a_lock_in_a_game_or_a_story_passes(text: str) -> None:
    assert find_sensitive(text) is None


@pytest.mark.parametrize("text", _REAL_LOCKS)
def test_a_real_lock_or_login_beside_a_game_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 3. A product's default: dead once changed, public when the manual or the factory is named or
# nobody has set one; under a key too ([sim_pin] "default 0000 replaced").
_DEFAULTS = [
    ("", "the alarm panel's master code is the default 1234 per the manual, the installer never set one"),
    ("", "the key safe came with a default code of 0-0-0-0 and a card saying to change it, which we did"),
    ("", "the router's default admin password admin1234 was changed during setup"),
    ("", "默认密码 123456 已经改了，不能用了"),
    ("router_admin_pin", "factory default 0000 changed on the first day, the new one is with Sam"),
    ("yubikey_pin", "set; the default 123456 replaced, PUK in the safe"),
]
_LIVE_DEFAULTS = [
    ("", "default password is admin1234 and nobody changed it"),
    ("", "the alarm code is still the installer default 1234 — we never changed it"),
    ("", "the PIN is the factory default 0000, we haven't set our own yet"),
    ("", "the default PIN 0000 was changed to 7391"),
    ("", "the TV's parental PIN is the default 0000, and the bank PIN is 4471"),
    ("sim_pin", "0000 - changed it to 4471"),
    ("sim_pin", "default 0000"),
]


@pytest.mark.parametrize(("key", "text"), _DEFAULTS)
def test_a_default_changed_or_from_the_manual_passes(key: str, text: str) -> None:
    assert find_sensitive(text, key) is None


@pytest.mark.parametrize(("key", "text"), _LIVE_DEFAULTS)
def test_a_default_still_in_use_or_a_new_value_is_found(key: str, text: str) -> None:
    assert find_by_rules(text, key) is not None


# 4. Whose password it is, named before what happened to it: after "for", "of", "від", "vom"
# and a verb of change or a bracket; the owner after it in Malay; French "je" (I) is no copula.
_WHOSE = [
    "the admin password for SRV-FILE-02 expired and was rotated by LAPS",
    "пароль від Ощад24 змінив, старий не діє",
    "das Kennwort vom Kassen-PC (das kurze) ist seit Montag geändert",
    "le mot de passe du compte Ameli je l'ai changé hier, l'ancien ne marche plus",
    "kata laluan CIMBclicks saya dah tukar, yang lama tak boleh guna lagi",
]
_WHOSE_LIVE = [
    "the admin password for SRV-FILE-02 is Tr4nsit!Blue",
    "пароль від Ощад24: Oksana!1988",
    "le mot de passe du compte Ameli est Lavande#2024",
    "kata laluan CIMBclicks saya ialah Melaka!1957",
    "heslo k wifi je Kiwi!Fruit7",
]


@pytest.mark.parametrize("text", _WHOSE)
def test_whose_password_it_is_is_no_value(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize("text", _WHOSE_LIVE)
def test_a_password_given_for_the_same_owner_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 5. A setting whose value is read from elsewhere (a YAML tag: Home Assistant's "!secret" and
# "!env_var", CloudFormation's "!Ref"), said to be a hash, kept in a file in a home directory,
# or a command's flag named in a note ("don't put the pw after -p").
_REFERENCES = [
    "wifi_password: !secret wifi_pw\napi_key: !secret openweather_key",
    "mqtt:\n  username: ha\n  password: !env_var MQTT_PASSWORD",
    "DBPassword: !Ref DatabasePasswordParam",
    "the zigbee2mqtt token lives in secrets.yaml, the config just says token: !secret, nothing else",
    "become password file: ~/.ansible/become_pass, chmod 600",
]
_GIVEN_VALUES = [
    "wifi_password: Kiwi!Fruit7\napi_key: !secret openweather_key",
    "mqtt:\n  username: ha\n  password: Tr4nsit!Blue",
    'network={\n  ssid="shed-cam"\n  psk="Kiwi!Fruit77"\n}',
    "mysqldump -u backup -pS3cret!x shop_db > dump.sql",
    "the secret is Kiwi!Fruit77",
]


@pytest.mark.parametrize("text", _REFERENCES)
def test_a_value_read_from_elsewhere_passes(text: str) -> None:
    assert find_sensitive(text) is None


@pytest.mark.parametrize("text", _GIVEN_VALUES)
def test_a_value_given_in_the_same_setting_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


def test_a_flag_named_in_a_note_is_no_password() -> None:
    # (the learned stage alone still reads "mysqldump -u backup -p shop_db" as a password: 21d)
    text = "mysqldump -u backup -p shop_db > dump.sql   (it asks for the password, never type it after -p)"
    assert find_by_rules(text) is None


def test_a_setting_said_hashed_is_no_value_to_the_rules() -> None:
    # (the learned stage retrained by 21d still reads "psk=HASHED" as a value: listed for it)
    assert find_by_rules('network={\n  ssid="shed-cam"\n  psk=HASHED (from wpa_passphrase)\n}') is None


# 6. Talk with no value: spam's code or a reference said to be one, whoever set it, sent to
# someone, Arabizi's little words with digits, a product's name in mixed case.
_NO_VALUE = [
    "grandad got a text 'claim your parcel' with code PARCEL77 — it's spam, deleted it",
    "予約コード: RSV-20418 (パスワードではありません、参照用)",
    "senha do wifi: ele mesmo trocou, eu não sei",
    "el password bta3 el router 3ala el sticker ta7t",
    "Nytt lösenord är skickat till chefen via sms",
    "password sementara sudah dikirim lewat WhatsApp ke manajernya",
]


@pytest.mark.parametrize("text", _NO_VALUE)
def test_talk_with_no_value_passes_the_rules(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    ["the verification code is 482913 — it's spam? no, it's from the bank", "el password bta3 el wifi: Kiwi!Fruit7"],
)
def test_a_value_beside_the_same_words_is_found(text: str) -> None:
    assert find_by_rules(text) is not None
