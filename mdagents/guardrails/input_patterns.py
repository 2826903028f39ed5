"""Regular expressions the regex input check triages with, grouped by what they detect.

Symptom patterns say *what* is described; the context patterns (personal, present, past, general)
say whether it is happening to someone now or is asked about in general, which is what separates
"I have crushing chest pain" from "what is chest pain, in general?".
"""

from __future__ import annotations

import re

_F = re.IGNORECASE

_WHO = r"(?:my|his|her|their|the|our)"
_NOT = r"(?:can'?t|cannot|can not|couldn'?t|unable to|won'?t|will not|doesn'?t|does not|isn'?t|is not|not)"

# Emergency signs, English: category -> patterns.
EMERGENCY: dict[str, list[str]] = {
    "chest pain or pressure": [
        r"\bchest\b.{0,40}\b(?:pains?|pressure|tight\w*|hurts?|hurting|squeez\w*|crush\w*|heav\w*|ache|aching|burning)",
        r"\b(?:pain|pressure|tight\w*|heav\w*|squeez\w*|crush\w*|weight|burning)\b.{0,40}\b(?:chest|breastbone|sternum)\b",
        r"\b(?:sitting|elephant|band)\b.{0,30}\bchest\b",
        r"\b(?:having|had just had|is having|am having)\s+(?:a\s+)?heart attack\b",
        r"\bthink\b.{0,30}\bheart attack\b",
    ],
    "trouble breathing": [
        _NOT + r"\s+(?:\w+\s+){0,2}(?:breathe|breath|breathing|catch\s+" + r"(?:my|his|her|their)\s+breath)",
        r"\b(?:trouble|difficulty|struggling|hard time|hard|problems?)\s+(?:to\s+)?breath\w*",
        r"\bshort(?:ness)?\s+of\s+breath\b",
        r"\b(?:gasping|choking)\b",
        r"\blips?\b.{0,20}\b(?:blue|purple|grey|gray)\b",
    ],
    "stroke signs": [
        r"\b(?:face|mouth|lip|eyelid)\b.{0,25}\b(?:droop\w*|fallen|sagg\w*|numb)\b",
        r"\b(?:arm|leg|hand|face|side)\b.{0,15}\b(?:went|gone|going|goes)\s+(?:limp|dead|numb|weak)\b",
        r"\bwords?\b.{0,25}\b(?:garbled|slurred|jumbled|mixed up|don'?t make sense)\b",
        r"\bspeech\b.{0,25}\b(?:garbled|slurred|jumbled|strange|weird|gibberish|nonsense)\b|\b(?:garbled|jumbled) (?:speech|words)\b",
        r"\bdroop\w*\b.{0,25}\b(?:face|mouth|side)\b",
        r"\bslurr\w*\b",
        _NOT + r"\s+(?:speak|talk|get (?:the |his |her )?words out|lift|raise|move)\b",
        r"\b(?:sudden\w*)\b.{0,50}\b(?:numb\w*|weak\w*|confus\w*|vision|see|headache|dizz\w*|paraly\w*)",
        r"\b(?:numb\w*|weak\w*|paraly\w*)\b.{0,40}\bone side\b",
        r"\bworst headache\b",
        r"\b(?:having|is having|am having)\s+a\s+stroke\b",
    ],
    "severe abdominal pain with fever or vomiting": [
        r"(?=.*\b(?:fever|temperature|vomit\w*|throwing up|threw up)\b).*(?:"
        r"\b(?:severe|intense|unbearable|excruciating|terrible|worst|sharp|agoni\w*)\b.{0,40}\b(?:abdom\w*|stomach|belly|tummy)\b"
        r"|\b(?:abdom\w*|stomach|belly|tummy)\b.{0,50}\b(?:severe|unbearable|excruciating|rigid|agoni\w*|killing)\b)",
        r"\b(?:abdomen|belly|stomach)\b.{0,15}\b(?:rigid|hard as a board)\b",
    ],
    "anaphylaxis": [
        r"\b(?:throat|tongue|lips?|face|mouth)\b.{0,30}\b(?:swell\w*|swollen|closing|closed up|tight)\b",
        r"\bswell\w*\b.{0,25}\b(?:throat|tongue|lips?)\b",
        r"\banaphyla\w*\b",
        r"\b(?:hives|swelling)\b.{0,50}\b(?:breath\w*|wheez\w*)",
    ],
    "sepsis": [
        r"\bseps(?:is|tic)\b",
        r"(?=.*\b(?:fever|temperature|chills)\b).*\b(?:confus\w*|not making sense|heart (?:is )?racing|racing heart"
        r"|mottled|clammy|purple rash|barely (?:awake|responsive))\b",
        r"\b(?:baby|infant|newborn)\b.{0,40}\b(?:floppy|limp|won'?t (?:feed|wake)|not feeding|hard to wake)\b",
        r"\brash\b.{0,30}\b(?:doesn'?t|does not|won'?t|will not)\s+fade\b",
    ],
    "severe bleeding or trauma": [
        r"\b(?:bleed\w*|blood)\b.{0,30}\b(?:won'?t|will not|doesn'?t|does not|can'?t|cannot|not)\s+stop",
        r"\b(?:a lot of|lots of|so much|heavy|heavily|severe|gushing|spurting|pouring|pool of)\s+(?:blood|bleeding)",
        r"\b(?:bleeding|blood)\s+(?:is\s+)?(?:heavily|everywhere|a lot|gushing|spurting|pouring)\b",
        r"\b(?:vomit\w*|throwing up|threw up|coughing up|cough\w* up)\s+blood\b",
        r"\b(?:car|motorcycle|bike|traffic)\s+(?:crash|accident|collision)\b",
        r"\bhit\s+(?:my|his|her|their)\s+head\b",
        r"\bbone\b.{0,20}\b(?:sticking out|showing|through)\b|\bbent the wrong way\b",
        r"\b(?:stabbed|been shot|gunshot|deep (?:cut|wound|gash))\b",
        r"\bfell\b.{0,40}\b(?:can'?t move|unconscious|head)\b",
    ],
    "loss of consciousness": [
        r"\b(?:passed out|fainted|blacked out|collapsed|unconscious|unresponsive|not responding)\b",
        r"\b(?:won'?t|will not|doesn'?t|does not|isn'?t|is not|not)\s+(?:respond\w*|moving|answering me)\b",
        _NOT + r"\s+(?:\w+\s+)?(?:wake|waking)\s+up\b",
        r"\b(?:not|stopped|isn'?t|is not)\s+breathing\b",
        r"\bseizure\b.{0,40}\b(?:minutes|won'?t stop|not stopping|lasted)\b|\b(?:having|is having) (?:a )?seizure\b",
    ],
    "overdose or poisoning": [
        r"\b(?:took|taken|swallowed|ingested|drank)\b.{0,25}\b(?:too many|too much|whole (?:bottle|pack)|way too|a bunch of|a handful of|all (?:of )?(?:my|his|her|the))\b",
        r"\b(?:swallowed|drank|ate|ingested)\b.{0,25}\b(?:bleach|detergent|battery|batteries|poison|antifreeze|pods?)\b",
        r"\boverdos(?:ed|ing)\b",
    ],
}

# Emergency signs in the other supported languages (matched without the English context rules).
EMERGENCY_OTHER: list[str] = [
    # fr
    r"douleur\w*.{0,25}(?:poitrine|thoracique)", r"(?:n'arrive pas|ne peux pas|ne peut pas|du mal) à respirer",
    r"visage.{0,20}(?:tombe|affaiss|paralys)", r"(?:perdu connaissance|évanoui|inconscient)", r"saigne\w* beaucoup",
    # es
    r"dolor.{0,20}(?:de|en el) pecho", r"no (?:puedo|puede) respirar", r"cara.{0,15}ca[íi]da",
    r"(?:perdi[óo] el conocimiento|se desmay|inconsciente)", r"sangra\w* mucho",
    # pt
    r"dor.{0,20}(?:no|do) peito", r"falta de ar", r"n[ãa]o consig\w* respirar", r"(?:desmai|perdeu a consci[êe]ncia)",
    r"rosto.{0,15}ca[íi]do",
    # zh
    r"胸(?:口|部)?.{0,4}(?:痛|疼|闷|压)", r"喘不过气|呼吸困难|不能呼吸", r"昏迷|晕倒|失去知觉|叫不醒", r"口齿不清|嘴歪|中风了",
    r"大出血|血流不止",
    # ar
    r"ألم.{0,15}(?:صدر|الصدر)", r"(?:لا أستطيع|لا يستطيع|صعوبة في) التنفس", r"ضيق.{0,5}التنفس", r"فقد الوعي|فاقد الوعي",
    r"نزيف (?:حاد|شديد)",
    # hi
    r"(?:सीने|छाती)\s*में.{0,20}दर्द", r"(?:साँस|सांस).{0,15}(?:नहीं|लेने में)", r"बेहोश",
]

# Suicidal thoughts and self-harm.
CRISIS: list[str] = [
    r"\b(?:kill|killing|end|ending|take|taking)\s+(?:myself|my own life|my life|himself|herself|themselves|his life|her life|their life)\b",
    r"\bsuicid\w*\b.{0,30}\b(?:thoughts?|thinking|feel\w*|plan\w*|want|going|attempt\w*|ideation|urges?)\b",
    r"\b(?:thoughts?|thinking|feel\w*|plan\w*|want\w*|going|attempt\w*|considering|urges?)\b.{0,30}\bsuicid\w*",
    r"\b(?:i'?m|i am|feel|feeling)\s+suicidal\b",
    r"\b(?:want|wants|wanted|wanting|going|ready|plan\w*)\s+to\s+die\b",
    r"\bend(?:ing)?\s+it\s+(?:all|tonight|now|today)\b",
    r"\b(?:no|don'?t see (?:the|any)|what'?s the|lost the)\s+point\s+(?:of|in)\s+(?:living|going on|life|being alive|being here)\b",
    r"\b(?:rather|better)\s+be\s+dead\b",
    r"\bif\s+i\s+(?:was|were|am|wasn'?t|weren'?t)\s+(?:gone|dead|not here|not around|around|here)\b",
    r"\b(?:thinking|thought|plan\w*|going|want\w*|consider\w*|tempted)\s+(?:of\s+|about\s+|to\s+)?(?:overdos\w*|taking all (?:my|of my))\b",
    r"\b(?:don'?t|do not|doesn'?t|does not|no longer)\s+want\s+to\s+(?:be alive|live|exist|be here|wake up|go on)\b",
    r"\bno\s+(?:reason|point)\s+(?:to|in)\s+(?:go(?:ing)? on|living|live|being alive)\b",
    r"\bbetter off\s+(?:dead|without me|if i (?:was|were) gone)\b",
    r"\bnever wake up\b",
    r"\b(?:wish|want)\s+(?:i\s+(?:was|were)|to\s+be)\s+dead\b",
    r"\b(?:painless|easiest|quickest|fastest|best)\s+way\s+to\s+(?:die|kill)\b",
    r"\b(?:how many|how much)\b.{0,50}\b(?:to\s+(?:overdose|die|kill)|lethal|fatal|to not wake up)\b",
    r"\blethal dose\b",
    r"\b(?:cutting|burning|hurting|harming|starving|hitting)\s+(?:myself|herself|himself|themselves)\b",
    r"\b(?:cut|burn|hurt|harm)\w*\s+(?:myself|herself|himself|themselves)\b.{0,30}\b(?:on purpose|deliberately|to cope|again|when i|to feel)\b",
    r"\bself[- ]?harm\w*\b.{0,20}\b(?:again|urge|started|been|can'?t stop)\b|\b(?:i|i'?ve|i have|she|he)\b.{0,20}\bself[- ]?harm",
    r"\b(?:want|wish|wanting)\w*\s+to\s+disappear\b|\b(?:suicide|goodbye)\s+(?:note|letter)s?\b",
    r"\bjump\w*\s+(?:off|from|in front of)\s+(?:the|a|my)?\s*(?:bridge|building|roof|cliff|train|balcony)\b",
    r"\bcan'?t\s+go\s+on\b.{0,15}\b(?:anymore|any longer|like this|living)\b",
    r"\bwant\w*\s+(?:it all|everything|it)\s+to\s+(?:end|stop)\b",
    r"\bgiving away\b.{0,20}\b(?:my|all my)\b.{0,20}\b(?:things|stuff|belongings|possessions)\b",
    # fr, es, pt
    r"me suicider|me tuer\b|mettre fin à (?:mes jours|ma vie)|(?:veux|envie de) mourir|en finir avec (?:la|ma) vie|me faire du mal",
    r"quitarme la vida|suicidarme|matarme|quiero morir|no quiero vivir|hacerme daño",
    r"me matar|me suicidar|quero morrer|tirar (?:a )?minha (?:própria )?vida|n[ãa]o quero (?:mais )?viver|me machucar de propósito",
    # zh, ar, hi
    r"不想活|想死|自杀|轻生|结束(?:我的)?生命|自残|伤害自己",
    r"أنتحر|الانتحار|أقتل نفسي|أريد أن أموت|لا أريد أن أعيش|أؤذي نفسي",
    r"आत्महत्या|खुद को (?:मार|नुकसान|चोट)|मरना चाहत|जीना नहीं चाहत",
]

# Out-of-scope requests: category -> patterns.
OUT_OF_SCOPE: dict[str, list[str]] = {
    "diagnosis of me": [
        r"\b(?:do|could|might|would|can)\s+(?:i|he|she|we|my\s+\w+)\s+have\b(?!\s+to\b)",
        r"\bwhat\s+(?:do|does)\s+(?:i|he|she|my\s+\w+)\s+have\b",
        r"\bwhat'?s\s+wrong\s+with\s+(?:me|my|him|her)\b|\bwhat\s+is\s+wrong\s+with\s+(?:me|my|him|her)\b",
        r"\bdiagnos\w*\s+(?:me|my|this|him|her|what)\b",
        r"\b(?:is|could)\s+(?:this|that|it)\b.{0,30}\b(?:cancer|malignant|a tumou?r|\w+oma|serious|an? infection|a sign of|std|sti)\b",
        r"\bdo you think\s+(?:i|it'?s|this is|he|she|my)\b",
        r"\b(?:am i|is (?:he|she)|is my \w+)\s+(?:having|suffering|sick|diabetic|pregnant|depressed)\b",
        r"\btell me (?:what|if|whether)\s+(?:i|he|she|my \w+)\s+(?:have|has|am|is)\b",
        r"\b(?:i have|i'?ve had|i'?ve got|i feel|i'?m having|i get)\b.{0,80}\b(?:is (?:it|this|that)|could (?:it|this|that) be|"
        r"does (?:it|this|that) mean (?:i|it'?s))\b(?!\s+(?:true|safe|possible|common|necessary|worth|better|a good idea|ok to|okay to))",
    ],
    "dosing or medication changes": [
        r"\bhow\s+(?:much|many)\b.{0,50}\b(?:should|can|do|could|may)\s+(?:i|we|he|she|you)\s+(?:take|give|use|have|inject)\b",
        r"\b(?:what|which)\s+(?:dose|dosage|amount)\b.{0,50}\b(?:should|can|do)\s+(?:i|we)\b",
        r"\b(?:dose|dosage)\b.{0,20}\b(?:for me|for my|should i|do i)\b",
        r"\b(?:double|increase|decrease|lower|raise|skip|miss|cut|halve|split|change|adjust|up)\s+(?:my|his|her|the|a)\s+(?:\w+\s+)?(?:dose|dosage|insulin|medication|meds|medicine|pills?|tablets?)\b",
        r"\b(?:stop|quit|start|keep)\s+taking\s+(?:my|his|her)\b",
        r"\b(?:switch|change|move)\s+(?:me|him|her)\s+(?:from|to)\b",
        r"\b(?:what|which)\s+(?:antibiotic|medication|medicine|drug|pills?|cream|painkiller)\s+should\s+(?:i|we|he|she)\b",
        r"\bwhat\s+should\s+(?:i|we)\s+(?:take|give)\b",
        r"\bshould\s+(?:i|we|he|she)\s+(?:take|give|use|stop|keep taking)\s+(?:my|his|her|their)\b",
        r"\b(?:can|should|is it (?:ok|okay|safe) to)\s+(?:i\s+)?(?:take|mix|combine)\b.{0,40}\b(?:with|and)\s+my\b",
        r"\b(?:increase|raise|lower|reduce)\b.{0,30}\bto\s+\d+\s*(?:mg|units?|ml|mcg)\b",
    ],
    "controlled substances": [
        r"\b(?:get|buy|obtain|order|score|find|prescribe|refill|more)\b.{0,40}\b(?:oxycodone|oxycontin|hydrocodone|vicodin|"
        r"percocet|fentanyl|morphine|codeine|xanax|alprazolam|valium|diazepam|klonopin|clonazepam|ativan|lorazepam|"
        r"adderall|ritalin|methylphenidate|vyvanse|tramadol|ketamine|ambien|zolpidem|opioids?|benzos?|painkillers|sleeping pills)\b",
        r"\bwithout\s+(?:a\s+)?(?:prescription|script|doctor|seeing (?:a|the|my) doctor)\b",
        r"\bprescribe\s+(?:me|him|her|us)\b",
    ],
    "reading my labs or imaging": [
        r"\b(?:my|his|her)\s+(?:\w+\s+){0,3}(?:results?|labs?|lab work|blood\s*(?:test|work)|a1c|hba1c|cholesterol|ldl|hdl|psa|"
        r"tsh|creatinine|egfr|ecg|ekg|mri|ct|x-?ray|ultrasound|scan|biopsy|pathology|mammogram|report|numbers)\b.{0,60}"
        r"\b(?:mean|means|interpret|read|say|says|show|shows|normal|abnormal|dangerous|ok|okay|bad|serious|worried|came back|high|low|\d)",
        r"\b(?:read|interpret|explain|look at|review)\s+(?:my|his|her|these|this)\b.{0,30}\b(?:results?|labs?|report|scan|mri|x-?ray|ct|test|numbers|ecg|ekg)\b",
        r"\b(?:here are|these are|attached are|i got)\s+(?:my|his|her)\b.{0,30}\b(?:results?|labs?|numbers|report)\b",
        r"\b(?:a1c|alt|ast|ldl|hdl|tsh|psa|glucose|creatinine|hemoglobin|platelets)\s*(?:is|was|of|at|came back at|:)\s*\d",
    ],
    "prior authorisation or disability letter": [
        r"\b(?:write|draft|sign|fill (?:out|in)|complete|give me|provide)\b.{0,50}\b(?:letter|note|form|certificate|authori[sz]ation|paperwork|appeal)\b",
        r"\b(?:need|want|get|give me)\b.{0,30}\b(?:doctor'?s note|sick note|medical (?:note|certificate|letter|exemption)|note for (?:school|work))\b",
        r"\bprior\s+auth\w*\b.{0,40}\b(?:for my|for me|write|submit|get|need)\b|\b(?:for my|for me|write|submit|get|need)\b.{0,40}\bprior\s+auth",
        r"\b(?:disability|fmla|sick leave|esa|emotional support animal)\b.{0,30}\b(?:letter|form|note|paperwork|claim)\b.{0,30}\b(?:for me|my|i)\b",
    ],
}

# Context: is it happening to someone, now?
PERSONAL = (r"\b(?:i|i'?m|i'?ve|i'?d|me|my|we|we'?re|our|us|he|he'?s|she|she'?s|they'?re|him|his|her|husband|wife|son|daughter|"
            r"baby|child|kid|toddler|mom|mum|dad|mother|father|friend|grand\w+|partner|brother|sister|boyfriend|girlfriend|"
            r"roommate|coworker|neighbou?r|patient)\b")
PRESENT = (r"\b(?:right now|now|currently|at the moment|today|tonight|this (?:morning|evening|afternoon)|just|suddenly|"
           r"keeps?|started|since|minutes? ago|hours? ago|is having|am having|i'?m having|i have|i feel|i'?ve got|"
           r"can'?t|cannot|won'?t stop)\b")
PAST = (r"\b(?:last (?:year|month|week|spring|summer|winter|fall)|years? ago|months? ago|weeks? ago|in (?:19|20)\d\d|"
        r"history of|passed away|died|survived|recovered|used to|when i was (?:a )?(?:kid|child|young)|back in)\b")
GENERAL = (r"(?:\b(?:in general|generally|usually|typically|what (?:is|are)|what (?:does|do) .{0,40}\bmean|what'?s the difference|what causes|symptoms of|signs of|"
           r"warning signs|how (?:is|are|do|does|can|long)|why (?:do|does|is|are)|risk (?:of|factors?)|prevent\w*|difference between|"
           r"explain|what happens)\b|qu'est-ce|quels sont|qué es|cuáles son|o que é|quais são|什么是|哪些|ما هو|ما هي|क्या है)")

# "I have type 2 diabetes": the patient lives with a condition (the reply acknowledges it; not a diagnosis request).
CHRONIC = (r"\b(?:i have|i'?ve had|i live with|i'?m living with|i was diagnosed with|i'?ve been diagnosed with|"
           r"diagnosed me with|my doctor said i have)\b.{0,30}\b(?:diabetes|asthma|copd|hypertension|high blood pressure|"
           r"high cholesterol|arthritis|lupus|crohn'?s|colitis|ibs|epilepsy|multiple sclerosis|ms|heart failure|"
           r"kidney disease|ckd|hiv|hepatitis|psoriasis|eczema|fibromyalgia|migraines?|depression|anxiety|"
           r"parkinson'?s|thyroid|hypothyroidism|celiac|sickle cell|cancer|chronic \w+)\b")
