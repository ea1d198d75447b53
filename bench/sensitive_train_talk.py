"""Counts that open nothing, and talk about a secret that gives none, for training the learned
stage (training only, never scored; session 22e).

21d's retrain left two families to the model's guess (docs/security.md, "Session 21d"):
- counts and tallies: "the votes were 4471 to 2291, with 3380 abstaining" was refused, since a
  four-digit number leans to "code" everywhere (the shape feature `g:4` rose with K and L's many
  door and backup codes) and no family said what a vote, a head count or a stock level is;
- help-desk narration about a secret with no value in it (a password was reset and the
  temporary one went by SMS; a code was changed and will be given in person), with the ticket
  numbers, phones and message ids such texts carry: K and L's help-desk texts weigh "temporary
  password" and "code changed" more, and three older labels broke.

The cause in both is the same: the words around the numbers say what the numbers are of (a
vote, a crowd, a shelf; a ticket, a phone, a message), and the secret's words stand with no
value after them. So the families give many kinds of count and many layouts of narration
(chat, a ticket, a log line, a JSON message, a form), in many languages, and, matched with the
narration, the same narration with the value given (positives), so that only the value's
presence tells them apart. Written by hand, not from any corpus part, the filter's patterns or
the tests' words (tests/unit/test_sensitive_learned_talk.py uses other wordings).
"""

from __future__ import annotations

import random


def _count(r: random.Random) -> str:
    """A count as people write it: mostly four bare digits (the shape that leans to "code"), or
    three or five, sometimes with a thousands mark of their language."""
    n = r.choice((r.randint(100, 999), r.randint(1000, 9999), r.randint(1000, 9999), r.randint(10000, 99999)))
    style = r.randrange(10)
    if style == 0 and n >= 1000:
        return f"{n:,}"
    if style == 1 and n >= 1000:
        return f"{n:,}".replace(",", ".")
    if style == 2 and n >= 1000:
        return f"{n:,}".replace(",", " ")
    return str(n)


# ---- counts and tallies ------------------------------------------------------------------------

# {a} {b} {c}: counts. Votes, attendance, stock, scores, census and survey figures, club and
# household tallies, and what a job's log or a scanned receipt counts.
_COUNTS: tuple[str, ...] = (
    # English
    "the motion carried {a} votes to {b}, and {c} members abstained",
    "final tally: yes {a}, no {b}, spoiled {c}",
    "she won the ward with {a} votes; the runner-up got {b}",
    "turnout was {a} out of {b} registered voters",
    "the petition has {a} signatures, we need {b}",
    "attendance: {a} on Saturday and {b} on Sunday, about {c} more than last year",
    "{a} people came to the open day",
    "the festival sold {a} tickets, {b} of them on the gate",
    "stock check: {a} tins, {b} packs of rice, {c} bottles of oil",
    "we have {a} units left in the warehouse and reorder at {b}",
    "the food bank handed out {a} parcels this month",
    "the final score was {a} to {b}",
    "the village has {a} residents in {b} households",
    "population {a} at the last census, {b} ten years before",
    "we surveyed {a} households and vaccinated {b} children in the district",
    "counted {a} trees on the plot and {b} seedlings",
    "the bird count this morning: {a} starlings, {b} gulls",
    "{a} members have paid their subs, {b} still owe",
    "the kitty for the house is at {a}, bills take {b} a month",
    "meter at move-in {a}, at move-out {b}",
    "processed {a} records, {b} skipped, {c} failed",
    "sent {a} emails, {b} bounced, {c} opened",
    "queue depth {a}, consumers {b}, lag {c}",
    "rows inserted: {a}; rows updated: {b}",
    "TOTAL ITEMS {a}   QTY {b}",
    "downloads last week: {a}, this week: {b}",
    "the stadium holds {a}; {b} turned up",
    "beds occupied {a} of {b}",
    "the march drew about {a} people, police said {b}",
    "we raised {a} at the bake sale and {b} at the raffle",
    # French, German, Spanish, Portuguese, Italian, Dutch, Polish, Swedish, Turkish, Indonesian
    "la motion est adoptée par {a} voix contre {b}, {c} abstentions",
    "{a} visiteurs samedi et {b} dimanche",
    "il reste {a} cartons en stock, commande à {b}",
    "Ergebnis: {a} Ja-Stimmen, {b} Nein-Stimmen, {c} Enthaltungen",
    "Zum Fest kamen {a} Besucher, im Vorjahr {b}",
    "Lagerbestand {a} Stück, Mindestbestand {b}",
    "la propuesta ganó con {a} votos a favor y {b} en contra, {c} abstenciones",
    "asistieron {a} personas, el año pasado {b}",
    "quedan {a} unidades en el almacén",
    "a chapa venceu com {a} votos contra {b}; {c} brancos",
    "o censo contou {a} moradores em {b} domicílios",
    "la mozione è passata con {a} voti a {b}, {c} astenuti",
    "de motie werd aangenomen met {a} stemmen tegen {b}",
    "wniosek przeszedł {a} głosami przeciw {b}, {c} wstrzymało się",
    "förslaget vann med {a} röster mot {b}",
    "önerge {a} oya karşı {b} oyla kabul edildi",
    "hasil rapat: {a} setuju, {b} menolak, {c} abstain",
    "jumlah pengunjung {a} orang, tahun lalu {b}",
    # Russian, Kazakh, Georgian, Armenian, Arabic, Urdu, Hindi, Bengali, Sinhala
    "за проголосовали {a}, против {b}, воздержались {c}",
    "на складе {a} штук, заказ при {b}",
    "ауылда {a} тұрғын, {b} үй бар",
    "дауыс беру: жақтап {a}, қарсы {b}",
    "ხმა მისცა {a}, წინააღმდეგ {b}",
    "სოფელში {a} მცხოვრებია",
    "կողմ՝ {a}, դեմ՝ {b}, ձեռնպահ՝ {c}",
    "համերգին եկավ {a} մարդ",
    "صوّت {a} لصالح القرار و{b} ضده وامتنع {c}",
    "حضر المهرجان {a} شخص",
    "قرارداد کے حق میں {a} ووٹ اور مخالفت میں {b} ووٹ پڑے",
    "گودام میں {a} بوریاں باقی ہیں",
    "प्रस्ताव के पक्ष में {a} और विपक्ष में {b} वोट पड़े",
    "मेले में {a} लोग आए",
    "প্রস্তাবের পক্ষে {a} ভোট, বিপক্ষে {b} ভোট",
    "গ্রামে {a} জন বাসিন্দা, {b}টি পরিবার",
    "පක්ෂව ඡන්ද {a}, විපක්ෂව {b}",
    "ගබඩාවේ ඒකක {a} ක් ඉතිරියි",
    # Amharic, Yoruba, Swahili, Burmese, Khmer, Thai, Vietnamese, Japanese, Chinese, Korean
    "ድምጽ፡ ድጋፍ {a}፣ ተቃውሞ {b}",
    "በስብሰባው {a} ሰዎች ተገኙ",
    "ìbò: bẹ́ẹ̀ni {a}, bẹ́ẹ̀kọ́ {b}",
    "èèyàn {a} ló wá síbi ìpàdé",
    "kura: ndiyo {a}, hapana {b}",
    "ထောက်ခံမဲ {a}၊ ကန့်ကွက်မဲ {b}",
    "ရွာတွင် လူဦးရေ {a} ဦး ရှိသည်",
    "សំឡេងគាំទ្រ {a} សំឡេងប្រឆាំង {b}",
    "មានអ្នកចូលរួម {a} នាក់",
    "คะแนนเห็นด้วย {a} ไม่เห็นด้วย {b} งดออกเสียง {c}",
    "มีผู้เข้าร่วมงาน {a} คน",
    "có {a} phiếu thuận, {b} phiếu chống",
    "賛成 {a} 票、反対 {b} 票、棄権 {c} 票",
    "来場者は {a} 人でした",
    "赞成 {a} 票，反对 {b} 票，弃权 {c} 票",
    "库存还有 {a} 件",
    "찬성 {a}표, 반대 {b}표, 기권 {c}표",
)


def counts_not_codes(r: random.Random) -> list[tuple[str, str]]:
    """Counts and tallies of a code's shape that open nothing: votes, attendance, stock,
    scores, census and survey figures, a club's or a shared house's sums, a job's counters, in
    many languages and layouts. Negatives: (key, text)."""
    rows: list[tuple[str, str]] = []
    for _ in range(8):
        for template in _COUNTS:
            rows.append(("", template.format(a=_count(r), b=_count(r), c=_count(r))))
    keys = ("vote_count", "attendance", "stock_level", "census", "results", "tally", "headcount")
    for _ in range(40):
        rows.append((r.choice(keys), " / ".join(_count(r) for _ in range(r.randint(2, 4)))))
    return rows


# ---- a number per person: a tally, or a code ---------------------------------------------------

# The same shape ("Ava 4471, Ben 2291"): a score, a count or a sum per person opens nothing; a
# code or a PIN per person (flatmates, a club's members, staff, children) is a secret. Only the
# words before the list tell them apart. (label or None, template): {P} is the list.
_PER_PERSON: tuple[tuple[str | None, str], ...] = (
    (None, "points this season: {P}"),
    (None, "steps today {P}"),
    (None, "votes per candidate: {P}"),
    (None, "sales this quarter by rep: {P}"),
    (None, "the quiz scores were {P}"),
    (None, "miles run in the challenge: {P}"),
    (None, "what everyone owes for the electricity: {P}"),
    (None, "subs paid so far: {P}"),
    (None, "Punkte pro Spieler: {P}"),
    (None, "points par joueur : {P}"),
    (None, "goles en la temporada: {P}"),
    (None, "পয়েন্ট: {P}"),
    (None, "امتیازها: {P}"),
    ("secret", "front door codes for the flatmates: {P}"),
    ("secret", "each member's locker combination: {P}"),
    ("secret", "staff alarm PINs: {P}"),
    ("secret", "the children's tablet passcodes: {P}"),
    ("secret", "personal door codes for the cleaners {P}"),
    ("secret", "Zugangscodes der Mitbewohner: {P}"),
    ("secret", "codes d'accès de chaque coloc : {P}"),
    ("secret", "claves de la alarma por persona: {P}"),
    ("secret", "দরজার কোড: {P}"),
    ("secret", "کد در برای هر نفر: {P}"),
)
_PEOPLE = ("Ava", "Ben", "Cleo", "Dev", "Esi", "Femi", "Gus", "Hana", "Ivo", "Jun", "Kemi", "Luca", "Mo", "Nia")


def per_person(r: random.Random) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """A number per person: (negatives as (key, text): tallies, scores and sums; positives as
    (label, text): a code or a PIN each)."""
    negatives: list[tuple[str, str]] = []
    positives: list[tuple[str, str]] = []
    for _ in range(8):
        for label, template in _PER_PERSON:
            digits = r.choice((4, 4, 4, 5, 6)) if label else r.choice((3, 4, 4, 4, 5))
            people = r.sample(_PEOPLE, r.randint(2, 5))
            cells = [f"{p} {r.randint(10 ** (digits - 1), 10**digits - 1)}" for p in people]
            text = template.format(P=r.choice((", ".join(cells), "; ".join(cells), " ".join(cells))))
            if label:
                positives.append((label, text))
            else:
                negatives.append(("", text))
    return negatives, positives


# ---- talk about a secret with no value -----------------------------------------------------------

# (language, narration with no value, narration with the value given: {v})
_TALK: tuple[tuple[str, str, str], ...] = (
    (
        "en",
        "IT reset my login and the temporary password went to my mobile by text",
        "IT reset my login, the temporary password is {v}",
    ),
    (
        "en",
        "the helpdesk unlocked the account; a one-time password is sent by SMS when you sign in",
        "the helpdesk unlocked the account, one-time password {v}",
    ),
    (
        "en",
        "the gate code has changed, ring me when you're outside and I'll read it out",
        "the gate code has changed, it's {v} now",
    ),
    ("en", "new alarm code is set, I'll tell you in person tomorrow", "new alarm code is set: {v}"),
    (
        "en",
        "password reset done, the link went to your work email and expires in a day",
        "password reset done, use {v} and change it at first login",
    ),
    ("en", "I changed the wifi password, it's written on the back of the router", "I changed the wifi password to {v}"),
    ("en", "your new PIN comes in a separate letter, usually within five days", "your new PIN is {v}"),
    ("en", "don't put the lockbox code in the group chat, I'll send it privately", "lockbox code for the flat is {v}"),
    (
        "en",
        "user locked out after too many tries, unlocked and forced a password change at next logon",
        "user locked out, unlocked, temp password set to {v}",
    ),
    (
        "en",
        "the verification code expired, request another one from the app",
        "the verification code is {v}, it expires in ten minutes",
    ),
    (
        "fr",
        "le compte a été réinitialisé et le mot de passe provisoire envoyé par SMS",
        "le compte a été réinitialisé, mot de passe provisoire : {v}",
    ),
    ("fr", "le code du portail a changé, je te le donne quand tu arrives", "le code du portail a changé, c'est {v}"),
    (
        "de",
        "das Konto wurde entsperrt, das Einmalpasswort kommt per SMS",
        "das Konto wurde entsperrt, Einmalpasswort {v}",
    ),
    ("de", "der Türcode ist neu, ich sag ihn dir, wenn du da bist", "der Türcode ist neu: {v}"),
    (
        "es",
        "me resetearon la cuenta y la contraseña temporal me llegó por SMS",
        "me resetearon la cuenta, la contraseña temporal es {v}",
    ),
    ("es", "cambiamos la clave del portón, te la digo cuando llegues", "cambiamos la clave del portón, ahora es {v}"),
    ("pt", "o código do portão mudou, te passo pessoalmente", "o código do portão mudou, agora é {v}"),
    ("pt", "a senha provisória foi enviada por SMS para o celular cadastrado", "a senha provisória é {v}"),
    ("it", "il codice del cancello è cambiato, te lo dico a voce", "il codice del cancello è cambiato, ora è {v}"),
    (
        "nl",
        "het account is gereset en het tijdelijke wachtwoord is per sms verstuurd",
        "het account is gereset, tijdelijk wachtwoord {v}",
    ),
    ("pl", "hasło zresetowane, tymczasowe przyszło SMS-em", "hasło zresetowane, tymczasowe to {v}"),
    ("tr", "şifre sıfırlandı, geçici şifre SMS ile gönderildi", "şifre sıfırlandı, geçici şifre {v}"),
    (
        "id",
        "password sudah direset, password sementara dikirim lewat SMS",
        "password sudah direset, password sementara {v}",
    ),
    ("hi", "password reset ho gaya, naya password SMS pe aayega", "password reset ho gaya, naya password {v} hai"),
    ("ru", "пароль сбросили, временный пароль пришёл по СМС", "пароль сбросили, временный пароль {v}"),
    (
        "kk",
        "құпия сөз қалпына келтірілді, уақытша құпия сөз SMS арқылы жіберілді",
        "құпия сөз қалпына келтірілді, уақытша құпия сөз: {v}",
    ),
    ("ka", "პაროლი განულდა, დროებითი პაროლი SMS-ით გამოგიგზავნეს", "პაროლი განულდა, დროებითი პაროლი: {v}"),
    ("hy", "գաղտնաբառը վերականգնվեց, ժամանակավորը ուղարկվել է SMS-ով", "գաղտնաբառը վերականգնվեց, ժամանակավորը՝ {v}"),
    (
        "ar",
        "تمت إعادة تعيين كلمة المرور وأُرسلت كلمة مؤقتة برسالة نصية",
        "تمت إعادة تعيين كلمة المرور، الكلمة المؤقتة {v}",
    ),
    (
        "ur",
        "پاس ورڈ ری سیٹ ہو گیا، عارضی پاس ورڈ ایس ایم ایس پر بھیج دیا گیا",
        "پاس ورڈ ری سیٹ ہو گیا، عارضی پاس ورڈ {v} ہے",
    ),
    ("bn", "পাসওয়ার্ড রিসেট হয়েছে, অস্থায়ী পাসওয়ার্ড এসএমএসে পাঠানো হয়েছে", "পাসওয়ার্ড রিসেট হয়েছে, অস্থায়ী পাসওয়ার্ড {v}"),
    ("si", "මුරපදය යළි සැකසුවා, තාවකාලික මුරපදය SMS එකෙන් එව්වා", "මුරපදය යළි සැකසුවා, තාවකාලික මුරපදය {v}"),
    ("am", "የይለፍ ቃሉ ተቀይሯል፣ ጊዜያዊው በኤስኤምኤስ ተልኳል", "የይለፍ ቃሉ ተቀይሯል፣ ጊዜያዊው {v} ነው"),
    ("yo", "wọ́n ti yí ọ̀rọ̀ aṣínà padà, wọ́n fi tuntun ránṣẹ́ ní SMS", "wọ́n ti yí ọ̀rọ̀ aṣínà padà, tuntun ni {v}"),
    ("my", "စကားဝှက်ကို ပြန်သတ်မှတ်ပြီး ယာယီစကားဝှက်ကို SMS ဖြင့် ပို့ထားသည်", "စကားဝှက်ကို ပြန်သတ်မှတ်ပြီး ယာယီစကားဝှက်မှာ {v}"),
    ("km", "ពាក្យសម្ងាត់ត្រូវបានកំណត់ឡើងវិញ ហើយបានផ្ញើតាម SMS", "ពាក្យសម្ងាត់ត្រូវបានកំណត់ឡើងវិញ ពាក្យសម្ងាត់ថ្មីគឺ {v}"),
    ("th", "รีเซ็ตรหัสผ่านแล้ว รหัสชั่วคราวส่งไปทาง SMS", "รีเซ็ตรหัสผ่านแล้ว รหัสชั่วคราวคือ {v}"),
    ("vi", "đã đặt lại mật khẩu, mật khẩu tạm thời gửi qua SMS", "đã đặt lại mật khẩu, mật khẩu tạm thời là {v}"),
    (
        "ja",
        "パスワードをリセットしてもらい、仮パスワードはSMSで届きました",
        "パスワードをリセットしてもらいました。仮パスワードは {v} です",
    ),
    ("zh", "账号已重置，临时密码已通过短信发送", "账号已重置，临时密码是 {v}"),
    (
        "ko",
        "비밀번호를 재설정했고 임시 비밀번호는 문자로 보냈습니다",
        "비밀번호를 재설정했고 임시 비밀번호는 {v} 입니다",
    ),
)


def _value(r: random.Random) -> str:
    """A value of the kinds such narration gives: a PIN or code, or a typed password."""
    letters = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    kind = r.randrange(3)
    if kind == 0:
        return "".join(str(r.randint(0, 9)) for _ in range(r.choice((4, 5, 6))))
    if kind == 1:
        return "".join(r.choice(letters + "23456789") for _ in range(r.randint(8, 12)))
    return r.choice(("Spring", "Harbor", "Tiger", "Maple")) + str(r.randint(10, 99)) + r.choice("!#$%")


def _envelope(r: random.Random, body: str) -> str:
    """The layouts the narration arrives in, each with the numbers such a layout carries (a
    ticket's number, a phone, a message's id, a time), none of them the secret."""
    ticket = f"{r.choice(('INC', 'SR', 'TCK', 'CASE'))}{r.randint(100000, 9999999)}"
    phone = f"+{r.randint(1, 99)} {r.randint(100, 999)} {r.randint(1000000, 9999999)}"
    msg_id = "wamid." + "".join(r.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") for _ in range(r.randint(24, 40)))
    stamp = f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d} {r.randint(0, 23):02d}:{r.randint(0, 59):02d}"
    layout = r.randrange(7)
    if layout == 0:
        return body
    if layout == 1:
        return f"Ticket {ticket} ({stamp}): {body}. Caller {phone}."
    if layout == 2:
        return (
            f'{{"from": "{phone.replace(" ", "").lstrip("+")}", "id": "{msg_id}", '
            f'"timestamp": "{r.randint(1700000000, 1800000000)}", "text": {{"body": "{body}"}}}}'
        )
    if layout == 3:
        return f"[{stamp}] {r.choice(('INFO', 'NOTE', 'AUDIT'))} agent={r.randint(100, 9999)} {body}"
    if layout == 4:
        return f"{stamp} - {r.choice(('Sam', 'Ade', 'Lina', 'Joon', 'Tigist'))}: {body}"
    if layout == 5:
        return f"Case {ticket}\nStatus: resolved\nNotes: {body}\nCallback: {phone}"
    return f"{body} (ref {ticket}, {stamp})"


def secret_talk(r: random.Random) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Help-desk and household narration about a secret: (negatives as (key, text), with no value
    given; positives as (label, text), the same narration with the value given), each in the
    layouts it arrives in."""
    negatives: list[tuple[str, str]] = []
    positives: list[tuple[str, str]] = []
    for _ in range(5):
        for _lang, without, with_value in _TALK:
            negatives.append(("", _envelope(r, without)))
            positives.append(("secret", _envelope(r, with_value.format(v=_value(r)))))
    return negatives, positives
