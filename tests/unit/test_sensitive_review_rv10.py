"""Review of session 13 (rv10): look-alikes of the families held-out N's fixes reach, written as
people put them in an assistant's memory (group chats, shopping lists, addresses, phone numbers,
course and product codes, in the languages and scripts the new rules name), each seen red on the
fix's commit before the change here, and the values of the same kind that must stay found."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules


def _secret(text: str) -> bool:
    found = find_by_rules(text)
    return found is not None and found.rule == "secret"


# 1. A group chat's reply (23a, call_turns.code_in_a_chat_reply): a turn asking for a code and a
# later turn that is only digits. A course's, a module's, a customer's, a colour's, an event's
# code and a country's dialling code are asked for the same way, and a build log's "[tag] text"
# lines ending in ";" read as Greek questions.
@pytest.mark.parametrize(
    "text",
    [
        "group chat:\n[Sam] what's the dialling code for Spain?\n[Ana] 0034\n[Sam] cheers",
        "group chat:\n[Sam] what's the course code for stats?\n[Ana] 4471\n[Sam] cheers",
        "group chat:\n[Sam] which module code is the stats exam?\n[Ana] 5531\n[Sam] cheers",
        "group chat:\n[Sam] what's the customer code on the invoice?\n[Ana] 882130\n[Sam] cheers",
        "group chat:\n[Sam] what's the colour code for the kit?\n[Ana] 2287\n[Sam] cheers",
        "group chat:\n[Sam] what's the event code in the app?\n[Ana] 4471\n[Sam] cheers",
        "build log:\n[compile] code generation done;\n[link] 2048\n[done] ok",
    ],
)
def test_a_chat_reply_to_another_code_is_no_secret(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "group chat, pasted:\n[Pat] reminder: code for the hall is the same as last year\n[Quinn] which was?\n[Pat] 7710",
        "group chat:\n[Linh] bank sent a code to the treasurer phone, whoever has it pls send\n[Marcus] 771 062",
        "[Μαρία] ποιος έχει τον κωδικό του ντουλαπιού με τις στολές;\n[Κώστας] 2-7-0-4\n[Μαρία] ευχαριστώ!",
        "group chat:\n[Sam] what's the door code?\n[Ana] 4471\n[Sam] cheers",
    ],
)
def test_a_chat_reply_with_the_code_asked_for_stays_found(text: str) -> None:
    assert _secret(text)


# 2. Words 23a added whose letters open other words or name other things: "Ramzi" (a given name)
# read as Persian "ramz-i"; "TAC", Malaysia's bank code, is a phone's type code beside an IMEI
# (eight digits); Malay's and Indonesian's "Bab" is a chapter, not Arabizi's door; "cổng" is a
# network's port and a payment gateway, beside a transaction's, an error's, a product's code.
@pytest.mark.parametrize(
    "text",
    [
        "call Ramzi on 0791 234 567 about the van",
        "Ramzi owes me 2845 dinars for the tickets",
        "Ramzi's room number is 2845, third floor",
        "IMEI TAC code 35391110 is a Samsung, the rest is the serial",
        "TAC 35391110 on the phone box, model SM-A546",
        "Materi kuliah: Bab 3, kode mata kuliah 4471",
        "kod kursus 4471, rujuk Bab 3 dalam buku",
        "Cổng thanh toán VNPay, mã giao dịch 14082291, số tiền 250.000đ",
        "cổng 8080 bị chặn trên router, mã lỗi 502",
        "mã sản phẩm 4471 ở cổng số 3 của chợ",
    ],
)
def test_a_word_that_only_looks_like_a_code_or_its_lock_is_none(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "ramz avval karte baba 2845, az atm pool begir",
        "ramze gooshim 1-3-7-9",
        "kod TAC 730912 untuk pindahan duit yuran",
        "TAC 881204 dari Maybank",
        "code el bab 5519 ya habibi",
        "mã cổng kho hàng: 1990",
    ],
)
def test_the_codes_those_words_name_stay_found(text: str) -> None:
    assert _secret(text)


# 3. A lock's or a code's word in the other scripts (23a) read as a prefix: "लॉक" opens
# "लॉकडाउन" (lockdown), "ताला"/"تالا" open "तालाब"/"تالاب" (a pond), Amharic "በር" opens "በርበሬ"
# (pepper) and "በርካታ" (many), Lao "ປະຕູ" opens "ປະຕູໄຊ" (Vientiane's Patuxai); a product's,
# a postal and an area code in Lao and Urdu; a safety pin in Malayalam and Gujarati; Kannada's
# postal "PIN code" with a zero-width joiner between its words.
@pytest.mark.parametrize(
    "text",
    [
        "लॉकडाउन के बाद स्कूल कोड 2020 वाला फॉर्म भरना है",
        "تالاب کے پاس والا اسکول، اسکول کوڈ ۳۲۱۰",
        "گیٹ نمبر 3 پر ملنا، ایریا کوڈ ۰۴۲",
        "የዕቃ ኮድ 2287 በርበሬ 1 ኪሎ",
        "በርካታ ዕቃዎች ኮድ 4471 አላቸው",
        "ລະຫັດໄປສະນີ 01000 ໃກ້ປະຕູໄຊ",
        "ຮ້ານຢູ່ໃກ້ປະຕູໄຊ ລະຫັດສິນຄ້າ 5028",
        "സേഫ്റ്റി പിൻ 100 എണ്ണം, സൂചി 10, നൂൽ 2",
        "સેફ્ટી પિન ૧૦૦ નંગ, દોરો ૨ રીલ",
        "ಪಿನ್\u200cಕೋಡ್ 560001, ಬೆಂಗಳೂರು",
    ],
)
def test_a_script_word_that_opens_another_word_is_no_lock(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "የቤቱ በር ኮድ 6061 ነው፣ ለሰራተኛዋ ንገሪያት",
        "ढोकाको लक कोड १९७२ हो, चाबी छैन भने यही थिच्नू",
        "گھر کے مین گیٹ کا کوڈ ۲۵۸۰ ہے، ماسی آئے تو بتا دینا",
        "ഉമ്മാ, ഗൂഗിൾ പേ പിൻ 7305, ഫീസ് അടച്ചോളൂ",
        "બા, ગૂગલ પે પિન ૩૯૪૧ છે, દૂધવાળાને પૈસા આપી દેજો",
        "ಮನೆ ಬಾಗಿಲಿನ ಕೋಡ್ 3690, ಕೆಲಸದವರಿಗೆ ಹೇಳಿ",
    ],
)
def test_the_script_codes_stay_found(text: str) -> None:
    assert _secret(text)


# 4. A phone number after a code's or a lock's word (23a's new words): a locksmith's number in
# Swahili, a treasurer's phone in Malay, a number to call in Czech and Armenian. Grouped digits
# of nine or more are a phone's, not a code's.
@pytest.mark.parametrize(
    "text",
    [
        "namba ya simu ya fundi wa kufuli ni 0712 345 678, mpigie kesho",
        "kod TAC tak sampai lagi, telefon bendahari 012-345 6789",
        "jednorázový kód nepřišel, zavolej na 800 123 456",
        "mutqi kod@ chgitem, kuryer@ zangi 091 234567",
    ],
)
def test_a_phone_number_after_a_code_word_is_no_code(text: str) -> None:
    assert find_by_rules(text) is None


# 5. A device's web page and its login (23a's c5ef54c, secret_formats._device_login): the "/" after
# "admin" or "user" that opens a page's path or a file's name ("admin/ISAPI/System/deviceInfo",
# "user/guide_v2.pdf", "admin/Wireless_5G.html") read as the login's password.
@pytest.mark.parametrize(
    "text",
    [
        "camera config at 192.168.1.64 admin/ISAPI/System/deviceInfo returns the model",
        "printer 10.0.0.5 - user/guide_v2.pdf on the support site",
        "the NAS at 192.168.1.20: admin/shares/Photos_2024 is where the backups go",
        "http://10.0.0.1 admin/Wireless_5G.html has the channel settings",
        "Grafana at http://10.1.4.22:3000 admin/dashboards/db/api-latency-p99",
    ],
)
def test_a_page_path_after_a_device_address_is_no_login(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "irrigation controller web page 192.168.1.40 admin/pivot#North",
        "router http://10.0.0.1 root / Kestrel!77",
        "NAS at 192.168.1.20 admin/Kestrel!77",
    ],
)
def test_a_device_login_stays_found(text: str) -> None:
    assert _secret(text)


# 6. A hunt set for players or a puzzle's answer (23b, made_up_locks): named anywhere in the text,
# it made every lock in it a game's, so a real safe's code beside it passed ("after the treasure
# hunt put the float back in the office safe, code 4 2 6 8"). It is a game's only in the sentence
# that holds the code, and not as a time ("after the treasure hunt", "treasure hunt done").
@pytest.mark.parametrize(
    "text",
    [
        "treasure hunt done; the props safe (the real one, with the float) is 4 2 6 8",
        "after the treasure hunt put the float back in the office safe, code 4 2 6 8",
    ],
)
def test_a_real_safe_beside_a_treasure_hunt_stays_found(text: str) -> None:
    assert _secret(text)


@pytest.mark.parametrize(
    "text",
    [
        "in the scout treasure hunt the last chest opens with 4 2 6 8 — that's the puzzle answer, the kids have to figure it out",
        "the treasure hunt chest code is 4268, kids have to work it out from the clues",
        "scavenger hunt: the lockbox by the oak opens with 3 1 9 — puzzle answer from clue 4",
        "my kid's minecraft vault code is 1234, he thinks nobody will guess it",
    ],
)
def test_a_hunts_own_lock_stays_none(text: str) -> None:
    assert find_by_rules(text) is None


# 7. Nigeria's NUBAN and Serbia's account form (23c): a NUBAN's bank names are everyday words and
# places ("Union", "Keystone", "Sterling", "Heritage", "access"), and one ten-digit phone in ten
# passes the check for a given bank; the Serbian form's check, one number in 97, passed a part's
# number. The name must stand beside the number with only a bank's words between; the short
# Serbian form needs an account's or a payment's word.
@pytest.mark.parametrize(
    "text",
    [
        "Union Station info line 2025550123, trains to Baltimore every hour",
        "call Keystone Plumbing at 7175550121 about the leak",
        "Sterling Heights office: 5865550120, ask for Dana",
        "Heritage Hotel reception 0201234564, checkout at 11",
        "guest access: call reception on 4155550128 for the door",
        "part number 123-456789-44 for the pump seal, order two",
    ],
)
def test_a_phone_or_a_part_number_is_no_nuban_or_serbian_account(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "Access 0693182751, Fọláṣadé Àkàndé — abeg send the rent there",
        "Lambar asusuna: 2218409370 Zenith Bank, sunan: Musa Abdullahi",
        "Access 8309251477 (Kemi) — school fees for the twins",
        "Zenith Bank a/c: 2218409370",
        "send it to 2218409370 Zenith, Musa",
        "uplata za turnir: 205-0000000193847-62",
        "račun 160-4829173-89",
    ],
)
def test_a_nuban_and_a_serbian_account_stay_found(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "bank_account"
