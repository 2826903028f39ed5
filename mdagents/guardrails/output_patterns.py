"""Regular expressions the regex output check looks for in a model's reply, one list per violation type."""

from __future__ import annotations

# Words naming a condition: "you have <one of these>" reads as a diagnosis.
CONDITION = (r"(?:\w+itis|\w+osis|\w+emia|\w+oma|\w+pathy|cancer|diabetes|an? infection|infection|the flu|flu|"
             r"a cold|covid(?:-19)?|pneumonia|migraines?|asthma|hypertension|high blood pressure|depression|anxiety|"
             r"adhd|a tumou?r|a disease|\w+ disease|a disorder|\w+ disorder|\w+ syndrome|a condition|strep|"
             r"an? ulcer|ulcer|gerd|reflux|ibs|a uti|uti|a concussion|a fracture|a sprain|sciatica|gout|anemia|"
             r"a stroke|a heart attack|heart failure|kidney stones?|gallstones)")

# Mild phrasing that is softened ("you have the flu" -> "this may indicate the flu").
SOFTEN = [
    (r"\byou(?:'ve| have)(?: got)?\s+(?=" + CONDITION + r"\b)", "this may indicate "),
    (r"\byou(?:'re| are)\s+suffering\s+from\s+(?=" + CONDITION + r"\b)", "this may indicate "),
    (r"\byou(?:'re| are)\s+(?=(?:diabetic|anemic|hypertensive|asthmatic|depressed)\b)", "this may indicate being "),
]
# Not a diagnosis: "if you have diabetes", "people who have asthma", "do you have ...".
NOT_DIAGNOSIS_BEFORE = r"(?:\bif|\bwhen|\bwhether|\bdo|\bwho|\bthat|\bbecause|\bonce|\bin case|\bsince|\bwhile|\bunless)\s*$"

VIOLATIONS: dict[str, list[str]] = {
    "DIAGNOSIS": [
        r"\byou\s+(?:definitely|clearly|certainly|probably|most likely|likely)\s+have\b",
        r"\b(?:your|the) diagnosis is\b|\byou (?:are|have been) diagnosed with\b|\bi(?:'d| would)? diagnose\b",
        r"\bthis is (?:definitely|clearly|certainly|almost certainly)\s+(?:a |an )?" + CONDITION,
        r"\b(?:it|this) (?:sounds|looks) like you have\b",
    ],
    "TREATMENT": [
        r"\byou\s+(?:should|must|need to|have to|'ll need to)\s+(?:start|begin|take|stop|switch|get on|go on)\s+"
        r"(?:taking\s+)?(?:an?\s+)?(?:\w+\s+)?(?:antibiotics?|medications?|medicines?|\w+(?:cillin|mycin|pril|sartan|statin|olol|"
        r"prazole|azepam|oxetine|aline|formin|profen|cetamol|phen|one|ide|ine))\b",
        r"\bi\s+(?:would\s+)?(?:recommend|suggest|prescribe|advise)\s+(?:that\s+you\s+)?(?:you\s+)?(?:start|take|taking|starting|stop|"
        r"switch|a course of|an?\s+)\b",
        r"(?<!not )(?<!n't )(?<!never )\b(?:stop|discontinue|quit)\s+taking\s+your\b",
        r"\byou\s+(?:need|require)\s+(?:surgery|antibiotics|an operation|a prescription for)\b",
    ],
    "DOSING": [
        r"\b\d+(?:\.\d+)?\s*(?:mg|mcg|µg|g|ml|units?|iu|tablets?|pills?|capsules?|puffs?|drops?)\b.{0,40}"
        r"\b(?:every|twice|once|three times|daily|a day|per day|at night|in the morning|each|hourly|bid|tid|qid)\b",
        r"\b(?:take|give|use|increase (?:it |your dose )?to|reduce (?:it |your dose )?to)\s+\d+(?:\.\d+)?\s*(?:mg|mcg|g|ml|units?|iu|tablets?|pills?|capsules?)\b",
        r"\b(?:double|halve|increase|decrease|raise|lower)\s+your\s+(?:\w+\s+)?(?:dose|dosage|insulin)\b",
        r"\b(?:maximum|max|usual|typical|recommended|starting)\s+(?:daily\s+)?(?:dose|dosage)\s+(?:is|of)\b.{0,20}\d",
    ],
    "LAB_INTERPRETATION": [
        r"\byour\s+(?:\w+\s+){0,2}(?:results?|labs?|a1c|hba1c|cholesterol|ldl|hdl|psa|tsh|creatinine|egfr|alt|ast|glucose|"
        r"blood (?:test|work|sugar|count)|levels?|mri|ct|x-?ray|scan|ultrasound|ecg|ekg|biopsy|report|numbers)\b.{0,40}"
        r"\b(?:is|are|was|were|shows?|showed|indicates?|suggests?|means?|looks?)\s+(?:\w+\s+)?"
        r"(?:high|low|elevated|normal|abnormal|fine|concerning|consistent with|dangerous|borderline|worrying|reassuring|bad|good)\b",
        r"\b(?:based on|looking at|from)\s+your\s+(?:\w+\s+)?(?:results?|labs?|numbers|scan|report|levels?|mri|x-?ray)\b",
    ],
    "CONTRADICTS_EMERGENCY": [
        r"\b(?:no need to|don'?t need to|do not need to|there'?s no need to|don'?t|do not)\s+(?:go to|call|visit|rush to)\s+"
        r"(?:the\s+)?(?:er|emergency|911|999|112|an ambulance|a&e|hospital|urgent care)\b",
        r"\b(?:wait and see|wait it out|sleep it off|ride it out)\b",
        r"\b(?:probably|likely|almost certainly)\s+(?:nothing|not)\s+(?:serious|to worry about|an emergency|dangerous)\b",
        r"\b(?:isn'?t|is not|not)\s+an?\s+emergency\b",
        r"\byou can wait (?:until|till|for)\b",
    ],
    "MEDICAL_ADVICE": [
        r"\byou\s+should\s+(?:try|avoid|eat|drink|stop|start|use|do|take|cut|increase|reduce|get|see|go)\b",
        r"\bi\s+(?:would\s+)?(?:recommend|suggest|advise)\s+(?:that\s+)?you\b",
        r"\bmy advice (?:to you )?is\b|\bin your case\b|\bfor you specifically\b",
    ],
    "OUTDATED_INFO": [
        r"\b(?:as of|in|from|since|published in|guidelines? (?:of|from))\s+(?P<year>(?:19|20)\d\d)\b",
        r"\((?P<year2>(?:19|20)\d\d)\)",
    ],
    "UNCLEAR_LANGUAGE": [
        r"\b(?:idiopathic|iatrogenic|a?etiolog\w*|orthostatic|vasovagal|\w*perfusion|pathognomonic|nosocomial|sequelae|prophylaxis|contraindicated|"
        r"comorbidit\w*|pathophysiolog\w*|sequela|paresthesia|dyspnea|dyspnoea|syncope|pruritus|erythema|emesis|"
        r"hemodynamic\w*|prn|q\.?d\.?|b\.?i\.?d\.?|t\.?i\.?d\.?|p\.?o\.?)\b",
    ],
    "SPECULATION": [
        r"\bi\s+(?:think|guess|suspect|believe|bet|feel like)\s+(?:it'?s|it is|you|this is|that'?s)\b",
        r"\bmy (?:guess|hunch|feeling) is\b|\bi'?m not (?:sure|certain) but\b",
        r"\b(?:it'?s|it is|that'?s|this is)\s+(?:probably|most likely|likely|almost certainly)\s+(?:just\s+)?(?:a |an )?\w+",
        r"\bcould be anything\b",
    ],
}

# Serious topics that need "when to seek care" in the same reply (INCOMPLETE_SAFETY).
SERIOUS_TOPIC = (r"\b(?:chest (?:pain|pressure|tightness)|heart attack|stroke|shortness of breath|trouble breathing|difficulty breathing|"
                 r"suicid\w*|self-harm|overdose|anaphylaxis|severe allergic|sepsis|severe bleeding|seizure|"
                 r"loss of consciousness|fainting|meningitis|blood in (?:your )?(?:stool|urine|vomit))\b")
SEEK_CARE = (r"\b(?:911|999|112|000|988|emergency|urgent care|seek (?:immediate |urgent |prompt )?(?:medical )?"
             r"(?:care|help|attention)|call (?:your|a) (?:doctor|clinician|healthcare)|see a doctor (?:right away|promptly|"
             r"immediately|urgently)|right away|immediately|ambulance)\b")

# Reply already carries a disclaimer / a referral to a professional.
DISCLAIMER = (r"(?:not a substitute for|not medical advice|educational (?:purposes|information)|general information|"
              r"consult (?:a|your) (?:doctor|healthcare|health care|physician|clinician|pharmacist)|"
              r"talk (?:to|with) (?:a|your) (?:doctor|healthcare|health care|physician|clinician|pharmacist)|"
              r"speak (?:to|with) (?:a|your) (?:doctor|healthcare|health care|physician|clinician|pharmacist)|"
              r"qualified health)")

# Emergency numbers of all regions (a reply naming one the patient's region does not use assumes a region).
EMERGENCY_NUMBER = r"(?:call|dial|ring|phone)\s+(?P<number>911|999|112|000|111|15|120|192|998|123)\b"
URL = r"\bhttps?://[^\s)\]>\"']+|\bwww\.[^\s)\]>\"']+"

# The same checks in the other six languages: a reply is read with the English patterns and those of
# the patient's language (models often answer in English whatever the question's language).
_N = r"[\d٠-٩]+(?:[.,][\d٠-٩]+)?\s*"  # a number, Western or Arabic-Indic digits
_UNITS_LATIN = r"(?:mg|mcg|µg|g|ml|ui|iu|unit[ée]s?|unidad(?:es)?|comprim[ée]s?|comprimidos?|g[ée]lules?|c[áa]psulas?|pastillas?|gouttes?|gotas|sachets?)"
BY_LANGUAGE: dict[str, dict[str, list[str]]] = {
    "fr": {
        "DIAGNOSIS": [
            r"\bvous (?:avez|souffrez d'?e?|êtes atteinte? d'?e?) ?(?:probablement |sûrement |certainement |clairement )?"
            r"(?:une? |la |le |l'|de l'|du |des )?(?:diab[eè]te|infection|grippe|rhume|pneumonie|angine|migraine|asthme|"
            r"hypertension|d[eé]pression|anxi[eé]t[eé]|cancer|tumeur|ulc[eè]re|appendicite|\w+ite\b|\w+ose\b)",
            r"\b(?:le|votre) diagnostic est\b|\bc'est (?:clairement|sûrement|certainement) une? \w+ite\b",
        ],
        "TREATMENT": [
            r"\b(?:vous devez|il faut|vous devriez) (?:absolument )?(?:prendre|commencer|arr[êe]ter)\b.{0,30}"
            r"\b(?:antibiotiques?|m[ée]dicaments?|traitement|\w+(?:cilline|mycine|pril|sartan|statine|olol|prazole|az[ée]pam))",
            r"\bje vous (?:recommande|conseille|prescris) (?:de prendre|de commencer|d'arr[êe]ter|un traitement|des antibiotiques)",
            r"(?<!n')\barr[êe]tez (?:de prendre )?votre (?:traitement|m[ée]dicament)",
        ],
        "DOSING": [
            _N + _UNITS_LATIN + r"\b.{0,40}\b(?:par jour|fois par jour|toutes les \d+ ?h(?:eures)?|chaque (?:jour|matin|soir)|le matin|le soir|au coucher)",
            r"\b(?:prenez|donnez|augmentez (?:à|jusqu'à)|diminuez (?:à|jusqu'à)|passez à)\b.{0,25}" + _N + _UNITS_LATIN + r"\b",
        ],
        "LAB_INTERPRETATION": [
            r"\bvos (?:r[ée]sultats|analyses|taux|examens|chiffres)\b.{0,40}\b(?:sont|est|montrent|indiquent)\b.{0,20}"
            r"\b(?:[ée]lev[ée]s?|bas|normaux|anormaux|inqui[ée]tants|bons|mauvais)\b",
        ],
        "CONTRADICTS_EMERGENCY": [
            r"\b(?:pas besoin d'|inutile d'|n'allez pas aux|ne (?:vous )?(?:rendez|appelez) pas)\b.{0,25}\b(?:urgences|le 15|samu|112|h[ôo]pital|ambulance)",
            r"\b(?:ce n'est|c'est) (?:probablement |sûrement )?(?:pas|rien de) (?:grave|une urgence)\b",
            r"\battendez (?:de voir|demain)\b",
        ],
    },
    "es": {
        "DIAGNOSIS": [
            r"\b(?:usted tiene|tienes|usted padece|padeces|sufre de|sufres de)\b (?:probablemente |seguramente |claramente )?"
            r"(?:una? |la |el )?(?:diabetes|infecci[oó]n|gripe|resfriado|neumon[ií]a|migra[ñn]a|asma|hipertensi[oó]n|"
            r"depresi[oó]n|ansiedad|c[aá]ncer|tumor|[uú]lcera|apendicitis|\w+itis\b|\w+osis\b)",
            r"\bel diagn[oó]stico es\b",
        ],
        "TREATMENT": [
            r"\b(?:debe|tiene que|deber[ií]a|debes|tienes que) (?:tomar|empezar|dejar|suspender)\b.{0,30}"
            r"\b(?:antibi[oó]ticos?|medicamentos?|medicinas?|tratamiento|\w+(?:cilina|micina|pril|sart[aá]n|statina|olol|prazol|azepam))",
            r"\b(?:le|te) (?:recomiendo|receto|aconsejo) (?:tomar|empezar|dejar|un tratamiento|antibi[oó]ticos)",
            r"(?<!no )\bdeje de tomar su\b",
        ],
        "DOSING": [
            _N + _UNITS_LATIN + r"\b.{0,40}\b(?:al d[ií]a|por d[ií]a|cada \d+ horas|veces al d[ií]a|por la ma[ñn]ana|por la noche|antes de dormir)",
            r"\b(?:tome|toma|dele|dale|aumente a|reduzca a|suba a|baje a)\b.{0,25}" + _N + _UNITS_LATIN + r"\b",
        ],
        "LAB_INTERPRETATION": [
            r"\bsus (?:resultados|an[aá]lisis|niveles|valores)\b.{0,40}\b(?:son|est[aá]n|muestran|indican)\b.{0,20}"
            r"\b(?:altos?|bajos?|normales|anormales|preocupantes|buenos|malos)\b",
        ],
        "CONTRADICTS_EMERGENCY": [
            r"\bno (?:hace falta|es necesario|necesita|tiene que) (?:ir|llamar|acudir)\b.{0,25}\b(?:urgencias|emergencias|hospital|112|911|ambulancia)",
            r"\bno (?:es|parece) (?:nada )?(?:grave|una emergencia|urgente)\b",
            r"\bespere a (?:ver|ma[ñn]ana)\b",
        ],
    },
    "pt": {
        "DIAGNOSIS": [
            r"\bvoc[êe] (?:tem|est[áa] com|sofre de)\b (?:provavelmente |certamente |claramente )?(?:uma? |a |o )?"
            r"(?:diabetes|infec[çc][ãa]o|gripe|resfriado|constipa[çc][ãa]o|pneumonia|enxaqueca|asma|hipertens[ãa]o|"
            r"depress[ãa]o|ansiedade|c[âa]ncer|cancro|tumor|[úu]lcera|apendicite|\w+ite\b|\w+ose\b)",
            r"\bo diagn[óo]stico [ée]\b",
        ],
        "TREATMENT": [
            r"\b(?:deve|precisa|tem que) (?:tomar|come[çc]ar|parar|suspender)\b.{0,30}"
            r"\b(?:antibi[óo]ticos?|rem[ée]dios?|medicamentos?|tratamento|\w+(?:cilina|micina|pril|sartana|statina|olol|prazol|azepam))",
            r"\b(?:recomendo|receito|aconselho) (?:que voc[êe] )?(?:tome|comece|pare)\b",
            r"(?<!não )(?<!nao )\bpare de tomar (?:o )?seu\b",
        ],
        "DOSING": [
            _N + _UNITS_LATIN + r"\b.{0,40}\b(?:por dia|ao dia|de \d+ em \d+ horas|vezes ao dia|a cada \d+ horas|de manh[ãa]|[àa] noite)",
            r"\b(?:tome|d[êe]|aumente para|diminua para|dobre)\b.{0,25}" + _N + _UNITS_LATIN + r"\b",
        ],
        "LAB_INTERPRETATION": [
            r"\bseus (?:resultados|exames|n[íi]veis|valores)\b.{0,40}\b(?:est[ãa]o|s[ãa]o|mostram|indicam)\b.{0,20}"
            r"\b(?:altos?|baixos?|normais|anormais|preocupantes|bons|ruins)\b",
        ],
        "CONTRADICTS_EMERGENCY": [
            r"\bn[ãa]o (?:precisa|[ée] necess[áa]rio|h[áa] necessidade de) (?:ir|ligar|chamar|procurar)\b.{0,25}"
            r"\b(?:pronto-socorro|emerg[êe]ncia|urg[êe]ncia|hospital|samu|192|112|ambul[âa]ncia)",
            r"\bn[ãa]o (?:[ée]|parece) (?:nada )?(?:grave|uma emerg[êe]ncia|urgente)\b",
            r"\bespere (?:para ver|at[ée] amanh[ãa])\b",
        ],
    },
    "zh": {
        "DIAGNOSIS": [
            r"你(?:这是|得了|患了|患有|确诊为|肯定是|应该是|可能得了|就是)[^。！？]{0,6}(?:糖尿病|感染|流感|感冒|肺炎|偏头痛|哮喘|高血压|"
            r"抑郁症|焦虑症|癌|肿瘤|溃疡|阑尾炎|炎|综合征)",
            r"诊断(?:结果)?(?:为|是)",
        ],
        "TREATMENT": [
            r"你(?:应该|需要|必须|要)(?:马上|立即)?(?:开始)?(?:服用|吃|用|停用|停掉|停)[^。！？]{0,6}(?:抗生素|药|素|西林|霉素)",
            r"我(?:建议|推荐)你(?:服用|吃|用|停)",
        ],
        "DOSING": [
            _N + r"(?:mg|毫克|微克|克|ml|毫升|片|粒|滴|单位)[^。！？]{0,20}(?:每天|一天|每日|每\d+小时|早晚|睡前|次/日)",
            r"(?:每天|一天|每日|每次)[^。！？]{0,6}(?:吃|服|服用)\s*" + _N + r"(?:mg|毫克|克|片|粒|毫升|ml|单位)",
            r"(?:加到|加大到|减到|减少到|增加到)\s*" + _N + r"(?:mg|毫克|片|粒|单位)",
        ],
        "LAB_INTERPRETATION": [
            r"你的(?:检查|化验|验血|血糖|血压|指标|结果|报告|片子)(?:结果)?[^。！？]{0,15}(?:偏高|偏低|正常|异常|很高|很低|没问题|有问题)",
        ],
        "CONTRADICTS_EMERGENCY": [
            r"(?:不用|不需要|没必要|不必)(?:去|打|叫)(?:急诊|医院|120|救护车)",
            r"(?:不是|并不是|算不上)(?:什么)?(?:急症|紧急情况|大问题)|没什么大碍",
            r"(?:观察|等)(?:一下|到明天)再说",
        ],
    },
    "ar": {
        "DIAGNOSIS": [
            r"(?:أنت|انت)\s+(?:مصاب|مصابة|تعاني من)\s+\S+",
            r"التشخيص (?:هو|:)|(?:لديك|عندك) (?:بالتأكيد|على الأرجح|غالبًا|غالبا) \S+",
        ],
        "TREATMENT": [
            r"(?:يجب|عليك|لازم)\s+(?:أن\s+)?(?:تتناول|تأخذ|تبدأ|تتوقف عن|توقف)\s.{0,20}(?:مضاد حيوي|المضادات الحيوية|مضادات حيوية|دواء|الدواء|علاج)",
            r"(?:أنصحك|أوصيك|أوصي)\s+(?:ب|بأن\s*)?(?:تناول|أخذ|تتناول|تأخذ|التوقف)",
        ],
        "DOSING": [
            _N + r"(?:mg|ملغ|ملجم|مجم|مل|حبة|حبات|أقراص|قرص|كبسولة|نقطة|وحدة|وحدات).{0,30}"
            r"(?:يوميًا|يوميا|في اليوم|كل [\d٠-٩]+ ساعات|مرتين|ثلاث مرات|صباحًا|مساءً|قبل النوم)",
            r"(?:خذ|تناول|اعطه|أعطه|زد|قلل|ضاعف)\s.{0,20}" + _N + r"(?:mg|ملغ|ملجم|مجم|مل|حبة|حبات|أقراص|قرص|وحدة|وحدات)",
        ],
        "LAB_INTERPRETATION": [
            r"(?:نتائجك|نتيجة تحليلك|تحاليلك|صورتك)\s.{0,30}(?:مرتفع|منخفض|طبيعي|غير طبيعي|مقلق|جيد|سيئ)",
        ],
        "CONTRADICTS_EMERGENCY": [
            r"(?:لا داعي|لا حاجة|ليس من الضروري|مش لازم|ما في داعي).{0,25}(?:الطوارئ|المستشفى|الإسعاف|123|911|999|112)",
            r"(?:ليست|ليس|مش)\s+(?:حالة\s+)?(?:طارئة|خطيرة|خطير|طوارئ)",
            r"انتظر (?:حتى الغد|لترى)",
        ],
    },
    "hi": {
        "DIAGNOSIS": [
            r"आपको\s+(?:शायद\s+|ज़रूर\s+|निश्चित रूप से\s+)?(?:डायबिटीज़?|मधुमेह|इन्फेक्शन|संक्रमण|फ्लू|सर्दी|निमोनिया|माइग्रेन|"
            r"अस्थमा|हाई बीपी|उच्च रक्तचाप|डिप्रेशन|अवसाद|कैंसर|ट्यूमर|अल्सर|अपेंडिसाइटिस|टाइफाइड|डेंगू|मलेरिया)\s+(?:है|हो गया है|हुआ है|हो गई है)",
            r"निदान (?:है|यह है)",
        ],
        "TREATMENT": [
            r"आपको\s+.{0,20}(?:एंटीबायोटिक|दवा|दवाई|इलाज)\s+(?:लेनी चाहिए|लेना चाहिए|शुरू करनी चाहिए|बंद कर देनी चाहिए|बंद कर दें)",
            r"मैं\s+(?:आपको\s+)?.{0,20}(?:लेने|शुरू करने|बंद करने)\s+की\s+सलाह\s+देता",
        ],
        "DOSING": [
            _N + r"(?:mg|एमजी|मिलीग्राम|ml|एमएल|गोली|गोलियाँ|गोलियां|टैबलेट|कैप्सूल|बूँद|यूनिट).{0,30}"
            r"(?:रोज़|रोज|दिन में|हर \d+ घंटे|सुबह|रात को|सोने से पहले|दो बार|तीन बार)",
            r"(?:रोज़|रोज|दिन में\s+\S+\s+बार|हर \d+ घंटे)\s*.{0,15}" + _N + r"(?:mg|एमजी|मिलीग्राम|ml|गोली|गोलियाँ|टैबलेट|यूनिट)",
        ],
        "LAB_INTERPRETATION": [
            r"आपकी\s+(?:रिपोर्ट|जाँच|जांच|शुगर|बीपी)\s.{0,30}(?:ज़्यादा|ज्यादा|कम|नॉर्मल|सामान्य|असामान्य|ठीक|खराब)\s+(?:है|हैं)",
        ],
        "CONTRADICTS_EMERGENCY": [
            r"(?:अस्पताल|इमरजेंसी|आपातकालीन|एम्बुलेंस|108|112).{0,15}(?:जाने|बुलाने|कॉल करने)\s+की\s+(?:कोई\s+)?(?:ज़रूरत|जरूरत|आवश्यकता)\s+नहीं",
            r"(?:कोई\s+)?(?:गंभीर|इमरजेंसी|आपातकाल)\s+(?:बात\s+)?नहीं\s+है",
            r"कल तक इंतज़ार करें",
        ],
    },
}
# Reply sends to care / carries a disclaimer, per language (read together with the English ones).
SEEK_CARE_BY_LANGUAGE = {
    "fr": r"\b(?:urgences|samu|appelez|consultez (?:rapidement|imm[ée]diatement|un m[ée]decin)|imm[ée]diatement|sans attendre)\b",
    "es": r"\b(?:urgencias|emergencias|ambulancia|acuda|inmediatamente|de inmediato|sin demora)\b",
    "pt": r"(?:pronto-socorro|emerg[êe]ncia|urg[êe]ncia|samu|ambul[âa]ncia|imediatamente|procure atendimento)",
    "zh": r"(?:急诊|120|救护车|立即就医|马上就医|尽快就医|立刻|马上去医院)",
    "ar": r"(?:الطوارئ|الإسعاف|اتصل|فورًا|فورا|على الفور|المستشفى)",
    "hi": r"(?:आपातकालीन|इमरजेंसी|एम्बुलेंस|अस्पताल|तुरंत|फ़ौरन|डॉक्टर को दिखाएँ)",
}
DISCLAIMER_BY_LANGUAGE = {
    "fr": r"(?:ne remplace pas|pas un avis m[ée]dical|informations? g[ée]n[ée]rales?|parlez-en à votre m[ée]decin|consultez votre m[ée]decin|professionnel de sant[ée])",
    "es": r"(?:no sustituye|no es un consejo m[ée]dico|informaci[oó]n general|consulte (?:a )?su m[ée]dico|hable con su m[ée]dico|profesional (?:sanitario|de la salud))",
    "pt": r"(?:n[ãa]o substitui|n[ãa]o [ée] (?:um )?conselho m[ée]dico|informa[çc](?:ão|ões) ger(?:al|ais)|consulte (?:o )?seu m[ée]dico|fale com (?:o )?seu m[ée]dico|profissional de sa[úu]de)",
    "zh": r"(?:不能代替|不能替代|仅供(?:参考|教育)|一般(?:性)?(?:健康)?信息|咨询(?:您的)?医生|请(?:向|与)医生|医疗专业人员)",
    "ar": r"(?:لا (?:تغني|يغني) عن|ليست نصيحة طبية|معلومات (?:صحية )?عامة|استشر طبيبك|تحدث مع طبيبك|مختص صحي|مقدم الرعاية)",
    "hi": r"(?:विकल्प नहीं|चिकित्सा सलाह नहीं|सामान्य (?:स्वास्थ्य )?जानकारी|अपने डॉक्टर से (?:बात|सलाह)|स्वास्थ्य विशेषज्ञ|शैक्षिक)",
}

# Health content: a reply that has none (a greeting, thanks, "what would you like to know?") needs no
# source and no disclaimer. Read in every language at once, with CONDITION.
MEDICAL_CONTENT = (
    r"(?:\b(?:symptoms?|diseases?|illness|infections?|virus(?:es)?|viral|bacteri\w*|medications?|medicines?|drugs?|"
    r"doses?|dosage|treatments?|therap(?:y|ies)|diagnos\w*|blood|pain|fever|cancer|tumou?rs?|diabet\w*|heart|lungs?|"
    r"kidneys?|liver|vaccin\w*|antibiotics?|surgery|pregnan\w*|allerg\w*|asthma|migraines?|headaches?|cholesterol|"
    r"stroke|seizures?|nausea|vomit\w*|diarrh\w*|rash|cough\w*|injur\w*|wounds?|bleed\w*|sympt[oô]mes?|maladies?|"
    r"m[ée]dicaments?|douleur|fi[èe]vre|s[íi]ntomas?|enfermedad(?:es)?|medicamentos?|dolor|fiebre|sintomas?|doen[çc]as?|"
    r"rem[ée]dios?|dor|febre|sangue|sangre|sang|vacunas?|vacinas?|grippe|gripe|gripa|rhume|resfriado|angine|"
    r"toux|tos|tosse|infecci[oó]n|infec[çc][ãa]o|enfermedad|malad\w*|enfermo|doente)\b"
    r"|症|病|药|治疗|诊断|感染|发烧|发热|疼痛|痛|血|癌|糖尿病|疫苗|流感|感冒|咳嗽"
    r"|أعراض|مرض|دواء|علاج|تشخيص|عدوى|حمى|ألم|دم|سرطان|السكري|لقاح|إنفلونزا|انفلونزا|الأنفلونزا|زكام|نزلة|سعال"
    r"|लक्षण|बीमारी|रोग|दवा|इलाज|उपचार|निदान|संक्रमण|बुखार|दर्द|खून|कैंसर|डायबिटीज़?|मधुमेह|टीका|फ्लू|सर्दी|ज़ुकाम|जुकाम|खाँसी|खांसी)"
)
