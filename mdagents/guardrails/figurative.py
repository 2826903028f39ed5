"""Fixed figures of speech about dying and killing, set aside before the classifier reads a message again.

"My mum will kill me if she sees my grades", "je suis morte de rire", "想找个地缝钻进去": each
language says embarrassment, hunger or a parent's anger with words of death, and an embedding
classifier reads those words as the topic. When the classifier alone flags a message that holds
such a fixed expression, the message is read again without it: what is left decides. A real sign
told beside an idiom ("my mum will kill me, and honestly I want to die") is still there to be read.
The list holds set expressions only (a complement that makes them figurative: of laughter, of
shame, under the ground; a parent or a boss as the one who will "kill"), never a bare "I want to
disappear" or "I'm dying", which can be meant.
"""

from __future__ import annotations

import re

# Who "will kill me" in the idiom: a parent, a sibling, a boss or a teacher, about something one did or is late for.
# Never a partner or a bare "he": "my husband said he will kill me" may be meant.
_WHO = r"(?:my |our |the )?(?:mom|mum|mommy|mother|dad|daddy|father|parents|boss|teacher|coach|sister|brother|manager|prof|professor)"
# What follows the idiom: a condition or a reason ("if I'm late", "for skipping"), or laughter.
_IF = r"(?=[ ,]+(?:if|when|for|cause|because|'cause|lol|haha\w*|lmao|si|cuando|por|se|quando|qdo|qnd|kkk+|jaja\w*|😂|🤣))"
_FIGURES = [
    # en
    _WHO + r"\b[^.!?\n]{0,25}?\b(?:will|gonna|is going to|are going to|'s going to|'ll|would) (?:literally |actually )?"
           r"(?:kill|murder) me\b" + _IF,
    r"\b(?:dying|died|die|dead) (?:of|from|with) (?:laughter|laughing|embarrassment|shame|boredom|hunger|cringe)\b",
    r"\bdying to (?:know|see|try|go|meet|hear|get|read|watch)\b",
    r"\bi(?:'d| could| would) (?:literally )?kill for\b",
    r"\b(?:want|wanted|wish|wished)(?: for)? the (?:ground|floor|earth) to (?:swallow|open up and swallow) me\b",
    # fr
    r"\b(?:ma (?:m[èe]re|daronne|prof|s[œo]e?ur|cheffe)|mon (?:p[èe]re|daron|boss|patron|chef|prof|fr[èe]re)|mes parents)\b"
    r"[^.!?\n]{0,25}?\b(?:va|vont) me (?:tuer|buter|massacrer)\b",
    r"\bje vais (?:le|la|les) (?:tuer|buter|massacrer)\b",
    r"\b(?:mourir|mourais|mort|morte|morts|mortes|meurs|meurt|crever|crève|creve) de (?:rire|honte|faim|fatigue|chaud|froid|"
    r"ennui|soif)\b",
    r"\b(?:dispara[îi]tre|rentrer|m'enterrer|me cacher) sous (?:terre|la table)\b",
    # es
    r"\b(?:mam[áa]|mama|madre|pap[áa]|padre|papás|papas|padres|jefe|jefa|profe|profesora?|hermana?)\b[^.!?\n]{0,20}?"
    r"\b(?:me|nos) (?:va|van|iba|iban) a (?:matar|asesinar)\b" + _IF,
    r"\b(?:lo|la|los|las) voy a (?:matar|ahorcar)\b|\bvoy a matar a mi (?:herman[oa]|prim[oa]|novi[oa]|roomie|compa)\b",
    r"\b(?:muero|muriendo|morir|morirme|muerto|muerta|mor[ií]|muere) de (?:la )?(?:risa|verg[üu]enza|hambre|sueño|calor|fr[ií]o|"
    r"aburrimiento|ganas|pena|sed)\b",
    r"\b(?:que )?me trag(?:ue|ara) la tierra\b|\btierra,? tr[aá]game\b",
    # pt
    r"\b(?:m[ãa]e|mainha|pai|painho|pais|chefe|professora?|irm[ãa]o?)\b[^.!?\n]{0,20}?\b(?:vai|v[ãa]o|ia|iam) me matar\b" + _IF,
    r"\bvou (?:matar|esganar) (?:ele|ela|eles|elas|o|a)\b",
    r"\b(?:morrendo|morrer|morri|morta|morto|mortinha|mortinho|morro) de (?:rir|vergonha|fome|sono|calor|frio|t[ée]dio|saudade|"
    r"raiva|sede|cansa[çc]o)\b",
    r"\b(?:sumir|desaparecer|me enterrar|me esconder) de vergonha\b|\benfiar a cara (?:num|em um|no) buraco\b",
    # zh
    r"(?:妈|爸|老板|老师|教练)[^。！？\n]{0,10}?(?:会|要|得)?(?:杀了我|打死我|弄死我|宰了我)",
    r"笑死|(?:饿|累|困|热|冷|忙|烦|尴尬|气|无聊|渴|痛)死(?:我)?了|社死",
    r"想?(?:找个地缝钻进去|原地去世)",
    # ar
    r"(?:أمي|امي|ماما|أبوي|ابوي|أبي|ابي|بابا|مديري|المدير|أستاذي|استاذي|المدرس|أهلي|اهلي)[^.!؟\n]{0,25}?"
    r"(?:ه|ح|راح |رح |ب)?(?:ت|ي)?(?:موتني|قتلني|ذبحني)",
    r"(?:ميت|ميتة|مت|هموت|حموت|رح موت|راح اموت|بموت|أموت|اموت) (?:من|م) ?(?:ال)?(?:جوع|تعب|ضحك|برد|حر|ملل|نوم|خجل|كسوف)",
    r"(?:الأرض|الارض) (?:تنشق|انشقت) و(?:تبلعني|بلعتني)",
    r"(?:هموت|حموت|هقتل|حقتل|رح اقتل|هدبح) (?:اخويا|أخويا|اختي|أختي|اخوي|أخوي|اخوتي)",  # a sibling who took one's shirt
    r"\b(?:mayet|mayta|meyet|meyta|hamot|ha2mot|bmoot|bamoot|rah moot|ra7 moot) (?:men|mn|min|mel|m) ?(?:el |al )?"
    r"(?:goo3|gou3|jo3|ju3|jou3|ta3ab|t3ab|da7k|de7k|dehk|bard|7ar|malal|nom|kesoof)\b",
    # hi (Devanagari and Latin letters)
    r"\b(?:mummy|mumma|mammi|maa|mom|papa|dad|boss|sir|madam|ma'am|teacher)\b[^.!?\n]{0,25}?\b(?:maar|mar) (?:daal|dal|daa?l)"
    r"(?:egi|ega|enge|engi)\b",
    r"\b(?:bhookh|bhook|bhuk|thakaan|thakan|hans hans ke|hanste hanste|sharam|sharm|garmi|thand|bore hoke) (?:se )?(?:mar|mr) "
    r"(?:raha|rahi|rhe|gaya|gayi|gya|gyi|jaunga|jaungi|jaaunga|jaaungi|jaenge)\b",
    r"\bke liye jaan (?:bhi )?de (?:dunga|dungi|doonga|doongi|sakta|sakti)\b",
    r"\bzameen phat ja(?:ye|aye|e)\b|ज़मीन फट जाए|जमीन फट जाए",
    r"(?:शर्म|भूख|थकान|गर्मी|ठंड|हंस हंस के|हँसते हँसते|दर्द) से (?:मर (?:रहा|रही|गया|गई|जाऊंगा|जाऊंगी)|(?:मरा|मरी) जा (?:रहा|रही))",
    r"\b(?:dard|bhookh|thakaan|garmi) se (?:mara|mari) ja (?:raha|rahi)\b|(?:मेरा|मेरी) (?:दिल|जान) (?:बैठ गया|बैठ गई|सूख गई)|"
    r"\b(?:mera )?dil baith gaya\b",
    r"(?:मम्मी|मां|माँ|पापा|बॉस)[^।!?\n]{0,25}?मार (?:डालेगी|डालेगा|डालेंगे)",
]
_FIGURE = re.compile("|".join(f"(?:{p})" for p in _FIGURES), re.IGNORECASE)


def figures_of_speech(text: str) -> list[str]:
    """The fixed figurative expressions about dying or killing in `text`."""
    return [m.group(0) for m in _FIGURE.finditer(_straight(text))]


def without_figures(text: str) -> str:
    """`text` with each fixed figurative expression replaced by a pause."""
    return _FIGURE.sub(" … ", _straight(text))


def _straight(text: str) -> str:
    return text.replace("\u2019", "'").replace("\u2018", "'")
