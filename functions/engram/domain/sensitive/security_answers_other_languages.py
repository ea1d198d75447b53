"""The answer to a security question named in another language ("güvenlik sorusu: ... cevap:
...", "ответ на секретный вопрос «...» — Соколова", "秘密の質問「...」→ ポチ"): the question's
words, then the answer after the last separator on its line."""

from __future__ import annotations

import re

from engram.domain.sensitive.codes_other_languages import SCRIPTS, starts_with
from engram.domain.sensitive.secret_values import pointer
from engram.domain.sensitive.secret_words import NOT_A_VALUE

_QUESTION = re.compile(
    r"(?:questions?|r[ée]ponses?)\s+(?:secr[èe]tes?|de\s+s[ée]curit[ée])|sicherheits(?:frage|antwort)|geheime\s+antwort"
    r"|(?:respuesta|resposta)\s+(?:de\s+seguridad|de\s+seguran[çc]a|secreta)|risposta\s+(?:segreta|di\s+sicurezza)"
    r"|sicherheitsfrage|geheimfrage|geheime\s+frage|sicherheitsabfrage|pregunta\s+(?:de\s+seguridad|secreta)"
    r"|pergunta\s+(?:de\s+seguran[çc]a|secreta)|domanda\s+(?:segreta|di\s+sicurezza)|pytani\w*\s+(?:pomocnicz|zabezpiecz|bezpiecze)\w*"
    r"|beveiligingsvraag|s[äa]kerhetsfr[åa]ga\w*|sikkerhedssp[øo]rgsm[åa]l\w*|sikkerhetssp[øo]rsm[åa]l\w*|turvakysymy\w*"
    r"|g[üu]venlik\s+soru\w*|gizli\s+soru\w*|секретн\w+\s+вопрос\w*|контрольн\w+\s+вопрос\w*|таємн\w+\s+питанн\w*"
    r"|контрольн\w+\s+питанн\w*|bezpe[čc]nostn[íi]\s+ot[áa]zk\w*|biztons[áa]gi\s+k[ée]rd[ée]s\w*|[îi]ntreb[ăa]r\w*\s+de\s+securitate"
    r"|c[âa]u\s+h[ỏo]i\s+b[ảa]o\s+m[ậa]t|pertanyaan\s+keamanan|ερώτηση\s+ασφαλείας|密码提示问题|安全问题|密保问题|安全問題|秘密の質問"
    r"|質問の答え|보안\s*질문|השאלה\s*הסודית|שאלת\s*(?:ה)?אבטחה|سؤال\s*الأمان|السؤال\s*السري|سوال\s*امنیتی|सुरक्षा\s*प्रश्न"
    # in the other Indic scripts, Urdu, Georgian, Armenian, Amharic, Thai; or named in English
    # before a question in another language ("gmail recovery question: প্রথম স্কুলের নাম? উত্তর: ...")
    r"|নিরাপত্তা\s*প্রশ্ন|ਸੁਰੱਖਿਆ\s*ਸਵਾਲ|સુરક્ષા\s*પ્રશ્ન|பாதுகாப்பு\s*கேள்வி|భద్రతా\s*ప్రశ్న|ಭದ್ರತಾ\s*ಪ್ರಶ್ನೆ"
    r"|സുരക്ഷാ\s*ചോദ്യ|حفاظتی\s*سوال|უსაფრთხოების\s*კითხვა|საიდუმლო\s*კითხვა|անվտանգության\s*հարց"
    r"|የደህንነት\s*ጥያቄ|คำถาม(?:ความปลอดภัย|กันลืม)|(?:security|secret|recovery)\s+question",
    re.IGNORECASE,
)
# The answer's separator: the last one on the line after the question names the answer.
_ANSWER = re.compile(
    r"(?:\s*(?:[:：=]|->|→|=>|—|–|\s-)\s*|\s+(?:ist|est|es|é|è|jest|je|er|är|on|это|—)\s+(?=[^\W\d_]*[A-ZÀ-ÞА-ЯΑ-Ω]))"
    r"[\"“«「『„]?(?P<value>[^\s\"”»」』:：=→—–]+(?:[ \-][^\s\"”»」』:：=→—–(]+){0,3})[\"”»」』]?"
    r"\s*(?:\(.*\))?[\s,.!]*$"
)


# A quoted answer after its copula or separator, with more said after it ('... è "Zia Pina",
# la scrivo con la maiuscola?').
_QUOTED_ANSWER = re.compile(
    r"[^\n\"“«„「『]{0,30}?(?:[:：=]|->|→|—|\s(?:ist|est|es|é|è|jest|je|er|är|on|это|is))\s*[\"“«„「『]"
    r"(?P<value>[^\"”»“」』\n]{2,40})[\"”»“」』]"
)


# The same after French "c'est", with the account named between ("la réponse à ma question
# secrète sur le compte Campus France c'est « Tintin »"): read only when the answer is named
# before the question ("la question secrète ... c'est « personnage préféré »" gives the question).
_QUOTED_ANSWER_CEST = re.compile(
    r"[^\n\"“«„「『]{0,50}?(?<![\w])c['’]est\s*[\"“«„「『](?P<value>[^\"”»“」』\n]{2,40})[\"”»“」』]", re.IGNORECASE
)
_ANSWER_NAMED = re.compile(r"r[ée]ponse", re.IGNORECASE)


# First words that say there is no answer here ("je ne sais plus", "не помню", "weiß ich nicht").
_NOT_AN_ANSWER = frozenset(
    [
        *("je", "ich", "yo", "eu", "io", "ik", "jag", "jeg", "minä", "en", "ben", "я", "не", "ne", "nie", "non", "no"),
        *("não", "nao", "nicht", "pas", "kein", "keine", "weiß", "weiss", "sais", "sé", "so", "sei", "weet", "vet"),
        *("ved", "tiedä", "bilmiyorum", "hatırlamıyorum", "помню", "знаю", "nevím", "nepamatuji", "vergessen"),
        *("oublié", "olvidé", "esqueci", "dimenticato", "zapomniałem", "zapomniałam", "unknown", "unbekannt"),
        # what is still to do ("à définir", "por definir", "tbd")
        *("à", "a", "por", "da", "zu", "tbd", "todo", "pending", "offen", "n/a"),
    ]
)


_QUESTION_PREFIXES = (
    *(
        "secrète",
        "secrete",
        "sécurité",
        "sicherheitsfrage",
        "geheimfrage",
        "sicherheitsabfrage",
        "pregunta",
        "pergunta",
        "domanda",
        "pytani",
        "beveiligingsvraag",
        "säkerhet",
    ),
    *("sakerhet", "sikkerhed", "sikkerhet", "turvakysym", "güvenlik", "guvenlik", "gizli", "секретн", "контрольн"),
    *("таємн", "bezpečnost", "bezpecnost", "biztonsági", "biztonsagi", "întreb", "intreb", "câu", "cau"),
    *("pertanyaan", "ερώτηση", "réponse", "reponse", "respuesta", "resposta", "risposta", "geheime"),
)


def security_answer_in_other_language(text: str, words: frozenset[str]) -> bool:
    if not starts_with(words, _QUESTION_PREFIXES) and (text.isascii() or SCRIPTS.search(text) is None):
        return False
    questions = list(_QUESTION.finditer(text))
    for i, q in enumerate(questions):
        after = questions[i + 1] if i + 1 < len(questions) else None
        # (up to the line's end or the next question on it: each question read the rest of its
        # line, and a line of 6,000 questions took 56 s at 90,000 characters; review rv6)
        line_end = text.find("\n", q.end())
        end = len(text) if line_end == -1 else line_end
        line = text[q.end() : end if after is None else min(end, after.start())]
        m = _ANSWER.search(line) or _QUOTED_ANSWER.match(line)
        if m is None and _ANSWER_NAMED.search(text, max(0, q.start() - 20), q.end()):
            m = _QUOTED_ANSWER_CEST.match(line)
        if m is None:
            continue
        # (a question with no answer after it ends with its question mark: "Sicherheitsfrage: Name
        # des ersten Haustiers?"; the mark was stripped with the value's dots before it was asked)
        asked = m.group("value").rstrip(" .,!").endswith(("?", "？", "؟"))
        value = m.group("value").strip(" .,!?")
        first = value.split()[0].lower().strip(",.;!") if value.split() else ""
        if value and first not in NOT_A_VALUE | _NOT_AN_ANSWER and not pointer(value) and not asked:
            return True
    return False
