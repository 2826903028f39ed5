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
        r"\b(?:holding|clutching|grabbing|gripping)\s+(?:his|her|my|their)\s+chest\b|\bleft arm\b.{0,20}\b(?:heavy|numb|dead|tingl\w*)",
    ],
    "trouble breathing": [
        _NOT + r"\s+(?:\w+\s+){0,2}(?:breathe|breath|breathing|catch\s+" + r"(?:my|his|her|their)\s+breath)",
        r"\b(?:trouble|difficulty|struggling|hard time|hard|problems?)\s+(?:to\s+)?(?:catch\s+(?:my|his|her|their)\s+)?breath\w*",
        r"\bshort(?:ness)?\s+of\s+breath\b",
        r"\b(?:gasping|choking)\b",
        r"\blips?\b.{0,20}\b(?:blue|bluish|blue-ish|purple|grey|gray|greyish)\b|"
        r"\b(?:grey|gray|blue|purple)\b.{0,20}\b(?:mouth|lips|face)\b",
        r"\b(?:pausing|pauses|stops|stopping|stopped)\s+(?:in\s+)?(?:her|his|their)?\s*breathing\b",
        r"\b(?:can'?t|cant|cannot)\s+(?:finish\s+(?:a\s+)?sentences?|(?:get|say)\s+(?:a\s+)?(?:full|whole)\s+sentence)\b",
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
        r"\b(?:can'?t|cannot|couldn'?t)\s+feel\s+(?:the\s+)?(?:left|right|one)\s+side\b",
        r"\b(?:left|right)\s+side\s+of\s+(?:my|his|her|their)\s+(?:body|face)\b.{0,25}"
        r"\b(?:numb|weak|dead|heavy|droop\w*|paraly\w*|not working|won'?t move)\b",
        r"\b(?:face|mouth|smile)\b.{0,25}\b(?:lopsided|crooked|uneven|twisted)\b",
        r"\bworst headache\b",
        r"\b(?:having|is having|am having)\s+a\s+stroke\b",
    ],
    "severe abdominal pain with fever or vomiting": [
        r"^(?=.*\b(?:fever|temperature|vomit\w*|throwing up|threw up)\b).*(?:"
        r"\b(?:severe|intense|unbearable|excruciating|terrible|worst|sharp|agoni\w*)\b.{0,40}\b(?:abdom\w*|stomach|belly|tummy)\b"
        r"|\b(?:abdom\w*|stomach|belly|tummy)\b.{0,50}\b(?:severe|unbearable|excruciating|rigid|agoni\w*|killing)\b)",
        r"\b(?:abdomen|belly|stomach)\b.{0,15}\b(?:rigid|hard as a board)\b",
    ],
    "heart failure getting worse": [
        r"\b(?:can'?t|cannot|couldn'?t)\s+(?:breathe|lie|lay)\s+(?:\w+\s+)?(?:flat|lying down|laying down)\b|"
        r"\b(?:sleep\w*|slept)\s+(?:sitting up|in (?:a|the|his|her|my) (?:chair|armchair|recliner))\b.{0,40}\b(?:breath\w*|air)",
        r"\b(?:calf|leg)\b.{0,40}\b(?:swollen|swelling)\b.{0,40}\b(?:red|hot|warm)\b.{0,80}\b(?:flight|plane|bus|coach|drive|trip)\b",
    ],
    "heart attack signs": [
        r"^(?=.*\b(?:sweat\w*|clammy|sick|nause\w*|breathless|short of breath|grey|gray)\b).*\b(?:ache|aching|pain|pressure|"
        r"tight\w*|heav\w*)\b.{0,30}\b(?:jaw|left arm|down (?:my|his|her) (?:left )?arm|shoulder blades?)\b",
        r"^(?=.*\b(?:sweat\w*|clammy|nause\w*|sick)\b).*\b(?:jaw|left arm)\b.{0,30}\b(?:ache|aching|pain|pressure|hurt\w*)\b",
    ],
    "diabetic emergency": [
        r"\b(?:sugar|glucose|meter|bm|reading|level)\b.{0,25}?\b(?:[0-2]\.\d|[1-4]\d\s*mg)",
        r"^(?=.*\b(?:diabet\w*|type 1|type one|insulin|blood sugar|his sugar|her sugar|my sugar)\b).*\b(?:confus\w*|talking "
        r"nonsense|not making sense|drowsy|won'?t wake|unresponsive|slurr\w*|fitting|passed out|can'?t stay awake)\b",
        r"\b(?:sugar|glucose|meter)\b.{0,25}\b(?:says|reads|showing|shows|is)\s+(?:hi|high|lo)\b",
    ],
    "severe burns": [
        r"\b(?:boiling|scalding|hot)\s+(?:water|oil|tea|coffee|fat|soup)\b.{0,60}\b(?:skin|blister\w*|peel\w*|big area|"
        r"large area|face|chest|whole)\b",
        r"\bskin\b.{0,20}\b(?:peeling off|coming off|white and leathery|charred|black)\b|\b(?:severe|bad|large|big|deep)\s+burns?\b",
    ],
    "breathing emergency": [
        r"^(?=.*\b(?:breath\w*|puffs|wheez\w*|gasp\w*|words|blue|tight|sentences?|times|lips)\b).*\b(?:inhaler|puffer|nebuli[sz]er)\b.{0,40}"
        r"\b(?:not working|isn'?t working|isnt working|doesn'?t help|not helping|didn'?t help|no help|no difference)\b"
        r"(?!\s+as\s+(?:well|much))",
        r"\b(?:can only|only able to|only)\s+(?:get|say|speak|manage)\s+(?:out\s+)?(?:a\s+)?(?:few|couple of|one or two|two|"
        r"single)\s+words\b",
        r"\b(?:\d{2,}|loads of|lots of|so many)\s+puffs\b",
        r"\b(?:pulled|dragged|fished|rescued|got)\b.{0,30}\b(?:out of|from)\s+(?:the\s+)?(?:pool|water|river|lake|sea|bath)\b"
        r"|\bnear(?:ly|-| )drown\w*|\b(?:wasn'?t|wasnt|was not)\s+breathing\b",
    ],
    "electric shock, heat stroke or carbon monoxide": [
        r"\belectrocut\w*|\blive wire\b|\belectric(?:al)?\s+shock\b",
        r"\b(?:stopped sweating|not sweating)\b.{0,60}\b(?:hot|confus\w*|nonsense|dizzy|collaps\w*|vomit\w*)\b|"
        r"\bheat ?stroke\b|\bhot,? (?:and )?dry skin\b",
        r"^(?=.*\b(?:boiler|heater|generator|stove|gas fire|fumes|exhaust)\b).*(?:\b(?:whole family|all of us|"
        r"everyone|both of us|we all|the dog|the cat|the kids)\b.{0,60}\b(?:headaches?|dizz\w*|sick|nause\w*|drowsy|sleepy|"
        r"sluggish|confus\w*)\b|\b(?:headaches?|dizz\w*|nause\w*)\b.{0,60}\b(?:whole family|all of us|everyone|both of us|"
        r"we all|the dog|the cat|the kids)\b)",
        r"\bcarbon monoxide\b.{0,40}\b(?:alarm|detector)\b.{0,20}\b(?:going off|beeping|went off)\b",
    ],
    "poisonous mushrooms or plants": [
        r"\b(?:wild|foraged|picked|found)\s+(?:\w+\s+)?mushrooms?\b.{0,120}\b(?:vomit\w*|sick|cramps|diarrh\w*|pain|"
        r"confus\w*|drowsy)\b",
        r"\b(?:foxglove|nightshade|belladonna|yew|oleander|lil(?:y|ies)|hemlock|laburnum|daffodil bulbs?)\b.{0,80}"
        r"\b(?:ate|eaten|chew\w*|swallow\w*|sick|vomit\w*|drowsy)\b|\b(?:ate|eaten|chew\w*|swallow\w*)\b.{0,40}"
        r"\b(?:foxglove|nightshade|belladonna|yew|oleander|lil(?:y|ies)|hemlock|laburnum)\b",
    ],
    "dehydration in a baby": [
        r"\b(?:no|not had a|hasn'?t had a|hasnt had a)\s+wet\s+(?:nappy|nappies|diapers?)\b|\bsunken\b.{0,20}"
        r"\b(?:soft spot|fontanel\w*)\b|\b(?:soft spot|fontanel\w*)\b.{0,20}\bsunken\b",
        r"\btaalu\b.{0,20}\b(?:dhans|andar)|तालू.{0,20}(?:धँस|धंस|अंदर)|fontanelle? (?:creus|afundad|hundid)|(?:moleira|mollera) "
        r"(?:afundad|hundid)|囟门.{0,4}(?:凹|陷)|اليافوخ.{0,10}(?:غاطس|نازل|منخفض)",
    ],
    # Waters broken before term; headache with flashing lights or blurred sight in pregnancy (pre-eclampsia)
    "waters broken or pre-eclampsia in pregnancy": [
        r"\bwaters? (?:just )?(?:went|broke|have gone|has gone|breaking)\b|\bbolsa (?:estourou|rompeu|rompi)|rompi (?:la )?fuente|"
        r"se me rompi[óo] la fuente|perdu les eaux|poche des eaux (?:a |s'est )?(?:perc|romp|cass)|破水|羊水破|"
        r"كيس الماء|(?:نزل|نزلت) (?:مني )?(?:فجأة )?(?:ماء|مية|موية) (?:كثير|كتير)|paani ki thaili (?:phat|foot)|पानी की थैली (?:फट|फूट)",
        r"^(?=.*(?:pregnan|embarazada|enceinte|gr[áa]vida|gestante|怀孕|孕|حامل|الحمل|garbhvati|गर्भवती|\b\d{2}\s*(?:weeks|semanas|"
        r"semaines|sa)\b))(?=.*(?:headache|head ache|dolor de cabeza|mal (?:de|à la) t[êe]te|dor de cabe[çc]a|头痛|头疼|صداع|وجع راس|"
        r"sir ?dard|सिरदर्द|सिर दर्द)).*(?:blurr|flash|sparkl|seeing (?:stars|spots|lights)|visi[óo]n borrosa|lucecitas|"
        r"vision floue|(?:des )?mouches|[ée]toiles|vista emba[çc]ada|pontos (?:brilhantes|de luz)|看不清|视力模糊|冒金星|闪光|"
        r"غباش|أضواء|اضواء|dhundhla|धुंधला|chamak)",
    ],
    # A baby under three months with a fever
    "fever in a young baby": [
        r"(?:\b(?:[1-9]|1[01])[ -]?(?:weeks?|wks?|semanas|semaines|sem|hafte)\b|\b[12][ -]?(?:mois|meses|months?|mahine|mahina)\b|"
        r"(?:刚满月|满月|[一两]个月大?|[12]个月大?)|(?:عمره|عمرها) (?:شهر|شهرين|أسبوع|اسبوعين)|\b(?:newborn|nouveau-n[ée]|reci[ée]n nacid[oa]|"
        r"rec[ée]m-nascid[oa])).{0,220}?(?:\b3[89](?:[.,]\d)?\s*(?:°|c\b|º|de (?:fiebre|febre|fi[èe]vre))|fever|fi[èe]vre|fiebre|febre|"
        r"发烧|发热|حرارة|حرارته|حرارتها|bukhar|बुखार|\b3[89][.,]\d\b)",
    ],
    "anaphylaxis": [
        r"\b(?:throat|tongue|lips?|face|mouth)\b.{0,30}\b(?:swell\w*|swollen|closing|closed up|tight)\b",
        r"\bswell\w*\b.{0,25}\b(?:throat|tongue|lips?)\b",
        r"\banaphyla\w*\b",
        r"\b(?:hives|swelling)\b.{0,50}\b(?:breath\w*|wheez\w*)",
        r"\b(?:lips?|tongue|face)\b.{0,12}\b(?:huge|massive|puff(?:y|ed up|ing up)|blown up|ballooned|blowing up)\b",
        r"\ballergic to\b.{0,120}\b(?:wheez\w*|throat\b.{0,20}\b(?:itch\w*|tight|weird)|can'?t (?:swallow|breathe))\b",
    ],
    "sepsis": [
        r"\bseps(?:is|tic)\b",
        r"^(?=.*\b(?:fever|temperature|chills|shiver\w*|infection)\b).*\b(?:confus\w*|not making sense|heart (?:is )?racing|racing heart"
        r"|mottled|clammy|purple rash|barely (?:awake|responsive))\b",
        r"\b(?:baby|infant|newborn|\d+\s*(?:-\s*)?(?:month|week)s?(?:\s*-\s*|\s+)old)\b.{0,60}\b(?:floppy|limp|won'?t (?:feed|wake)|"
        r"not feeding|hard to wake|grey|gray|mottled|drifting off)\b",
        r"\b(?:[0-9]|1[01])\s*(?:weeks?|wks?)\s*old\b.{0,60}\b(?:fever|high (?:temperature|temp)|3[89](?:\.\d)?\b|"
        r"10[0-4](?:\.\d)?\s*(?:f|°f))",
        r"\b(?:rash|spots|blotches|marks)\b.{0,40}\b(?:doesn'?t|doesnt|does not|don'?t|dont|do not|won'?t|wont|will not|"
        r"not)\s+fade\b|\bglass test\b|\bpress(?:ed|ing)?\s+a\s+glass\b",
    ],
    "severe bleeding or trauma": [
        r"\b(?:bleed\w*|blood)\b.{0,30}\b(?:won'?t|will not|doesn'?t|does not|can'?t|cannot|not)\s+stop",
        r"\b(?:a lot of|lots of|so much|heavy|heavily|severe|gushing|spurting|pouring|pool of)\s+(?:blood|bleeding)",
        r"\b(?:bleeding|blood)\s+(?:is\s+)?(?:really\s+|very\s+|so\s+)?(?:heavy|heavily|everywhere|a lot|loads|gushing|"
        r"spurting|pouring)\b|\bsoaking\s+(?:through\s+)?(?:a\s+|the\s+|my\s+)?(?:pads?|towels?)\b",
        r"\b(?:vomit\w*|throwing up|threw up|coughing up|cough\w* up)\s+blood\b",
        # a broken bone out of shape: "my forearm is bent at a weird angle"
        r"\b(?:arm|forearm|leg|ankle|wrist|bone|shin|elbow|knee)\b.{0,15}\b(?:bent|twisted|pointing)\b.{0,15}"
        r"\b(?:weird|wrong|funny|strange|odd|unnatural)\s+(?:angle|way|direction)\b|\bbone\s+(?:is\s+)?(?:sticking|poking)\s+out\b",
        r"\b(?:car|motorcycle|bike|traffic)\s+(?:crash|accident|collision)\b",
        r"\bhit\s+(?:my|his|her|their)\s+head\b",
        r"\bbone\b.{0,20}\b(?:sticking out|showing|through)\b|\bbent the wrong way\b",
        r"\b(?:stabbed|been shot|gunshot|deep (?:cut|wound|gash))\b",
        r"\bfell\b.{0,40}\b(?:can'?t move|unconscious|head)\b",
        r"\b(?:fell|fallen|had a fall)\b.{0,60}\b(?:can'?t|cannot|unable to|couldn'?t)\s+(?:get up|stand|get off the floor)\b",
        r"\b(?:can'?t|cannot|couldn'?t)\s+feel\s+(?:his|her|my|their)\s+legs\b",
        # knocked out, then vomiting or asking the same questions again: a head injury
        r"\b(?:knocked out|out cold|k\.?o'?d|knocked unconscious|lost consciousness)\b.{0,150}\b(?:threw up|throwing up|"
        r"vomit\w*|(?:keeps|kept) asking|same questions?|repeating himself|repeating herself)",
        r"\b(?:bitten by a|bit by a|got bit by a)\s+(?:\w+\s+)?(?:snake|adder|viper|rattlesnake)|\bsnake\s*bite\b.{0,60}"
        r"\b(?:swell\w*|swollen|droop\w*|blurr\w*|can'?t|numb)",
        # a blood thinner taken twice, and now bleeding
        r"^(?=.*\b(?:twice|double|two doses|extra)\b)(?=.*\b(?:warfarin|coumadin|jantoven|xarelto|rivaroxaban|eliquis|apixaban|"
        r"pradaxa|dabigatran|blood thinners?)\b).*\b(?:bleed\w*|blood in|bruis\w*|black (?:poo|stool)|coffee[- ]grounds?)",
        r"\bvomit\w*\b.{0,30}\bcoffee[- ]grounds?\b|\bblack,? tarry\b",
    ],
    "loss of consciousness": [
        r"\b(?:passed out|fainted|blacked out|collapsed|unconscious|unresponsive|not responding)\b",
        r"\b(?:won'?t|will not|doesn'?t|does not|isn'?t|is not|not)\s+(?:respond\w*|moving|answering me)\b",
        _NOT + r"\s+(?:\w+\s+)?(?:wake|waking)\s+up\b",
        r"\b(?:won'?t|will not|can'?t|cannot|couldn'?t)\s+(?:wake|rouse)\s+(?:him|her|them|my \w+|properly)\b",
        r"\b(?:won'?t|will not|doesn'?t|does not)\s+wake\s+properly\b",
        r"\b(?:not|stopped|isn'?t|is not)\s+breathing\b",
        r"\bseizure\b.{0,40}\b(?:minutes|won'?t stop|not stopping|lasted)\b|\b(?:having|is having) (?:a )?seizure\b",
        r"\b(?:having|had|has|in)\s+(?:a\s+)?(?:fit|convulsions?)\b.{0,40}\b(?:minutes|won'?t stop|wont stop|not stopping|"
        r"isn'?t stopping|isnt stopping|lasted)\b|\b(?:fitting|seizing|convulsing)\s+for\b.{0,20}\b(?:minutes?|mins?)\b",
    ],
    "overdose or poisoning": [
        # heart or blood-pressure pills taken twice or two days' together, then faint or a slow pulse
        r"^(?=.*\b(?:twice|together|double|two doses|two days'?)\b)(?=.*\b(?:(?:heart|blood pressure|bp)\s+(?:tablets|pills|meds|"
        r"medications?)|digoxin|metoprolol|bisoprolol|atenolol|verapamil|diltiazem)\b).*\b(?:faint\w*|pulse\b.{0,25}\b[2-4]\d\b|"
        r"heart\s+(?:rate\s+)?(?:is\s+)?(?:very\s+|really\s+|so\s+)?slow|(?:can'?t|barely)\s+stand)",
        r"\b(?:took|taken|swallowed|ingested|drank)\b.{0,25}\b(?:too many|too much|whole (?:bottle|pack)|way too|a bunch of|a handful of|all (?:of )?(?:my|his|her|the))\b",
        r"\b(?:swallowed|drank|ate|ingested)\b.{0,25}\b(?:bleach|detergent|battery|batteries|poison|antifreeze|pods?)\b",
        r"\boverdos(?:ed|ing)\b",
        # Many tablets: two digits, words for many, or a whole pack (two tablets are a dose, not an overdose).
        r"\b(?:took|taken|swallowed|ate|eaten|downed|had)\b.{0,20}?(?:\b\d{2,}\b|\b(?:a dozen|dozens|twenty|thirty|forty|"
        r"fifty|a lot of|lots of|loads of|a bunch of|a handful of|handfuls of|(?:a |the )?whole (?:box|bottle|pack(?:et)?|"
        r"strip|sheet|blister|tub|jar|container)|(?:a|the|two|three) (?:box|boxes|bottles?|packs?|packets?) of)\b)"
        r".{0,40}\b(?:pills?|tablets?|capsules?|meds|medications?|medicines?|paracetamol|acetaminophen|tylenol|ibuprofen|"
        r"aspirin|iron|insulin|antidepressants|painkillers|sleeping pills)\b",
        # A child got into medicines or chemicals.
        r"\b(?:baby|toddler|child|kid|son|daughter|grandson|granddaughter|infant|little one|\d+\s*(?:yo|y/o|yrs?\s*old|"
        r"years?\s*old|year-old|months?\s*old|month-old))\b.{0,60}\b(?:ate|eaten|swallowed|drank|drunk|got into|chewed|licked|bit into|bitten into|sucked on|sucking on|"
        r"might have (?:eaten|swallowed|drunk))\b.{0,60}\b(?:pills?|tablets?|medicines?|meds|capsules?|vitamins|batter(?:y|ies)|magnets?|bleach|detergent|"
        r"pods?|cleaner|chemicals?|poison|e-?liquid|vape|weed killer|pesticide|antifreeze|dishwasher|laundry)\b",
    ],
}

# A fever said to be there (not "no fever", "sin fiebre", "不发烧"; not yellow fever or its vaccine).
_FEVER = (r"(?<!no )(?<!sin )(?<!sem )(?<!pas de )(?<!sans )(?<!without )(?<!不)(?<!没)(?<!没有)"
          r"(?:fever|temperature|\btemp\b|fi[èe]vre|fiebre|febre|发烧|发热|高烧|حرارة|حرارتي|حمى|سخونة|s5ana|skhana|bukhar|"
          r"बुखार|shiver|rigors|chills|shak(?:es|ing)|frissons|escalofr|tirit|calafrio|寒战|رعشة|kaanp|कंपकंपी|katr3ed|"
          r"\b(?:3[89]|40)[.,]\d\b(?!\s*(?:kg|cm|%|mm|ml)))"
          r"(?!\s*(?:jaune|amarela|amarilla))(?<!yellow fever)")
# Signs that are emergencies because of the illness or treatment they come with, told in any supported language. A
# date in such a message dates the treatment ("transplanted two months ago, 39 of fever today"), not the sign.
DATED_BY_TREATMENT = ("fever on chemotherapy or after a transplant", "missed dialysis")
EMERGENCY.update({
    # Fever during chemotherapy (neutropenic sepsis until shown otherwise) or after a transplant.
    "fever on chemotherapy or after a transplant": [
        r"(?:chemo|chimio|quimio|\bkimo|化疗|化療|كيماوي|كيميائي|كيماوى|chimyo|कीमो|r-chop|\bfec\b|docetaxel|docétaxel|carboplatin|"
        r"cisplatin|transplant|trasplant|greff[ée]|移植|زراعة|زارع|زرع|ट्रांसप्लांट).{0,300}?" + _FEVER + r"|" + _FEVER +
        r".{0,300}?(?:chemo|chimio|quimio|\bkimo|化疗|化療|كيماوي|كيميائي|chimyo|कीमो|transplant|trasplant|greff[ée]|移植|زراعة|"
        r"زارع|زرع|ट्रांसप्लांट)",
    ],
    # An adrenaline auto-injector used: a reaction that needed it needs the emergency department, even if it helped.
    "adrenaline auto-injector used": [
        r"\b(?:used|gave|give|injected|jabbed|did|stuck|administered)\s+(?:\w+\s+){0,3}(?:epi-?pens?|auto-?injectors?|"
        r"adrenaline pen|epinephrine pen|jext|anapen)\b|\b(?:epi-?pen|auto-?injector|anapen|jext)\b.{0,30}\b(?:used|given|"
        r"in (?:his|her|my|the) (?:thigh|leg))\b",
        r"\b(?:me puse|le puse|puse|us[ée]|inyect[ée]|apliqu[ée]|pusimos)\b.{0,20}(?:autoinyector|adrenalina|epipen|pluma)|"
        r"\b(?:fait|mis|inject[ée]|utilis[ée])\b.{0,25}(?:anapen|epipen|stylo|auto-?injecteur|adr[ée]naline)|"
        r"\b(?:apliquei|usei|dei|injetei|aplicamos)\b.{0,20}(?:caneta|epipen|adrenalina)",
        r"(?:打了|用了|注射了).{0,6}肾上腺素|肾上腺素笔.{0,8}(?:打了|用了)|"
        r"(?:ضربت|استخدمت|اديته|اديتها|حقنت|أعطيته|أعطيتها).{0,25}(?:epipen|إبي ?بن|ابي ?بن|القلم|الأدرينالين|ادرينالين)|"
        r"\bepipen (?:laga|lagaya|lagayi|di|diya|de di)\b|(?:एपिपेन|एड्रेनालाईन).{0,15}(?:लगाया|लगा दिया|दिया)",
    ],
    # Dialysis missed, with breathlessness, an irregular heart or weakness (high potassium, fluid on the lungs).
    "missed dialysis": [
        r"^(?=.*(?:dialys|di[áa]lisis|dialise|hemodi[áa]lise|h[ée]modialyse|透析|غسيل|डायलिसिस))"
        r"(?=.*(?:missed|skipped|rat[ée]|manqu[ée]|perd[íi]|falt[ée]|faltei|perdi|فوت|فاتت|فاتني|ما رحت|chhoot|chhut|छूट|"
        r"miss ho|错过|没去|没做))(?=.*(?:breath|heart|palpit|weak|heavy|tingl|numb|confus|essouffl|c[œo]ur|rat[ée]s|lourde|"
        r"fourmill|ahog|coraz[óo]n|falta de ar|cora[çc][ãa]o|fraqueza|心|喘|气短|无力|发麻|نفس|قلب|تقال|تنميل|saans|\bdil\b|दिल|"
        r"साँस|सांस)).{1,20}",
    ],
    # Oxygen saturation under 90%.
    "low oxygen": [
        r"(?:\bsats?\b|saturation|satura[çc][ãa]o|saturaci[óo]n|spo2|sp02|oximeter|ox[íi]metro|oxym[èe]tre|\bo2\b|"
        r"oxygen (?:level|sat\w*)|血氧|الأكسجين|أكسجين|ऑक्सीमीटर|ऑक्सीजन)\D{0,20}?\b[5-8]\d\b(?!\s*(?:-|–|to|a)\s*9\d)"
        r"(?!\s*(?:bpm|/min|pulse|puls|lpm|l/min|litres|liters|years?|ans|años|anos|kg))",
    ],
})

# Emergency signs in the other supported languages (matched without the English context rules).
EMERGENCY_OTHER: list[str] = [
    # A button battery missing near a small child
    r"(?:pilita|pila|button (?:cell|battery)|bater[íi]a|pile(?: bouton)?|bateria|纽扣电池|电池|بطارية|battery|cell)\b.{0,40}"
    r"(?:gayab|missing|falta|no la encuentro|manque|disparu|sumiu|n[ãa]o acho|不见了|找不到|مش لاقي|مش لاقيه|ضايعة)|"
    r"(?:falta|le falta|missing|manque)\b.{0,15}(?:pilita|pila|button (?:cell|battery)|pile|bateria)",
    # Signs of the illness told with it: frothy pink sputum, ketones, fever with confusion, a diabetic who makes no sense
    r"(?:pink|ros[ée]e?|rosad[ao]|\brosa\b|粉红|粉紅|وردي|gulabi|गुलाबी).{0,25}(?:froth|foam|espuma|mousse|spum|泡沫|رغوة|jhaag|झाग)|"
    r"(?:froth|foam|espuma|mousse|泡沫|رغوة)\w*.{0,15}(?:pink|ros[ée]e?|rosad[ao]|粉红|وردي)",
    r"(?:ketones?|c[ée]ton[ée]mie|cetonemia|cetonas?|酮体|血酮|كيتون|कीटोन)\D{0,25}(?:\b[2-9](?:[.,]\d+)?\b|high|[ée]lev|alt[ao]s?\b|高|عالي|مرتفع)",
    r"(?:fiebre|fi[èe]vre|febre|发烧|高烧|发热|حرارة|حمى|bukhar|बुखार).{0,120}(?:confundid|desorientad|confus[ea]?\b|d[ée]sorient|"
    r"coisa com coisa|糊涂|意识不清|胡言乱语|مش مركز|تايه|مشوش|samajh nahi aa|समझ नहीं आ रहा|होश नहीं)",
    r"^(?=.*(?:insulin|insulina|diab[ée]t|a[çc][úu]car|gl[iy]c[ée]mi|glucos|sugar|血糖|胰岛素|السكر|انسولين|إنسولين|शुगर|इंसुलिन))"
    r"(?=.*(?:sem sentido|coisa com coisa|n[ãa]o sabe quem|no sabe qui[ée]n|sin sentido|no reacciona|n'importe quoi|"
    r"ne (?:me )?reconna[îi]t|incoh[ée]rent|胡言乱语|不认识|叫不醒|بيخرف|مش عارف(?:ني| مين)|ulta seedha|pehchaan nahi|पहचान नहीं)).{1,20}",
    # Stroke in Arabic and Hindi as a relative describes it; the worst headache of one's life
    r"(?:فم|فمه|فمها|وجهه|وجهها)\S*\s+(?:مائل|مايل|معوج|مال)|(?:لا|ما) (?:يستطيع|تستطيع|يقدر|تقدر) (?:رفع|يرفع|ترفع) "
    r"(?:ذراع|يد|إيد)|(?:كلام|الكلمات|كلمات)\S*\s+(?:غير مفهوم|مش مفهوم)|मुँह.{0,20}(?:टेढ़ा|टेढा|तिरछा)|"
    r"(?:दायाँ|बायाँ|दाया|बाया|दाहिना|एक) हाथ.{0,10}(?:उठ नहीं|सुन्न)|शब्द.{0,12}साफ़? नहीं",
    r"(?:pire|plus (?:gros|fort|violent)) mal de t[êe]te de (?:ma|sa|toute (?:ma|sa)) vie|mal de t[êe]te.{0,30}(?:atroce|explos|"
    r"coup de tonnerre)|peor dolor de cabeza de (?:mi|su) vida|pior dor de cabe[çc]a da (?:minha |sua )?vida|"
    r"(?:一生中|这辈子)最(?:痛|疼|剧烈)的头痛|头(?:像)?(?:要)?(?:炸开|爆炸)|أسوأ صداع|zindagi ka sabse (?:tez|bura) (?:sir ?dard|sardard)|"
    r"ज़िंदगी का सबसे (?:तेज़|बुरा) सिरदर्द",
    # Arabizi: cannot breathe, throat closed, lips and tongue swelling
    r"\bmesh (?:3arf[ae]?|2ader|2adra|a2dar|aadr[ae]) a?t?naff?es|\b(?:zore2i|zor2i|7al2i) (?:ma2fool|m2fool|2afel)|"
    r"\b(?:shafayef\w*|lesan\w*)\b.{0,12}\b(?:betwarem|bitwarram|warma|wermet)",
    # fr
    r"douleur\w*.{0,25}(?:poitrine|thoracique)", r"(?:n'arrive pas|ne peux pas|ne peut pas|du mal) à respirer",
    r"visage.{0,20}(?:tombe|affaiss|paralys)", r"(?:perdu connaissance|évanoui|inconscient)", r"saigne\w* beaucoup",
    # es
    r"dolor.{0,20}(?:de|en el) pecho", r"no (?:puedo|puede) respirar", r"cara.{0,15}ca[íi]d[ao]",
    r"(?:perdi[óo] el conocimiento|se desmay|inconsciente)", r"sangra\w* mucho",
    # pt
    r"dor.{0,20}(?:no|do) peito", r"falta de ar", r"n[ãa]o consig\w* respirar", r"(?:desmai|perdeu a consci[êe]ncia)",
    r"rosto.{0,15}ca[íi]d[ao]", r"n[ãa]o responde (?:quando|mais|a nada)|t[áa] ca[íi]d[oa] no ch[ãa]o",
    r"(?:tornozelo|bra[çc]o|perna|osso|pulso)\b.{0,15}\bvirad[oa] pr?[oa] lado errado",
    # ar: the mouth fallen to one side, speech garbled, an arm or half the body that will not move
    r"(?:تمه|تمها|فمه|فمها|بقه|بقها) (?:مال|معوج|اتعوج)|(?:حكيه|حكيها|كلامه|كلامها) (?:مش مفهوم|مخربط)|"
    r"ما (?:عم )?(?:يقدر|تقدر) (?:يرفع|ترفع) (?:ايده|إيده|ايدها|إيدها)|ما (?:عم )?(?:يحرك|تحرك) نص جسم",
    # hi: chest pain, a numb left arm, not conscious, snoring breaths
    r"\bseene (?:mein|me|mai) (?:bahut |tez |bahut tez |zor ka )?dard\b|\bbaa?ya?n haath\b.{0,15}\b(?:sunn|bhaari|bhari)\b|"
    r"\bhosh nahi?n? (?:hai|aa raha|aaya)\b|\bkharrate jaisi saans\b",
    # zh (胸外按压 is chest compressions, not chest pressure)
    r"胸(?!外按)(?:口|部)?.{0,4}(?:痛|疼|闷|压)", r"喘不过气|呼吸困难|不能呼吸", r"昏迷(?!评分|指数|量表)|晕倒|失去知觉|叫不醒", r"口齿不清|嘴歪|中风了|(?:一边|半边)(?:脸|嘴)(?:耷拉|歪|垂)|突然说话不清楚?|说话突然不清楚?",
    r"大出血|血流不止",
    # ar
    r"ألم.{0,15}(?:صدر|الصدر)", r"(?:لا أستطيع|لا يستطيع|صعوبة في) التنفس", r"ضيق.{0,5}التنفس", r"فقد الوعي|فاقد الوعي",
    r"نزيف (?:حاد|شديد)",
    # hi
    r"(?:सीने|छाती)\s*में.{0,20}दर्द", r"(?:साँस|सांस).{0,15}(?:नहीं|लेने में)", r"बेहोश",
    # The core signs again, as people write them in a hurry: without accents, in dialect, in Latin letters.
    # fr
    r"(?:ne )?respire (?:plus|pas)\b(?! (?:bien|correctement|par le nez))|a arrêté de respirer|s'[ée]touff(?:e|ait)\b",
    r"convuls\w*|(?:ne )?se r[ée]veille (?:plus|pas)\b|(?:bouche|visage) de travers",
    r"(?:tomb[ée]\w*|chute)\b.{0,90}\b(?:a vomi|vomit|vomi deux|vomi plusieurs)|"
    r"(?:avalé|bu|mangé)\b.{0,40}\b(?:médicaments|comprimés|cachets|javel|pile|détergent|produit ménager)",
    r"(?:beaucoup|plein|énormément) de sang|saigne\w* (?:énormément|sans arrêt)|(?:gorge|langue|lèvres?) (?:qui )?(?:gonfl|enfl)\w*",
    # es
    r"\bno respira\b(?! (?:bien|por la nariz))|dej[óo] de respirar|se (?:est[áa] )?ahog(?:a|ando)\b(?! en)|convulsi\w*",
    r"no (?:se )?despierta|no reacciona|(?:boca|cara) (?:torcida|chueca|de lado)|(?:mucha|much[íi]sima) sangre|"
    r"no (?:para|deja) de sangrar|sangra\w* (?:much[íi]simo|sin parar)",
    r"(?:trag[óo]|se tom[óo]|bebi[óo]|se comi[óo])\b.{0,40}\b(?:pastillas|lej[íi]a|cloro|pilas?|veneno|matarratas)",
    r"se cay[óo]\b.{0,90}\bvomit\w*|(?:garganta|lengua|labios)\b.{0,20}\b(?:hinch\w*|cerrando)",
    # pt
    r"n[ãa]o (?:est[áa] )?respira(?:ndo)?\b(?! (?:bem|direito|pelo nariz))|parou de respirar|engasgad[oa]\b|engasgando",
    r"n[ãa]o acorda\b|n[ãa]o reage\b|boca torta|muito sangue|n[ãa]o para de sangrar|sangrando muito",
    r"(?:caiu|bateu a cabe[çc]a)\b.{0,90}\b(?:vomit\w*|confus[ao])|"
    r"(?:engoliu|tomou|bebeu|comeu)\b.{0,40}\b(?:comprimidos|rem[ée]dios|água sanit[áa]ria|cloro|pilha|bateria|veneno|chumbinho)",
    r"(?:garganta|l[íi]ngua|l[áa]bios?)\b.{0,20}\b(?:inchad\w*|fechando)",
    r"(?:alacr[áa]n|escorpi[óo]n)\b.{0,80}\b(?:lengua (?:dormida|adormecida|trabada)|no puedo tragar|babea\w*|convuls\w*)",
    r"(?:嘴唇|舌頭|舌头).{0,6}(?:腫|肿)|喉嚨.{0,3}(?:緊|好緊|很緊)|(?:滾水|開水|熱油|滚水).{0,10}(?:燙|烫|倒落|潑|泼|淋)",
    # zh
    r"没有?呼吸|没气了|不喘气|停止呼吸|呼吸停止|噎住|卡住(?:了)?(?:喉咙|嗓子)|抽搐|癫痫发作|掉进(?:河|水|池|湖|泳池)|溺水|被蛇咬(?:了|伤)|"
    r"(?:流了)?很多血|血止不住|半边(?:身体|脸).{0,4}(?:麻|动不了|没知觉)|"
    r"(?:孩子|宝宝|儿子|女儿|小孩).{0,15}(?:吞了|误食|喝了|吃了).{0,10}(?:药片|一瓶|整瓶|电池|洗衣|消毒|农药|老鼠药)",
    # ar (standard and spoken)
    r"(?<!\S)و?(?:مش|مو|ما|لا|مابي|ماب)(?:\s+\S+){0,2}\s+\S{0,3}(?:تنفس|تنفّس)|"
    r"(?<!\S)و?(?:مش|مو|ما|لا)(?:\s+\S+){0,2}\s+(?:ياخد|تاخد|ياخذ|تاخذ|اخد|آخذ|ناخد)\s+نفس",
    r"وقف نفسه|توقف عن التنفس|(?:ماسك|ماسكة|ممسك|ماسكه) (?:على )?(?:صدره|صدرها)|تشنج\w*|نوبة صرع|مغمى عليه|أغمي عليه|اغمى عليه|"
    r"(?:شرب|شربت|بلع|بلعت)\S*[^.؟!]{0,30}(?:كلور|الكلور|ديتول|بنزين|مبيد|حبوب|بطارية|الدوا كله)|بينزف|الدم مش راضي يوقف|"
    r"(?:لدغ|عض)\w* (?:ثعبان|حية|أفعى|الحية|الثعبان)|وقع في (?:البحر|المية|الميه|البيسين|المسبح)|غرق\b",
    r"\b(?:msh|mish|mesh|mush|mo|ma) ?(?:3am |3m )?(?:ye|yi|te|ti|b)?(?:2ader|ader|adir|2adir|2adra|adra|2dar|2der|2dir)\w* "
    r"(?:at|y|t|n|a|ye|yi|te|ti)?(?:tnafas|tnaffas|nafas|tanafas|tanaffas|5od nafas|akhod nafas)",
    # arabizi: "fainted on me" (ghmi 3alay), "not coming round" (ma 3am yfi2)
    r"\b(?:ghmi|ghomi|oghmi|ughmi|oghmia|ghoumi|ghimi) (?:3a?l|3la)\w*|\b(?:ma|msh|mish|mesh) (?:3am |3m )?(?:yfi2|tfi2|yefi2|tefi2|"
    r"yes7a|tes7a|yss7a|ts7a)\b",
    r"\b(?:3am |3m )?\w{0,3}(?:sh|ch)ann?[oa]j\w*|\bnawbet sara3|\b(?:3am |3m )?b?tent[ei]fe?d\b|\byetla3 zabad|\bzabad men|"
    r"(?:تنتفض|ينتفض) كل|(?:يطلع|بيطلع|طالع) زبد|زبد من (?:فمها|فمه|تمها|تمه|بقها|بقه)",  # arabizi: "convulsing", "a seizure", foam
    # hi (Devanagari and Hinglish)
    r"\bsaa?ns\w* (?:hi |bhi )?(?:nahi|nahin|nai|na) (?:le|aa|a)\w*|\bhont (?:neele|nile|kaale)|\bsaa?ns (?:ruk|band)|(?:साँप|सांप) ने काट|\bsaa?np ne kaa?t|"
    r"दौरा पड़|झटके आ रहे|\b(?:daura pad|jhatke aa rahe)|बहुत खून|खून (?:बह|रुक नहीं)|\bbahut khoon|\bkhoon (?:beh|ruk nahi)|"
    r"\bbehosh|\bhosh (?:me|mein|mai|main|mei) (?:nahi|nahin|nai|na) (?:aa|a)\w*|\b(?:seene|sine|chhati|chest) (?:me|mein|mai) (?:bahut )?dard|डूब (?:गया|गई|रहा|रही)|\bdoob (?:gaya|gayi|raha)|"
    r"मुँह टेढ़ा|मुंह टेढ़ा|बोल नहीं पा रह|(?:बच्चे|बच्चा|बेटे|बेटी)\S*.{0,30}(?:निगल|पी ली|पी लिया|खा ली|खा लिया).{0,20}"
    r"(?:गोलियां|गोली|दवा|बैटरी|तेज़ाब|तेजाब|कीटनाशक|फिनाइल)",
    # sprayed or drank a pesticide, then sick: "keedanashak spray kar rahe the ... lagatar ulti"
    r"\b(?:keedanashak|keetnashak|kitnashak|keede ki dawa|pesticide)\b.{0,200}\b(?:ulti|chakkar|pasina|saa?ns|behosh)|"
    r"कीटनाशक.{0,200}(?:उल्टी|चक्कर|पसीना|सांस|साँस|बेहोश)",
    # Collapsed, not answering, breathing oddly
    r"(?:il|elle) (?:ne )?r[ée]pond (?:plus|pas)\b(?! (?:trop |vraiment |beaucoup )?(?:aux|[àa] mes|[àa] ses|au t[ée]l[ée]phone))|"
    r"respire (?:presque (?:plus|pu)|bizarre)|"
    r"no responde\b(?! (?:a|al|bien|los|mis|mensajes) )|respira (?:raro|con dificultad)|"
    r"n[ãa]o responde\b(?! (?:a|ao|bem|direito|as|às|mensage\w*|no) )|"
    r"respira (?:estranho|com dificuldade)|叫(?:他|她|也)?没(?:有)?反应|怎么叫都|突然倒地|呼吸.{0,6}(?:奇怪|很怪|急促)|"
    r"(?:ما|مش|ما ب)(?: عم)? ?(?:ي|ب)?رد (?:علينا|علي|عليا)|لا يستجيب|\bjawab nahi de|जवाब नहीं दे रह|\bbol nahi (?:rahe|raha|rahi)\b|"
    r"\bsaa?ns atak|सांस अटक|साँस अटक",
    # Scalds and burns: hot oil or boiling water spilled on someone
    r"(?:huile|friteuse|eau bouillante)\b.{0,50}\b(?:renvers|sur (?:les|la|le|son|sa|ses) )|"
    r"(?:aceite|agua hirviendo|olla)\b.{0,50}\b(?:se (?:le )?(?:cay[óo]|volc[óo]|derram[óo]))|"
    r"(?:[óo]leo|panela|[áa]gua fervendo)\b.{0,40}\b(?:virou|caiu|derramou)|(?:开水|热油|滚油|油锅).{0,10}(?:烫|泼|洒|倒)|"
    r"(?:زيت|مية سخنة|مي سخنة|ماء مغلي|ميه مغلية).{0,30}(?:وقع|انكب|اندلق|انسكب)|"
    r"(?:खौलता|गरम|गर्म) (?:तेल|पानी).{0,30}गिर|\b(?:garam|khaulta|ubalta) (?:tel|paani|pani)\b.{0,30}\bgir",
    # A knock to the head, then vomiting
    r"(?:cogn|tomb)\w*\b.{0,100}\bvomi|(?:se golpe[óo]|se peg[óo]|se cay[óo])\b.{0,100}\bvomit|(?:摔|磕|撞).{0,60}(?:吐了|一直吐|呕吐|又吐)|"
    r"(?:وقع|سقط|ضرب راس|ضرب رأس).{0,120}(?:تقيأ|تتقيأ|يتقيأ|رجّع|استفرغ|تستفرغ|يستفرغ)|(?:\bgir|गिर).{0,80}(?:\bulti|उल्टी)",
    # A week's pills or several doses taken at once, and now drowsy, slow or clammy
    r"\b(?:taken|took|swallowed)\s+(?:all|a whole|the whole|double|(?:two|three|several) doses?)\b.{0,80}\b(?:pills?|tablets?|"
    r"meds|medication|doses?)\b.{0,150}\b(?:sleepy|drowsy|hard to (?:rouse|wake)|won'?t wake|unresponsive)|"
    r"(?:pris|aval[ée])\s+(?:ses comprim[ée]s deux fois|trois doses|tous ses comprim[ée]s|toute la bo[îi]te).{0,150}"
    r"(?:t[êe]te qui tourne|pouls|somnolent|endormi|ne r[ée]pond)|"
    r"(?:tomado|tom[óo]|tragado)\s+(?:por error\s+)?(?:todas las pastillas|toda la caja|el doble).{0,150}"
    r"(?:flojo|medio dormido|adormilad|no responde)|"
    r"(?:tomou|engoliu)\s+(?:sem querer\s+)?(?:uma cartela inteira|todos os comprimidos|o dobro).{0,150}"
    r"(?:molinha|molenga|sonolent|falando devagar|n[ãa]o responde)|"
    r"(?:一周|一整瓶|整盒|两次|双倍).{0,12}(?:一起吃了|全吃了|吃了).{0,40}(?:反应(?:很)?慢|叫不醒|迷糊|昏昏)",
    # Heart or blood-pressure pills taken twice, then dizzy, a slow pulse, barely standing
    r"(?:pris|aval[ée]) (?:deux fois|en double|le double)\b.{0,60}(?:c[œo]e?ur|tension).{0,150}(?:t[êe]te qui tourne|"
    r"c[œo]e?ur (?:tout |tr[èe]s )?lent|pouls|tiens (?:à|a) peine debout|m'[ée]vanouir)|"
    r"(?:tom[ée]|tom[óo]) dos veces\b.{0,60}(?:coraz[óo]n|presi[óo]n).{0,150}(?:marea|pulso (?:muy )?lento|no me puedo parar|desmay)|"
    r"(?:tomei|tomou) (?:duas vezes|em dobro|dose dupla)\b.{0,60}(?:cora[çc][ãa]o|press[ãa]o).{0,150}(?:tont|pulso (?:bem |muito )?lento|"
    r"desmai|n[ãa]o consigo (?:ficar|me manter) em p[ée])|"
    r"(?:أدوية|دواء|حبوب) (?:القلب|الضغط) مرتين.{0,150}(?:دوار|دوخة|نبضي بطيء|نبضه بطيء|لا أستطيع الوقوف|مش قادر(?:ة)? أقف|أغمى)|"
    r"(?:दिल|बीपी|ब्लड प्रेशर) की (?:गोलियाँ|गोलियां|दवा|दवाई) दो बार.{0,150}(?:चक्कर|धड़कन (?:बहुत )?धीमी|खड़ी? (?:भी )?नहीं हो पा)|"
    r"\b(?:dil|bp) ki (?:goliyan|goli|dawai|dawa) do baar\b.{0,150}\b(?:chakkar|dhadkan (?:bahut )?(?:dheemi|dhimi)|khad[ai] nahi ho pa)|"
    r"(?:心脏|降压|心脏病)药.{0,10}(?:吃了两次|吃了两遍|重复吃了|多吃了一次).{0,60}(?:头晕|心跳(?:很|特别|好)?慢|站不起来|晕倒)",
    # Speech, an arm, a face gone crooked (Quebec French, and as students write it)
    r"parle tout(?:e)? croche|bouche (?:est )?croche|peu[tx] p(?:u|lus) lever (?:son|sa|le) bras|"
    r"bouche (?:qui )?tombe d'un c[ôo]t[ée]|arrive (?:plus|pas) (?:à|a) lever (?:son|le) bras",
    # Pressure or tightness in the chest (not only "pain"): "presión en el pecho", "aperto no peito", "chhati mein dabav"
    r"(?:presi[óo]n|opresi[óo]n|peso|apret\w*)\s+(?:en el|en mi|del) pecho|"
    r"(?:aperto|press[ãa]o|peso|aperta\w*)\s+no peito|(?:pression|oppression|poids|serr\w*)\s+(?:sur|dans|à) la poitrine|"
    r"\b(?:chhati|chhaati|seene|sine|chest) (?:me|mein|mai|pe|par) (?:\w+ )?(?:dabav|dabaav|dabaw|bhaari|bhari|jakdan|pressure)|"
    r"(?:छाती|सीने) (?:में|पर) (?:\S+ )?(?:दबाव|भारीपन|जकड़न)|(?:ضغط|ثقل|تقل) (?:على|في) (?:صدري|صدره|صدرها)",
    # A whole pack already swallowed
    r"(?:aval[ée]|pris) (?:toute la bo[îi]te|tout le tube|toute la plaquette|\d{2} comprim[ée]s)|"
    r"(?:me tom[ée]|tom[ée]|tragu[ée]) (?:toda la caja|todo el frasco|todas las pastillas|\d{2} pastillas)|"
    r"(?:tomei|engoli) (?:a cartela toda|todos os comprimidos|o frasco todo|\d{2} comprimidos)|"
    r"(?:一整瓶|整瓶|几十片|\d{2}片).{0,8}(?:吃了|吞了)|(?:吃了|吞了).{0,4}(?:一整瓶|整瓶|几十片|\d{2}片)|"
    r"بلعت (?:كل|علبة|العلبة)|(?:पूरी पत्ती|पूरी शीशी|सारी गोलियां).{0,10}खा (?:ली|लिया)|\b(?:puri patti|saari goliyan) kha",
    # Heat stroke: hot and no longer sweating
    r"dej[óo] de sudar|(?:ne )?transpire plus|parou de suar|n[ãa]o (?:est[áa] |t[áa] )?suando mais|汗都不出|不出汗了|"
    r"(?:بطل|وقف|ما عاد) ي?عرق|पसीना (?:बिल्कुल )?बंद|\bpasina band",
    # Bites and stings; an electric shock; pulled out of the water; a stove or heater and headaches
    r"(?:lo|la|le) mordi[óo] una (?:culebra|serpiente|v[íi]bora)|picad[oa] por uma (?:jararaca|cobra|cascavel)|"
    r"piqu\w+ par une gu[êe]pe\b.{0,80}\b(?:enfl|gonfl|respire)|被.{0,4}(?:蜂|蛇|蝎子)(?:叮|蜇|咬|螫)(?:了|伤)|"
    r"(?:عقرب|حية|أفعى|ثعبان) لدغ|لدغ\S* (?:عقرب|حية|أفعى|ثعبان)",
    r"(?:apanhou|levou|tomou) (?:um )?choque|le dio (?:la )?corriente|se electrocut\w*|s'est [ée]lectrocut\w*|触电|"
    r"انصعق|صعق\S* (?:بال)?كهربا|करंट लग|\bcurrent lag",
    r"sacamos\b.{0,40}\b(?:del agua|de la pileta|de la piscina|del fondo)|sortir\b.{0,40}\bde l'eau|bu la tasse|"
    r"tiramos\b.{0,40}\bda (?:[áa]gua|piscina)|从水里(?:捞|拉|救)|(?:paani|pani) se nikala|पानी से निकाला",
    r"(?:brasero|angithi|अंगीठी|البوطة|الشوفاج|炭火|煤炉|estufa|po[êe]le|braseiro)\b.{0,100}"
    r"(?:dolor de cabeza|headaches?|sar dard|सिर दर्द|الصداع|头疼|头痛|mal [àa] la t[êe]te|dor de cabe[çc]a|vomit|ulti|التقيا)",
    # Stroke signs in everyday words: half the face asleep, words jumbled, sight gone in one eye, falling to one side
    r"(?:se le )?durmi[óo] (?:la mitad de )?(?:la )?cara|(?:dormid[ao]|paralizad[ao]|ca[íi]d[ao]|entumid[ao]) la mitad de la cara|"
    r"palabras revueltas|"
    r"no (?:ve|veo) (?:nada )?(?:de|por) un ojo|se (?:fue|va|cay[óo]) de lado|"
    r"moiti[ée] du visage (?:endormie|paralys[ée]e|tomb[ée]e)|(?:ne )?voit plus (?:rien )?d'un (?:œil|oeil)|mots m[ée]lang[ée]s|"
    r"metade do rosto (?:dormente|paralisada|ca[íi]da)|n[ãa]o enxerga (?:nada )?de um olho|fala enrolada|"
    r"一只眼睛(?:突然)?看不见|\bmu[nh]?h (?:ek taraf |ek side )?tedha|\bhaath (?:utha|uth) nahi pa|"
    # Heat stroke and collapse: no longer sweating, collapsed, eyes rolling back
    r"ya no suda|(?:ahorita|ahora|de repente|y)\s+se (?:nos |me |le )?desplom[óo]|se le (?:ponen|pusieron|voltean) los ojos en blanco|"
    r"(?:il|elle) s'est effondr[ée]|yeux r[ée]vuls[ée]s|(?:ele|ela) desabou|"
    # A child pulled out of the water; lips or nails turning blue; pink froth
    r"捞(?:上来|起来|出来)|(?:水里|池里|河里|深水区).{0,10}(?:救|拉)(?:上来|起来|出来)|嘴唇(?:发紫|发青|发黑)|指甲.{0,3}发紫|"
    r"粉红色?的?泡沫|"
    r"labios (?:morados|azules)|l[èe]vres (?:bleues|violettes)|l[áa]bios (?:roxos|azuis)|"
    r"(?:diab[ée]tique|insuline).{0,150}(?:je tremble|tremble de partout|je transpire|vois flou|vais m'?[ée]vanouir)|"
    r"血.{0,10}(?:往外喷|喷出来|止不住)|\bmu[nh]+ se jhaag|मु[ंँ]ह से झाग|"
    r"嘴(?:也|都)?歪了|(?:تمها|تمه|فمها|فمه|بقها|بقه) (?:معوج|مايل)|\bne r[ée]pond plus\b(?! (?:trop |vraiment |beaucoup )?(?:aux|[àa] mes|[àa] ses|au t[ée]l[ée]phone))|(?:bebeu|engoliu|tomou)\b.{0,20}\blix[íi]via|en carne viva",
    # A vice or a weight on the chest, rising to the jaw or the left arm, with sweating
    r"[ée]tau\b.{0,25}poitrine|poitrine\b.{0,25}[ée]tau|(?:poitrine|thorax)\b.{0,80}(?:m[âa]choire|bras gauche).{0,80}(?:transpir|sueur)|"
    r"(?:prensa|losa|piedra|elefante)\b.{0,20}(?:en el|sobre el|en mi) pecho|pecho\b.{0,80}(?:mand[íi]bula|brazo izquierdo).{0,80}sud|"
    r"(?:elefante|pedra)\b.{0,20}(?:em cima do|no|sobre o) peito|peito\b.{0,80}(?:mand[íi]bula|queixo|bra[çc]o esquerdo).{0,80}su(?:o|a|ando)|"
    r"صدري (?:مقبوض|مكتوم|مخنوق|تقيل|ثقيل)|(?:حد|حاجة|حجر|حجرة) (?:قاعد|قاعدة|حاطط|نازل) (?:على|عليه|علي) ?صدري|"
    r"(?:صدر|صدري).{0,80}(?:دراعي|ذراعي|دراعه|ذراعه|فكي) ?(?:الشمال|الأيسر|اليسار)?.{0,80}(?:عرق|عرقان|عرقانة)|"
    r"胸口.{0,6}(?:压着|像压|大石头|石头压|堵得慌)",
    # Knocked out, then vomiting or asking the same thing again
    r"(?:perdu connaissance|assomm[ée]|ko\b).{0,150}(?:vomi|m[êe]mes? questions?|r[ée]p[èe]te)|"
    r"(?:perdi[óo] el conocimiento|qued[óo] inconsciente|noquead[oa]).{0,150}(?:vomit|pregunta lo mismo|mismas? preguntas?|repite)|"
    r"(?:desmaiou|perdeu a consci[êe]ncia|desacordad[oa]).{0,150}(?:vomit|mesma pergunta|mesmas perguntas|repete)",
    # Bitten by a snake
    r"mordu par une? (?:serpent|vip[èe]re)|(?:serpent|vip[èe]re) l'a mordu|(?:me|lo|la|le) mordi[óo] una (?:culebra|serpiente|v[íi]bora)|"
    r"mordid[oa] por (?:una )?(?:culebra|serpiente|v[íi]bora)|(?:mordid[oa]|picad[oa]) por (?:uma )?cobra|cobra (?:o |a |me )?(?:mordeu|picou)|"
    r"(?:لدغ|لدغت|لدغته|لدغتها|لدغني|لدغه|لدغها|عضه|عضها|عضني|عضته)\s+(?:ال)?(?:ثعبان|حية|أفعى|تعبان)|"
    r"(?:साँप|सांप|सर्प) ने (?:\S+ )?(?:काट|डस)|\b(?:saa?n?p|sanp) ne (?:\w+ )?(?:kaa?t|kat|das)",
    # Vomiting blood or "coffee grounds", black stools
    r"vomi\w*.{0,30}(?:du sang|marc de caf[ée])|selles noires|vomit\w*.{0,30}(?:sangre|posos de caf[ée]|borra de caf[ée])|heces negras|"
    r"vomit\w*.{0,30}(?:sangue|borra de caf[ée])|fezes pretas|(?<!气得)(?<!气到)(?<!气得我)(?<!气到我)(?:吐了?血|呕血)(?!推荐|整理|分享|总结)|咖啡渣|柏油(?:样|一样)|"
    r"(?:ترجيع|تقيؤ|استفراغ|برجّع|برجع|بستفرغ|يستفرغ)\S* (?:دم|بدم)|(?:زي|مثل) (?:تفل|بن|تل) القهوة|"
    r"खून की उल्टी|उल्टी में खून|\bkhoon ki ulti|\bulti (?:me|mein) khoon",
    # A blood thinner taken twice, and now bleeding
    r"^(?=.*(?:deux fois|en double|dos veces|el doble|duas vezes|em dobro|两次|双倍|مرتين|दो बार|\bdo baar))"
    r"(?=.*(?:pr[ée]viscan|sintrom|acenocumarol|warfarin|coumadine?|marevan|xarelto|eliquis|pradaxa|华法林|وارفارين|ماريفان))"
    r".*(?:saign|sang|sangr|sangue|bleu|moret|roxo|hematoma|出血|流血|瘀|نزيف|بينزف|دم|खून|\bkhoon)",
    # Can't lie flat for breathlessness; a hot, swollen calf after a long journey
    r"dormi\w* assis.{0,80}(?:[ée]touff|respir)|[ée]touff\w*.{0,20}allong[ée]|"
    r"(?:dormir|duerme|dorm[íi]|durmi[óo]) sentad[oa].{0,80}(?:ahog|respirar|aire)|(?:me ahogo|se ahoga|no (?:puedo|puede) respirar) (?:acostad|tumbad)|"
    r"(?:dormir|dorme|dormiu|durmo) sentad[oa].{0,80}(?:falta de ar|sufoc|respirar)|(?:falta de ar|sufoc\w*) (?:deitad|ao deitar)|"
    r"(?:躺平|躺下|平躺)(?:就|会|了就)?(?:憋气|喘不上气|喘不过气|呼吸困难)|只能坐着睡|"
    r"(?:ما|مش) (?:بقدر|قادر|قادرة|أقدر|يقدر|تقدر) (?:أنام|انام|ينام|تنام) (?:على ظهري|على ظهره|مفرود|ممدود)|"
    r"\b(?:lete|letne|let) (?:hi|par|pe|ke) saa?ns (?:phool|fool|nahi|ruk)|लेटते ही सांस",
    r"(?:mollet|pantorrilla|panturrilha|batata da perna)\b.{0,40}(?:gonfl|hinchad|inchad).{0,40}(?:rouge|roja|vermelh|chaud|caliente|quente)",
    # Cannot feel the legs after a fall or a tackle; fever with confusion or mottled skin; a face, an arm or speech gone
    r"(?:ne )?sen[st] plus (?:ses|mes|les) jambes|no (?:siente|siento) las piernas|n[ãa]o (?:sente|sinto) as pernas|"
    r"(?:fi[èe]vre|fiebre|febre)\b.{0,160}(?:tr[èe]s confus|marbr[ée]|respire vite|moteada|muy confundid|manchas moradas|"
    r"muito confus|manchas roxas)|"
    r"no (?:puede|puedo) (?:levantar|mover) el brazo|habla (?:rara|raro|arrastrada|enredada)|por un lado de la boca|"
    r"n[ãa]o (?:consegue|consigo) (?:levantar|mexer) o bra[çc]o|fala (?:estranha|arrastada)|"
    r"说话含(?:含糊糊|糊)|嘴(?:巴)?(?:往|向)一边歪|(?:手|胳膊).{0,6}(?:拿不住|抬不起来)|"
    r"(?:بقها|بقه|فمها|فمه|تمها|تمه) (?:مايل|معوج)|(?:مش|ما|مو) ?(?:قادر|قادرة|قادره) (?:ي|ت)حرك (?:إيد|ايد|يد|دراع|رجل)|"
    r"كلام(?:ها|ه) (?:مش|مو|ما) ?(?:مفهوم|واضح)|وجه(?:ه|ها)? (?:ازرق|أزرق)|(?:طاح|طيح) (?:و)?(?:ما|مو) ?يقوم",
    # Severe belly pain with vomiting or a fever
    r"^(?=.*(?:vomi|fi[èe]vre|fiebre|febre|\b3[89](?:[.,]\d)?\b)).*(?:(?:douleur|mal)\w* (?:horrible|atroce|insupportable|terrible|violente?)\w* "
    r"(?:au|dans le) ventre|dolor (?:horrible|insoportable|terrible|fort[ií]simo|muy fuerte) (?:de|en la|en el) (?:barriga|panza|est[óo]mago|vientre)|"
    r"dor (?:horr[íi]vel|insuport[áa]vel|terr[íi]vel|fort[íi]ssima|muito forte) n[ao] (?:barriga|abd[ôo]men|est[ôo]mago))",
]

# Ten tablets or more taken, told in the first person: an emergency however the message is framed (a "lol"
# or a "mdr" does not make twenty paracetamol a joke), so these are read without the context rules.
_PILLS_EN = (r"(?:pills?|tablets?|capsules?|meds|paracetamol|acetaminophen|tylenol|panadol|ibuprofen|advil|aspirin|"
             r"xanax|sleeping pills|painkillers)")
OVERDOSE_SAID: list[str] = [
    r"\bi (?:just |accidentally )?(?:took|swallowed|downed|ate|had) (?:like |about |around |maybe |over |nearly )?\d{2,} "
    r"(?:of (?:my|his|her|the|mum'?s|mom'?s|dad'?s|my \w+'?s) )?(?:\w+ )?" + _PILLS_EN + r"\b",
    r"\bj'ai (?:pris|aval[ée]) (?:genre |environ |au moins |like |presque |tipo )?\d{2} (?:comprim[ée]s|cachets|g[ée]lules|"
    r"pilules|m[ée]docs|doliprane|dafalgan|efferalgan|parac[ée]tamol|ibuprof[eè]ne|advil|aspirine|xanax|somnif[eè]res)",
    r"\b(?:me tom[ée]|tom[ée]|me tragu[ée]|tragu[ée]) (?:como |unas |tipo |like |casi )?\d{2} (?:pastillas|p[íi]ldoras|"
    r"tabletas|c[áa]psulas)",
    r"\b(?:tomei|engoli) (?:tipo |uns |umas |quase |like )?\d{2} (?:comprimidos|rem[ée]dios|p[íi]lulas|c[áa]psulas)",
    r"我(?:刚才|刚刚|一下)?(?:吃|吞)了(?:大概|差不多|快)?\d{2,}(?:片|粒|颗)",
    r"(?:أخذت|اخذت|بلعت|شربت) (?:حوالي |تقريبا |يمكن )?[\d٠-٩]{2,} (?:حبة|حباية|قرص|حبوب)",
    r"\b(?:maine|mene|main ne) (?:lagbhag |kareeb |like )?\d{2,} (?:goliyan|goli|tablets?|pills?)\b.{0,15}\b(?:kha|nigal)|"
    r"(?:मैंने|मैने) (?:लगभग |करीब )?\d{2,} (?:गोलियां|गोलियाँ|गोली).{0,15}(?:खा|निगल)",
]

# Suicidal thoughts and self-harm.
CRISIS: list[str] = [
    # A question about a method or a lethal amount, said not to be for study: "asking for me, not for coursework"
    r"^(?=.*(?:overdose|pills|drugs|amounts?|lethal|fatal|dose|pastillas|dosis|mortal|comprimidos|queda|altura|cachets|"
    r"m[ée]dicaments|药|吃多少|致死|致命|حبوب|جرعة|goliyan|dawai))(?=.*(?:(?:is ?n'?t|is not|not) (?:a |for )?(?:revision|exam|"
    r"coursework|homework|school|an essay)|asking for (?:me|myself)|no es (?:una? )?(?:pregunta de examen|tarea|para (?:clase|un trabajo))|"
    r"n[ãa]o [ée] (?:pra|para) (?:trabalho|escola|prova)|ce n'est pas pour (?:un devoir|les cours|l'[ée]cole)|这不是(?:复习题|作业|考试题)|"
    r"مش (?:للدراسة|للامتحان))).{1,40}",
    r"^(?=.*\bmy last (?:week|day|night|weekend)\b(?! (?:at|of|in|on|before|with)))(?=.*\b(?:sorted|cancell?ed|paid off|gave away|"
    r"given away|rehomed|goodbye|thanks for)\b).{1,40}",
    r"\bnot (?:planning on|going to be|planning to be) (?:being )?around after\b|\b(?:written|wrote) (?:a )?letters? (?:to|for) "
    r"(?:everyone|each of|all of|my (?:family|parents|kids|children))",
    r"\b(?:kill|killing|end|ending|take|taking)\s+(?:myself|my own life|my life|himself|herself|themselves|his life|her life|their life)\b"
    # "killing myself with these shifts", "killing myself at the gym": figures of speech
    r"(?!\s+(?:with\s+(?:these|this|work|all (?:this|these)|the\s+(?:hours|shifts|workload|rotas?|commute))|at\s+(?:the\s+gym|work)"
    r"|trying|laughing|working))",
    r"\bsuicid\w*\b.{0,30}\b(?:thoughts?|thinking|feel\w*|plan\w*|want|going|attempt\w*|ideation|urges?)\b",
    r"\b(?:thoughts?|thinking|feel\w*|plan\w*|want\w*|going|attempt\w*|considering|urges?)\b.{0,30}\bsuicid\w*",
    r"\b(?:i'?m|i am|feel|feeling)\s+suicidal\b",
    r"\b(?:want|wants|wanted|wanting|going|ready|plan\w*)\s+to\s+die\b",
    r"\bend(?:ing)?\s+it\s+(?:all|tonight|now|today)\b|\b(?:time|ready|going|decided|plan\w*)\s+to\s+end\s+it\b(?!\s+with\b)",
    r"\b(?:no|don'?t see (?:the|any)|what'?s the|lost the)\s+point\s+(?:of|in)\s+(?:living|going on|life|being alive|being here|waking up)\b",
    r"\b(?:rather|better)\s+be\s+dead\b",
    r"\bif\s+i\s+(?:was|were|am|wasn'?t|weren'?t)\s+(?:gone|dead|not here|not around|around|here)\b",
    r"\b(?:thinking|thought|plan\w*|going|want\w*|consider\w*|tempted)\s+(?:of\s+|about\s+|to\s+)?(?:overdos\w*|taking all (?:my|of my))\b",
    r"\b(?:don'?t|do not|doesn'?t|does not|no longer)\s+want\s+to\s+(?:be alive|live|exist|be here|wake up|go on)\b",
    r"\bno\s+(?:reason|point)\s+(?:to|in)\s+(?:go(?:ing)? on|living|live|being alive)\b",
    r"\bbetter off\s+(?:dead|without me|if i (?:was|were) gone)\b",
    r"\bnever wake up\b",
    r"\b(?:wish|want)\s+(?:i\s+(?:was|were)|to\s+be)\s+dead\b",
    r"\b(?:painless|easiest|quickest|fastest|best)\s+way\s+to\s+(?:die|kill)\b",
    r"\b(?:how many|how much)\b.{0,80}\b(?:to\s+(?:overdose|die|kill)|lethal|fatal|to (?:just )?not wake up)\b",
    # A lethal amount asked in another language, not for a class
    r"^(?!.*(?:exam|examen|prova|cours\b|clase|aula|faculdade|class\b|pharmacolog|farmacolog|考试|作业|امتحان|pariksha|परीक्षा))"
    r".*(?:\bcu[áa]nt[oa]s?\b.{0,60}\b(?:mortal(?:es)?|letal(?:es)?|matan?|para morir)\b|\b(?:quant[oa]s?|qual a quantidade)\b"
    r".{0,60}\b(?:mata|matam|mortal|letal|para morrer)\b|\bcombien\b.{0,60}\b(?:mortel(?:le)?s?|l[ée]tale?s?|pour mourir|tue)\b|"
    r"多少.{0,15}(?:会死|能死|致死|致命|死人|死掉)|(?<![\u0600-\u06FF])كم(?![\u0600-\u06FF]).{0,40}(?:تقتل|يقتل|قاتل|قاتلة|للموت|تموت)|\bkam\b.{0,40}\b(?:bta2tol|"
    r"btaktol|bt2tol|tektol|yemawet)|\bkitni\b.{0,40}\b(?:se mar|maut|marne)|कितनी.{0,40}(?:से मौत|से मर|जानलेवा))",
    # A plan to take or inject all of one's medicines at once
    r"\b(?:going to|gonna|will|i'?ll|plan to|planning to)\s+(?:take|drink|swallow|inject|use)\s+(?:the\s+)?(?:whole|all|every)\b"
    r"(?!\s+(?:\w+\s+)?(?:course|day|week|month|year))|(?:je vais|vais) tout (?:prendre|avaler|boire|m'injecter)|"
    r"je (?:me )?les (?:injecte|prends|avale) tou(?:s|tes)|tout prendre avec|(?:me las?|me los?) voy a (?:tomar|inyectar|meter) tod[oa]s|"
    r"(?:voy a|me voy a) tomar(?:me)? todo|vou (?:tomar|aplicar|injetar) (?:tudo|todos|todas)|"
    r"(?:要|打算|准备|想|会)把.{0,12}(?:全部|一次性|都|全)(?:吃|打|注射)|"
    r"(?:سأتناولها|هاخدها|هشربها|هضرب|سآخذها|حاخدها|سأحقن).{0,30}(?:كلها|كله|كل الأقلام|مرة واحدة)|"
    r"\b(?:sab|saari (?:goliyan|dawai))(?:\s+\w+){0,2}\s+(?:ek saath\s+)?(?:kha|le|laga) (?:lunga|lungi|loonga|loongi|lenge|dunga|dungi)\b|"
    r"सब(?:\s+\S+){0,2}\s+एक साथ (?:खा|ले|लगा) (?:लूँगा|लूंगा|लूँगी|लूंगी|दूँगा|दूंगा|दूँगी)",
    # Treatment stopped on purpose, to die
    r"^(?=.*(?:\bdie\b|kill me|dead|death|suicide|morir|muerte|suicid|mourir|\bmort\b|morrer|死|موت|أرحل|انتحار|marna|maut|"
    r"jaane ka|suicide|आत्महत्या|जाने का))(?=.*(?:(?:stopped|stopping|quit|skipping)\b.{0,60}\b(?:on purpose|deliberately)|"
    r"(?:dej[ée]|suspend[íi]|par[ée]).{0,40}(?:a prop[óo]sito|adrede|aposta)|arr[êe]t[ée].{0,40}(?:expr[èe]s|volontairement)|"
    r"(?:parei|suspendi).{0,40}(?:de prop[óo]sito|por querer)|故意.{0,6}停|故意不(?:吃|打)|"
    r"(?:أوقفت|وقفت|بطلت|قطعت).{0,40}(?:بقصد|عمدا|عمدًا|عن قصد)|jaan ?boojh ?(?:ke|kar)\b.{0,60}\b(?:band|chhod)|"
    r"जानबूझ(?:कर| के).{0,40}(?:बंद|छोड़))).{1,20}",
    r"^(?=.*\b(?:bridge|roof|ledge|cliff|tracks|platform edge)\b).*\bnot (?:going|coming) (?:back )?home\b|"
    r"(?:从|去).{0,8}(?:大桥|桥|楼顶|天台|楼上).{0,6}跳下去",
    r"^(?!.*\b(?:exam|class|course|pharmacology|ld50|lecture|textbook|homework|nursing school|med school)\b).*\blethal dose\b",
    r"\b(?:cutting|burning|hurting|harming|starving|hitting)\s+(?:myself|herself|himself|themselves)\b",
    r"\b(?:wants?|wanting|going|gonna|plans?|planning|about|tried|trying|decided)\s+to\s+(?:hurt|harm|cut|burn)\s+"
    r"(?:myself|herself|himself|themselves)\b",
    r"\b(?:cut|burn|hurt|harm)\w*\s+(?:myself|herself|himself|themselves)\b.{0,30}\b(?:on purpose|deliberately|to cope|again|when i|when it|to feel|"
    r"with a (?:lighter|cigarette|blade|razor|lit))\b",
    r"\bcutting\s+again\b|\b(?:been|started|keep|kept)\s+cutting\b(?!\s+(?:down|back|out|carbs|sugar|hair|my hair|the|it|"
    r"coupons|costs|\w+ out))",
    r"\bself[- ]?harm\w*\b.{0,20}\b(?:again|urge|started|been|can'?t stop)\b|\b(?:i|i'?ve|i have|she|he)\b.{0,20}(?<!used to )\bself[- ]?harm",
    r"\b(?:want|wish|wanting)\w*\s+to\s+disappear\b(?!\s+(?:under|into)\s+(?:my|the)\s+(?:duvet|covers|blankets?|bed|sofa|couch)|"
    r"\s+for (?:a|the|one|two|\d+) (?:week|weekend|day|few days|month|while|holiday))|\b(?:suicide|goodbye)\s+(?:note|letter)s?\b",
    r"\bjump\w*\s+(?:off|from|in front of)\s+(?:the|a|my)?\s*(?:bridge|building|roof|cliff|train|balcony)\b",
    r"\bcan'?t\s+go\s+on\b.{0,15}\b(?:anymore|any longer|like this|living)\b",
    r"\bwant\w*\s+(?:it all|everything|it)\s+to\s+(?:end|stop)\b",
    r"\b(?:giving|gave|give|given)\s+away\b.{0,20}\b(?:my|all my|all of my)\b.{0,20}\b(?:things|stuff|belongings|"
    r"possessions|pets?)\b",
    # Not being around: disappearing for good, no plans to be here.
    r"\b(?:disappear(?:ed|ing)?|be gone|vanish(?:ed)?|not be (?:here|around))\s+(?:for good|forever|permanently)\b",
    r"\b(?:don'?t|do not)\s+(?:plan|intend|expect)\s+(?:on|to)\s+(?:be(?:ing)?\s+)?(?:around|here|alive)\b",
    r"\b(?:won'?t|wont|will not)\s+be\s+(?:around|here|alive)\s+(?:tomorrow\b|(?:much\s+)?(?:longer|anymore|any more|for long|by|for|when|to see)\b)",
    r"\b(?:be|been)\s+gone\s+by\s+(?:morning|tonight|tomorrow|the weekend|friday|monday|sunday|saturday|then)\b",
    r"\b(?:better off|happier)\s+(?:by|after|from)\s+(?:the weekend|tomorrow|tonight|next week|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday)\b",
    r"\b(?:decided|picked|chosen|set)\s+(?:that\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tonight|"
    r"tomorrow|the date|a date|today)\s+(?:is|as|will be)\s+(?:the|my)\s+(?:day|night|date|end)\b",
    r"\b(?:note|letter)\b.{0,30}\bso\s+(?:my|the)\s+(?:kids|children|family|wife|husband|parents)\s+(?:understand|know|"
    r"won'?t blame)\b",
    r"\bsaid goodbye\b.{0,40}\b(?:without (?:her|him|them) knowing|for the last time|for good)\b",
    r"\b(?:thank you|thanks|thank u|thx) for everything\b.{0,40}\b(?:sorry|not your fault|goodbye|love you|look after|take care of)\b|"
    r"\b(?:sorry|goodbye)\b.{0,30}\bnot your fault\b",
    r"\blook after\s+(?:mum|mom|dad|the kids|my \w+|him|her|them)\s+for me\b|\bsorry,? (?:please )?look after (?:him|her|them|"
    r"the (?:baby|kids|children))\b",
    # Letters written to one's children; the method and the day already chosen
    r"\b(?:wrote|written|writing) (?:a )?letters? to (?:both|each|all|each one) (?:of )?my (?:kids|children|sons|daughters|boys|girls)\b|"
    r"[ée]crit une lettre [àa] chacun de mes enfants|escrevi (?:uma )?cartas? (?:pros?|para os?|pras?|para as?) meus (?:dois |tr[êe]s )?filhos|"
    r"escrib[íi] (?:una )?cartas? (?:a|para) (?:cada uno de )?mis hijos",
    r"\b(?:picked|chosen|chose|decided on|worked out)\s+(?:the|my)\s+(?:method|way)\b|\bpicked the day\b|"
    r"j'ai choisi (?:comment|la m[ée]thode)|(?:ya )?(?:eleg[íi]|decid[íi]) (?:c[óo]mo|el m[ée]todo)|j[áa] sei como\b.{0,40}\b(?:vai ser|quando)|"
    r"vai ser (?:segunda|ter[çc]a|quarta|quinta|sexta|s[áa]bado|domingo)\b.{0,40}\bj[áa] sei como|"
    r"我已经决定了.{0,60}(?:上吊|跳|吃药|割腕|自杀|走)|(?:绳子|遗书).{0,10}(?:已经)?(?:买好|写好|准备好)",
    r"\b(?:tablets|pills|paracetamol|painkillers|meds)\b.{0,40}\b(?:different|several|separate|multiple)\s+(?:pharmac\w*|"
    r"chemists?|shops|stores)\b|\bso\s+(?:nobody|no one|no-one)\s+(?:asks?|notices?|questions?)\b",
    r"\b(?:stockpil\w*|hoard\w*|stash\w*|squirrel\w*)\s+(?:away\s+)?(?:my|his|her)\s+(?:\w+\s+)?(?:pills?|tablets?|meds|"
    r"medications?|medicines?|prescriptions?|lithium|insulin|opioids|painkillers|antidepressants|sleeping \w+|"
    r"\w+(?:pam|lam|pine|line|done|phen|mol|ium|pril|olol|statin|fen))\b",
    r"\b(?:belt|cord|cable|scarf|ligature|rope|flex)\b.{0,60}\b(?:hold (?:me|my weight|him|her)|would hold|take my weight|"
    r"a?round (?:my|his|her) neck)\b",
    r"\b(?:standing|stood|sitting|sat|leaning|lean)\b.{0,30}\b(?:balcony|ledge|edge of the roof|rail(?:ing)?|bridge|cliff)\b"
    r".{0,60}\b(?:practis\w*|practic\w*|for an hour|jump|tonight|how easy)\b|\bpractis\w*\s+(?:leaning|jumping|climbing)\b",
    r"\b(?:run|running|leave|leaving)\s+the\s+(?:car|engine)\s+(?:running\s+)?in\s+the\s+garage\b|\bcar\b.{0,30}\bgarage\b"
    r".{0,30}\b(?:door (?:shut|closed)|hose)\b|\bexhaust\b.{0,30}\b(?:hose|pipe)\b",
    r"\brazor\s*blades?\b.{0,60}\b(?:locked|not answering|isn'?t answering|isnt answering|won'?t come out)\b|"
    r"\blocked\s+(?:him|her|them)sel(?:f|ves)\b.{0,40}\b(?:razor|blades?|knife|pills)\b",
    r"\b(?:never been born|was never born|were never born)\b",
    # Others better off; then what the blind sets (tests/guardrails/heldout3-7.jsonl) showed: timing, farewells,
    # self-injury, means and rehearsal said in everyday words.
    r"\b(?:everyone|everybody|my family|they|the world|my (?:kids|children|wife|husband|partner|parents|friends|mum|mom|dad))"
    r"\s+(?:would|will|'d)\s+be\s+(?:so\s+much\s+|much\s+|a lot\s+)?(?:better off|happier)\s*(?:$|[.,!;]|without me|with someone else|with another (?:mum|mom|mother|dad|family)|"
    r"if i\b.{0,15}\b(?:was|were|wasn'?t|weren'?t|disappeared|died|left|gone|dead|never))",
    r"\b(?:i'?m|i am|feel(?:ing)?(?:\s+like)?(?:\s+i'?m)?|he'?s|hes|she'?s|shes|he is|she is|they'?re|they are)\s+"
    r"(?:such\s+|just\s+|only\s+|nothing but\s+)?a\s+burden\b(?!\s+of\b)",
    r"\b(?:won'?t|wont|will not)\s+need\s+(?:them|it|these|this|those|my \w+|this \w+|the \w+)\s+(?:anymore|any more|where i'?m going|"
    r"where im going|after (?:tonight|this|today|tomorrow))\b",
    r"\b(?:gonna be|going to be|will be|'ll be)\s+my\s+last\s+(?:one|day|night|weekend|week|birthday|christmas)\b"
    r"(?!\s+(?:at|of|in|on|with)\b)",
    r"\b(?:least|most)\s+(?:messy|painful|painless)\s+way\b|\bno chance of surviving\b|\bsurviv\w*\s+the\s+(?:fall|jump)\b",
    r"\b(?:said|saying|say)\s+(?:my\s+)?goodbyes?\b.{0,60}\b(?:gave|given|giving|give)\b.{0,20}\b(?:my|all my)\b",
    r"\b(?:texted|messaged|posted|sent|wrote)\s+(?:me|us|everyone|her|him|them)?\s*(?:a\s+)?goodbye\b(?!\s+(?:before|at|from|when|as|on)\b)",
    r"\b(?:cutting|cuts|slash\w*|burning)\s+(?:my|his|her|their)\s+(?:arms|wrists?|legs|thighs|skin|stomach)\b"
    r"|\b(?:cut|slit)\s+(?:my|his|her|their)\s+wrists?\b",
    r"\bcut\w*\s+myself\b(?!.{0,30}\b(?:shaving|cooking|chopping|slicing|by accident|accidentally|on (?:a|the|some|glass|"
    r"paper)|while)\b)",
    r"\b(?:can'?t|cant)\s+stop\s+(?:cutting|burning|hurting)(?:\s+(?:myself|my (?:arms|wrists|legs|thighs|skin))|"
    r"\s*(?:tonight|again|$|[.,!]))",
    r"\b(?:tonight|today|tomorrow)\s+feels\s+like\s+the\s+(?:night|day)\b",
    r"\b(?:buy|bought|buying)\s+(?:many|lots of|a lot of|several|loads of|multiple)\s+(?:(?:paracetamol|painkiller|pill|tablet|"
    r"aspirin|ibuprofen|tylenol)\s+(?:boxes|packs|packets|bottles)|(?:boxes|packs|packets|bottles)\s+of\s+(?:paracetamol|"
    r"painkillers|pills|tablets|aspirin|ibuprofen|tylenol))\b",
    r"\bgoodbye\b.{0,30}\bsorry for everything\b|\bsorry for everything\b.{0,30}\b(?:goodbye|love (?:you|u))\b",
    r"\bjok\w*\s+about\s+(?:the|a)\s+(?:rope|noose|gun|pills|bridge|jumping|ending it)\b(?!\s+(?:swing|bridge|course|ladder|"
    r"club|range))",
    r"\b(?:pills|tablets)\b.{0,20}\b(?:lined up|counted out|laid out|in front of me)\b(?!\s+(?:in|for|by)\b)",
    r"\bsee (?:you|u|ya) on the other side\b(?!\s+of\b)",
    r"\b(?:steer\w*|driv\w*|swerv\w*|crash\w*)\s+(?:\w+\s+){0,2}into\s+(?:a|the)\s+(?:\w+\s+)?(?:barrier|wall|tree|pillar|"
    r"bridge|lorry|truck|oncoming)\b.{0,80}\b(?:accident|insurance|tonight|on purpose)\b|\blook like an accident\b|"
    r"\b(?:nobody|no one|no-one)\s+will\s+(?:think|know|suspect)\s+it\s+was\s+on\s+purpose\b",
    r"^(?=.*\b(?:passed|died|lost|funeral|since (?:mum|mom|dad))\b).*\b(?:going to|gonna|will)\s+(?:be with|join)\s+"
    r"(?:her|him|them|mum|mom|dad)\b(?:\s+(?:tonight|soon|again|today|now)|\s*[.!]|$)",
    r"\b(?:to\s+(?:just\s+)?not|(?:so|to make sure)\s+i\s+(?:don'?t|dont|won'?t|wont|never))\s+wake\s+up\b",
    r"\bhelium\b.{0,40}\b(?:bag|tank|hood)\b|\bbag\b.{0,40}\bhelium\b|\bnone of it (?:really\s+)?matters after\b",
    r"\b(?:so\s+)?tired of being (?:here|alive|around)\b(?!\s+(?:in|at|on|for|waiting|all day|every)\b)",
    r"\b(?:i'?m|im|i am)\s+on\s+(?:the\s+)?(?:roof|ledge|edge|bridge)\b(?!.{0,40}\b(?:fixing|repair\w*|cleaning|clearing|"
    r"working|painting|install\w*))(?=.{0,60}\b(?:rn|right now|tell someone|before)\b)|"
    r"\btell someone before\s*[.!]?\s*$",
    r"\b(?:floors?|storeys?|stories|metres|meters|feet|ft)\b.{0,20}\bhigh enough\b|\bhigh enough\b.{0,30}\b(?:to die|not to survive|"
    r"to not survive)\b",
    r"\bnot\s+(?:turn|turning|steer\w*)\s+(?:the\s+)?wheel\b|\blet go of the wheel\b",
    r"\b(?:don'?t|dont)\s+(?:really\s+)?care\s+(?:what happens to me|if i (?:die|live|make it|wake up)|if it stops bleeding)\b",
    r"\b(?:gave|given|giving|give)\s+(?:all\s+)?(?:of\s+)?my\s+(?:stuff|things|belongings|possessions)\s+away\b",
    r"\b(?:bridges?|roofs?|buildings?|car parks?)\b.{0,40}\b(?:no|don'?t have|dont have|without)\s+(?:the\s+|any\s+)?"
    r"(?:fences?|barriers?|railings?|nets?)\b",
    r"\b(?:rather|want to|wish i could|like to)\s+(?:just\s+)?(?:go to sleep|fall asleep|sleep)\s+and\s+(?:never|not)\s+wake\s+up\b",
    r"\b(?:putting|put|keeping|setting|hiding)\s+(?:my|his|her)\s+(?:\w+\s+)?(?:tablets|pills|meds|medication)\s+(?:aside|away|"
    r"in (?:a|the) drawer)\b.{0,30}\binstead of taking\b",
    # Unbearable pain that should end for good; hopelessness.
    r"\b(?:want|need|wish)\w*\s+(?:the\s+|this\s+|my\s+|all\s+(?:the|this)\s+)?(?:pain|suffering|hurt\w*)\s+to\s+"
    r"(?:stop|end|go away)\s+(?:forever|for good|permanently)\b",
    r"\bwant\w*\s+(?:it\s+all|everything|all\s+of\s+(?:this|it))\s+to\s+be\s+over\b",
    r"\b(?:don'?t|do not|can'?t|no longer)\s+see\s+(?:the|any)\s+point\s+(?:anymore|any more|in anything|in going on|in trying|"
    r"(?:of|in) any of it)\b",
    # Means and methods: stockpiled medicines, a noose, a gun, a plan, research.
    r"\b(?:saving|saved|stockpil\w*|hoard\w*|collect\w*|stash\w*|squirrel\w*)\s+(?:up\s+)?(?:all\s+)?(?:my|his|her|some|"
    r"a lot of|enough)?\s*(?:[\w']+\s+){0,3}?(?:pills?|tablets?|meds|medications?|medicines?|antidepressants|painkillers|"
    r"insulin|opioids|tramadol|codeine|lithium|\w+(?:pam|lam|pine|line|done|phen|mol|ium|fen|dol))\b"
    r"(?!\s*(?:bottles?|box(?:es)?|organi[sz]ers?|cases?|containers?|packaging))",
    r"\b(?:swallow\w*|tak(?:e|ing)|down)\s+(?:everything|every (?:pill|tablet)|all (?:the|my|of my|of the) (?:pills|tablets|"
    r"meds|medications?|medicines?))\b",
    r"\bnoose\b|\bhang(?:ing)?\s+(?:myself|himself|herself|themselves)\b|"
    r"\brope\b.{0,40}\b(?:looking at|staring at|hang\w*|beam|rafter|tie it|tonight)\b|"
    r"\b(?:got|have|bought|sorted)\s+(?:the|a)\s+rope\b(?!\s+(?:for|to)\b|\s+(?:swing|ladder|course))|"
    r"\brope\s+(?:is\s+)?(?:sorted|ready)\b|"
    r"\bi\s+(?:won'?t|will\s+not)\s+be\s+(?:around|here|alive)\s+(?:after|by|past|next|this|on|for)\b|"
    r"\brope\b.{0,20}\b(?:is|'s)\s+(?:already\s+)?(?:up|tied|ready|set up)\b",
    r"\b(?:gun|rifle|pistol|shotgun|firearm)\b.{0,60}\b(?:burden|end it|goodbye|not be around|myself|last)\b|"
    r"\bburden\b.{0,80}\b(?:gun|rifle|pistol|shotgun|firearm)\b|\b(?:gun|rifle|pistol|shotgun|firearm)\b.{0,60}"
    r"\b(?:quiet(?:est)? place|for it|to do it)\b|\bgun\b.{0,30}\b(?:to|in|against)\s+(?:my|his|her)\s+(?:head|mouth|temple)\b",
    r"\b(?:been planning|my plan)\b.{0,80}\b(?:paracetamol|pills|tablets|painful|hurt|enough)\b",
    r"\b(?:driv\w*|crash\w*|steer\w*)\s+(?:my|the|his|her)\s+car\s+(?:into|off)\s+(?:a|the)\s+(?:wall|tree|bridge|cliff|"
    r"river|lorry|truck|traffic|barrier)\b",
    r"\b(?:step|stepping|walk\w*|jump\w*|throw\w* (?:myself|himself|herself))\s+(?:out\s+)?in front of\s+(?:a|the)\s+"
    r"(?:train|bus|truck|lorry|car|traffic)\b",
    r"\b(?:made|have|got|making|figured out)\s+(?:a\s+)?plan\s+(?:for\s+)?(?:how|when)\s+(?:i'?d|i would|i'?ll|i will|to)\s+"
    r"(?:do it|end it|go)\b|\bi'?ve\s+decided\s+(?:how|when)\s+(?:i'?ll|to|i will)\s+(?:do it|end it)\b",
    r"\b(?:looked up|looking up|search\w*|research\w*|googl\w*|read up on)\b.{0,30}\b(?:how (?:high|far|many|much|long)|"
    r"ways? to (?:die|end it)|painless)\b.{0,40}\b(?:bridge|building|fall|jump|pills?|tablets?|die|dead|overdose|hang\w*)\b",
    r"\bgoodbye\s+(?:messages?|texts?|videos?|emails?)\b|\b(?:wrote|written|writing|made|updated|sorted(?: out)?|done)\s+(?:my|a)\s+will\b"
    r".{0,60}\b(?:goodbye|it'?s time|before i go|the end|(?:tomorrow|tonight|today)'?s the day|cancel\w*|home for)\b",
    r"\bnothing\s+(?:keeping|left|holding)\s+me\s+(?:here|going|back)\b|\bwon'?t\s+have\s+to\s+worry\s+about\s+me\b",
    r"\b(?:who|someone|somebody|they|she|he)\s+(?:else\s+)?(?:finds|will find|would find)\s+me\b(?!\s+(?:a|an|the|some)\b)",
    r"\b(?:level|floor|storey|roof|bridge|car park)\b.{0,40}\bno (?:barriers?|railings?|fence|rail)\b|"
    r"\bno (?:barriers?|railings?)\b.{0,40}\b(?:level|floor|storey|roof|bridge|car park)\b",
    r"\b(?:standing|stood|sitting|sat|been)\s+(?:on|at)\s+(?:the|a)\s+(?:\w+\s+)?(?:bridge|ledge|roof|cliff edge|edge)\b"
    r".{0,40}\b(?:for (?:about |over |nearly )?\d+|minutes|an hour|right now|typing)\b"
    r"(?!.{0,40}\b(?:watching|enjoy\w*|photos?|the view|lovely|beautiful|sunset|fireworks|fishing)\b)",
    r"\b(?:dose|amount|how many|how much)\b.{0,40}\bwould do it\b(?!\s+for\b)",
    r"\b(?:we'?d|we would|everyone would|they'?d|they would)\s+(?:all\s+)?be\s+better off without\s+(?:me|him|her|them)\b",
    r"\b(?:everyone|everybody|they|my family)\s+(?:would|will|'d)\s+be\s+better off\b.{0,80}\b(?:bridge|railing|ledge|"
    r"roof|rope|pills|tablets|jump\w*|tracks)\b|\b(?:railing|parapet|barrier)\b.{0,20}\b(?:is|are|'s)\s+(?:really\s+|so\s+|"
    r"pretty\s+|very\s+)?low\b.{0,40}\bhow long\b",
    r"\b(?:closed|shut)\s+garage\b.{0,40}\bengine running\b|\bengine running\b.{0,40}\b(?:closed|shut)\s+garage\b|"
    r"\bcharcoal\b.{0,30}\b(?:tape|in the (?:boot|car|trunk))\b",
    r"\b(?:can'?t|cannot|don'?t)\s+see\s+(?:a|any)\s+way\s+out\b",
    r"\bhow\s+(?:much|many)\s+(?:\w+\s+){0,4}(?:would|do|does)\s+(?:a person|someone|i|you)\s+(?:have to|need to)\s+"
    r"(?:drink|take|swallow|eat)\b",
    # how many pills it would take, asked "for me" or with the packs at hand
    r"\bhow (?:much|many) (?:\w+ ){0,2}" + _PILLS_EN + r".{0,60}\b(?:asking for (?:me|myself)|for myself|(?:i'?ve |i )?(?:got|have) "
    r"(?:\d+|two|three|four|five|a few|some|loads of|enough) (?:packs?|boxes|bottles|strips|of them))\b",
    # the means already got: "I've bought what I need to kill myself", in each language
    r"\b(?:bought|got|have) (?:what i need|everything i need|the stuff i need) to (?:kill myself|end it|end my life)\b|"
    r"(?:comprei|peguei|j[áa] tenho) o que (?:eu )?preciso (?:pra|para) me matar|compr[ée] lo que necesito para matarme|"
    r"(?:achet[ée]|j'ai) ce qu'il (?:me )?faut pour me tuer|(?:جبت|اشتريت|جهزت) (?:الشي|الاشي|اللي).{0,25}(?:أقتل|اقتل) (?:حالي|نفسي|روحي)|"
    r"\bsuicide\b.{0,120}\bje (?:le fais|vais le faire|passe [àa] l'acte)\b|(?:计划|想|决定|安排)好了怎么(?:死|自杀|结束)|"
    r"\bmaaf karna\b.{0,40}\baakhri (?:message|msg)\b|\baakhri (?:message|msg) hai\b.{0,80}\bkhatam kar (?:dunga|dungi|doonga)\b|"
    r"\b(?:tay|tai|decide) kar liya (?:hai )?ki (?:marna|mar jaana) hai\b|\bzeh?e?r le (?:aaya|aayi|aya|ayi) (?:hoon|hun|hu)\b|"
    r"\bkood jaa?na hai\b|\bkoodna hai\b",
    r"\b(?:i'?m|i am) (?:going|gonna|heading) (?:up |out |down |over )?(?:there )?(?:later |tonight |soon )?to be done with "
    r"(?:it all|all of it|everything|life)\b",
    r"\b(?:keep|just keep|kept)\s+(?:on\s+)?(?:walking|swimming)\b.{0,20}\b(?:sea|ocean|river|lake|water)\b",
    r"\b(?:wrote|written|writing)\s+(?:letters|notes)\s+to\s+(?:everyone|everybody)\b",
    # Asking for the quickest or a painless way to die is a crisis however it is framed (any language)
    r"(?:أسرع|أسهل|اسرع|اسهل) طريقة لل?(?:انتحار|موت)|最快.{0,4}(?:自杀|死)|(?:forma|manera) m[áa]s r[áa]pida de (?:morir|suicidarme)|"
    r"(?:fa[çc]on|mani[èe]re|moyen) (?:la |le )?(?:moins douloureu(?:se|x)|plus rapide|plus douce?) (?:de|pour) (?:mourir|me tuer|se tuer|en finir)|"
    r"(?:forma|manera) (?:menos dolorosa|m[áa]s f[áa]cil) de (?:morir|matarse|matarme|suicidarse|suicidarme)|"
    r"(?:forma|maneira|jeito) (?:menos dolorosa|mais f[áa]cil|mais r[áa]pida) de (?:morrer|me matar|se matar)|"
    r"(?:最不痛苦|不痛苦|无痛|最轻松)的?(?:死法|自杀方法|死的方法|自杀)|\bbina dard (?:ke )?(?:maut|marne)|बिना दर्द (?:के )?(?:मौत|मरने)|"
    # ... and so is asking how many pills it takes not to wake up (not "to sleep through the night")
    r"combien de (?:m[ée]docs|cachets|comprim[ée]s|pilules|somnif[eè]res|m[ée]dicaments)\b.{0,50}\bpour (?:ne )?(?:plus|pas) "
    r"(?:me |se )?r[ée]veiller\b(?! (?:la nuit|en pleine nuit|trop t[ôo]t))|"
    r"cu[áa]ntas (?:pastillas|p[íi]ldoras)\b.{0,50}\bpara (?:ya )?no (?:volver a )?despertar(?:me)?\b(?! (?:en|por|a media|durante|de) "
    r"(?:la )?(?:noche|madrugada))|quantos (?:comprimidos|rem[ée]dios)\b.{0,50}\b(?:pra|para) (?:n[ãa]o|nunca mais) acordar\b"
    r"(?! (?:de|[àa]) noite| de madrugada| cedo)|"
    r"(?:كم|قديش|قد ايه|قد إيه) (?:حبة|حباية|قرص)\S*.{0,40}(?:عشان|علشان|حتى|كي|لحتى) (?:ما|لا|مش) ?(?:أصحى|اصحى|أصحا|اصحا|أستيقظ|اقوم|أقوم)"
    r"(?! (?:بالليل|في الليل))|吃多少.{0,6}(?:不会醒|醒不过来|就不醒|再也不醒)|"
    r"\bkitni (?:goliyan|goli|tablets?|paracetamol|crocin|dolo|neend ki goli\w*)\b.{0,40}\b(?:mar ja|kabhi na uth|phir na uth|uth na|"
    r"nahi? uth(?:ta|ti|ega|egi|enge))|कितनी (?:गोलियां|गोलियाँ).{0,40}(?:मर जा|फिर न उठ|कभी न उठ)|"
    r"\b(?:i'?ve|i have) decided\b.{0,40}\b(?:bridge|jump)\b|\bbridge\b.{0,80}\bi'?ve decided i'?ll\b",
    # told in the first person: the same words about a film or a patient are not a disclosure
    r"\bi\s+climbed (?:over|onto) the (?:railing|rail|ledge|parapet)\b|\bi\s+(?:keep|kept)\b.{0,60}\bstepping off\b|"
    r"\bi\s+(?:want|wanna)\s+(?:to\s+)?be gone (?:before|by|tonight|tomorrow)\b|"
    r"\bi'?m\s+going\s+to\s+(?:do it|cut)\s+deep\b|\btonight\b.{0,40}\bi'?(?:ll|m going to)\s+(?:do it|cut)\s+deep\b",
    # fr, es, pt, zh, ar, hi: see CRISIS_OTHER_LANGUAGES
]

# The six other languages, read only when the message is not framed as general, past or someone else's
# (`_said_now` in input_check): "comment parler à quelqu'un qui pense au suicide", an essay on
# suicide prevention or a documentary are topics, not disclosures. Idioms are left out: "ce boulot va
# me tuer", "essa prova vai me matar", "me quiero morir de la vergüenza", "想死你了".
_NOT_IDIOM_FR = r"(?! de (?:rire|faim|froid|chaud|honte|fatigue|ennui|peur|envie|soif))"
_NOT_IDIOM_ES = r"(?! de (?:la )?(?:risa|vergüenza|verguenza|hambre|sueño|calor|frío|frio|ganas|envidia|amor|pena|aburrimiento|miedo|sed))"
_NOT_IDIOM_PT = r"(?! de (?:rir|vergonha|fome|sono|calor|frio|saudade|inveja|tédio|amor|raiva|medo|sede))"
CRISIS_OTHER_LANGUAGES: list[str] = [
    r"me suicider|(?<!\bva )(?<!\bvont )(?<!\bvas )(?<!\bfinir par )me tuer\b|mettre fin à (?:mes jours|ma vie)|"
    r"(?:veux|envie de) mourir\b" + _NOT_IDIOM_FR + r"|en finir avec (?:la|ma) vie|me faire du mal|plus envie de vivre|"
    r"(?:ne )?veux plus vivre",
    r"quitarme la vida|suicidarme|(?<!\bva a )(?<!\bvan a )(?<!\bvas a )matarme\b|quiero morir(?:me)?\b" + _NOT_IDIOM_ES +
    r"|no quiero vivir|hacerme daño|no quiero seguir viviendo",
    r"(?<!\bvai )(?<!\bvão )(?<!\bvais )(?<!\bvai acabar )(?<!\bainda vai )me matar\b|me suicidar|quero morrer\b" + _NOT_IDIOM_PT +
    r"|tirar (?:a )?minha (?:própria )?vida|n[ãa]o quero (?:mais )?viver|me machucar de propósito",
    # Arabic in Latin letters: locked in with razors, "don't look for me"
    r"\b(?:2afal|afal|2efel|efel|3afal|2fl) 3a?la nafs\w*.{0,60}\b(?:amwas|mous|mouss|shafra|shafrat|sakeena|sekkina|7obob)\b|"
    r"\bmat?dawr?(?:o|u)sh 3a?la(?:ya|yya|i)\b|متدوروش عليا|لا تدوروا علي",
    # zh typed in pinyin: "wo bu xiang huo le", "zi sha", "tiao lou"
    r"\bbu ?xiang (?:zai )?huo(?: le|xia ?qu| xia ?qu)?\b|\bzi ?sha\b|\bqing ?sheng\b|\btiao (?:lou|jiang|he|qiao|hai)\b",
    r"不想活|(?<!无聊到)(?<!无聊到我)(?<!热到)(?<!热到我)(?<!笑到)(?<!尴尬到)(?<!饿到)(?<!困到)(?<!冷到)(?<!熱到)(?<!熱到我)(?<!無聊到)(?<!餓到)(?<!凍到)想死(?!你|您|了你|的心都有)|自杀|轻生|结束(?:我的)?生命|自残|伤害自己",
    r"أنتحر|الانتحار|أقتل نفسي|أريد أن أموت|لا أريد أن أعيش|أؤذي نفسي",
    r"आत्महत्या|खुद को (?:मार|नुकसान|चोट)|मरना चाहत|जीना नहीं चाहत",
    # Plans, means and farewells, in everyday words
    r"(?:je compte|je vais) (?:tout|tous les) prendre|lettres? d'adieu|donné toutes mes affaires|me pendre\b|"
    r"me jeter (?:du|d'un|sous)|sauter d(?:u|'un) (?:pont|immeuble|balcon)",
    r"(?:voy a|quiero) (?:estrellar|estampar) (?:el|mi) (?:cami[óo]n|coche|carro|auto|moto) contra|"
    r"(?:tomarme|tomar) todas las pastillas|me voy a tirar (?:de|del|por)|ahorcarme|cortarme las venas|cartas? de despedida|"
    r"(?:regal[ée]|di) (?:todas )?mis cosas",
    r"tomar todos os (?:comprimidos|rem[ée]dios)|me jogar (?:da|de|do|na frente d[oa]|embaixo d[oa])\b|me enforcar|cortar os pulsos|cartas? de despedida|"
    r"dei (?:todas )?as minhas coisas",
    r"(?:把东西都|东西都)送(?:给|人)|(?:查好了|找好了|看好了).{0,10}(?:桥|楼|药)|跳楼(?!价|大甩卖)|跳桥|割腕|上吊|"
    r"(?:吃|吞)多少.{0,6}会死",
    r"(?:وزعت|وزّعت|اديت|عطيت|إديت) (?:أغراضي|حاجاتي|اغراضي|أغراضي كلها)|(?:رح|ح|هـ)\S* ?(?:اخلص|أخلص) (?:فيها|بيها|من حياتي)|"
    r"مش عايز(?:ة)? (?:اعيش|أعيش)|ما ?بدي (?:عيش|إعيش)|بدي موت(?! من)|نفسي (?:اموت|أموت)|"
    r"\b(?:msh|mish|mesh) 3ayz?a?e?z? a3ee?sh|\b3ayz?e?z? amoo?t|\bbad?dy? moo?t|\bma bdi 3ii?sh",
    r"(?:पंखे|फंदे|फाँसी|फांसी).{0,25}(?:लटक|लगा)|नस काट|(?:ज़हर|जहर) खा(?:ने|ऊँ|ऊं|ना)|"
    r"\b(?:mar jaa?na chaa?ht|marna chaa?ht|jeena nahi chaa?ht|khudkushi|suicide kar)",
    # "what's the point of living", and heading for the railway tracks
    r"(?:जी कर|जीने का|जीकर) (?:क्या|कोई) (?:फायदा|फ़ायदा|मतलब)|\b(?:jee ?kar|jeene ka) (?:kya|koi) (?:fayda|faida|fayeda|matlab)\b|"
    r"(?:रेल|ट्रेन|रेलवे)(?: की)? (?:पटरी|पटरियों|ट्रैक)\S*.{0,25}(?:जा रहा|जा रही|लेट|कूद)|"
    r"\b(?:rail|train|railway)(?: ki)? (?:patri|patriyon|track)\w*\b.{0,25}\b(?:ja raha|ja rahi|let|kood)",
    # Jumping, a poison kept for a day, a rope bought, joining someone who died
    r"me tiro (?:del|de la|por)|tirarme (?:por|del|de la)|me jeter par la fen[êe]tre|pular d[oa] (?:viaduto|pr[ée]dio|ponte)|"
    r"atirar-me d[ao]|从(?:阳台|楼上|楼顶|桥上)跳下去|一了百了|(?:أرمي|ارمي) (?:نفسي|حالي)|\bchhat se kood|छत से कूद",
    r"veneno para ratas\b.{0,40}\b(?:tomar|voy)|produit phyto\b.{0,60}\bboire|कीटनाशक\b.{0,60}पी लूंगा|سم فئران\S*.{0,30}أشرب|"
    r"acheté une corde|compr[ée] una soga|comprei uma corda|partir le rejoindre|ir ter com ela|去陪(?:她|他)|"
    r"उनके पास चला जाऊंगा|उसके पास चला जाऊंगा",
    # A plan with a time, a farewell, standing at the edge
    r"(?:ce soir|demain|cette nuit) je (?:le )?fais|couper profond|me couper les veines|enjamb\w* (?:la )?rambarde|"
    r"pour (?:ne )?plus me r[ée]veiller|dit adieu [àa]",
    r"me voy a colgar|colgarme|me quito la vida|cortarme hondo|para no despertar|lo voy a hacer de verdad|"
    r"me desped[ií] de (?:mis|todos)|en el borde\b.{0,40}\b(?:hoy|esta noche|mañana)|escrib[ií] (?:las )?cartas para",
    r"me cortar fundo|pra n[ãa]o acordar mais|vou fazer de verdade|me despedi d[aoe]s? (?:minhas|meus|todos)|"
    r"na beirada\b.{0,40}\b(?:hoje|amanh[ãa])|escrevi (?:as )?cartas pr?[ao]",
    r"遗书|割深|割腕|翻过栏杆|攒.{0,6}安眠药|安眠药.{0,3}攒|安眠药.{0,10}全吃|全吃掉|不会再回来了|考试前就走",
    r"[هاأ]شنق نفسي|[اأ]قتل حالي|جرح حالي|[اأ]جرح نفسي|نقتل راسي|[اأ]قتل روحي|نقتل روحي|بسويها صدق|كتبت جوابات|رسالة وداع|"
    r"وقفت على (?:الطرف|حافة)",
    r"(?:مش|لن)\s*(?:هكون|اكون|أكون|حكون) موجودة?\s*(?:[.،!]|$|بعد|تاني|خلاص)|كتبت وصيتي|(?:اقل|أقل) طريقة (?:وجع|ألم|الم)|"
    r"قررت (?:اني|إني|أني|ان|أن) ?(?:هنط|انط|أنط|انتحر|أنتحر|اموت|أموت|اخلص)|(?:هنط|هرمي نفسي|حرمي نفسي) (?:من|الليلة)|"
    r"\b(?:pankh[ea]|fan|ceiling fan)\s+(?:se|me|mein|pe|par)\s+(?:\w+\s+){0,2}(?:dupatta|rassi|chunni|saree|sari)\b|"
    r"(?:पंखे|छत) (?:से|में) (?:दुपट्टा|रस्सी|चुन्नी|साड़ी)|\bphanda|फंदा|"
    r"(?:je compte|je vais) les prendre tou(?:tes|s)|je m'injecte tout(?:e)? (?:mon|ma|le|la) (?:stylo|insuline)|"
    r"सारी इंसुलिन एक साथ|(?:saari|sari|puri|poori) insulin ek saath|"
    r"\bmain nahi? (?:rahunga|rahungi|rahoonga|rahoongi)\b.{0,40}\bplan\b|pas envie de me r[ée]veiller|dose.{0,30}mortelle|"
    r"(?:[êe]tre|etre) s[uû]re? que (?:[çc]a|ca) marche|me las (?:tomo|voy a tomar) todas|tirarme al (?:metro|tren|vac[íi]o|r[íi]o)|"
    r"depois que eu me for|quando eu me for|j[áa] escrevi a carta|garante que (?:a pessoa|eu) morr|"
    r"炭.{0,6}胶带|胶带.{0,6}炭|(?:封好|封死).{0,4}门窗|门窗.{0,4}(?:封好|封死)|"
    r"(?:جبت|اشتريت|جهزت) (?:ال)?حبل|صرت عبء|(?:انا|أنا) عبء|\bkood ja(?:unga|ungi|aunga|aungi)\b|कूद जाऊं(?:गा|गी)|"
    r"\bfaa?nsi laga|फा(?:ं|ँ)सी लगा|\bkhud ko khatam|खुद को खत्म|गहरा काट|ताकि फिर न उठ|\balvida keh|अलविदा कह|"
    r"\bsach me(?:in)? kar dunga|\bchitthi likh di|\balvida (?:wali |ki )?chitth\w*|अलविदा (?:वाली |की )?चिट्ठ|"
    r"\bsab khatam karne ka (?:socha|faisla|plan|din)|सब खत्म करने का (?:सोचा|फैसला)|(?:عشان|علشان|حتى|كي|لكي) (?:أخلص|اخلص) من حياتي",
    # A farewell posted, pills hoarded, "if I don't reply tomorrow, you'll know"
    r"(?:postou|publicou|mandou|escreveu) (?:um |uma )?(?:mensagem de |texto de |post de )?[\"“'«]?adeus\b|"
    r"(?:public[óo]|subi[óo]|mand[óo]|escribi[óo]|puso) (?:un |una )?(?:mensaje de |post de |historia de )?[\"“'«]?adi[óo]s\b|"
    r"(?:a |m'a )?(?:post[ée]|publi[ée]|envoy[ée]|[ée]crit) (?:un |une )?(?:message d'|story d'|post d')?[\"“'«]?adieu\b|"
    r"\b(?:apni |saari |sab )?goliyan (?:jama|ikatth\w*|bacha\w*|chhupa\w*) (?:kar|rakh)|(?:गोलियां|गोलियाँ) (?:जमा|इकट्ठी|बचा) (?:कर|रख)|"
    r"\b(?:reply|jawab|message) (?:na|nahi) (?:karu|karun|karoon|karoo|du|dun|doon|aaye|aaya)\b.{0,25}\bsamajh (?:lena|jana)\b|"
    r"(?:जवाब|रिप्लाई) न (?:दूँ|दूं|करूँ|करूं).{0,25}समझ (?:लेना|जाना)",
    r"(?:ne )?veu(?:t|x|lait) plus vivre|comment se pendre|كتبت (?:رسالة|رسايل|رسائل) (?:لكل|لأهلي|لاهلي)|رسالة وداع|رسائل وداع|"
    r"جرحت (?:نفسي|حالي)|بجرح (?:نفسي|حالي)|\b(?:khall?e?s|5all?e?s) 3a ?7ali\b",
    # Affairs put in order before a night's plan: a bank card's code sent to a brother, the children entrusted
    r"该交代的(?:都|也)?交代(?:好|完)?了|后事(?:都)?(?:交代|安排)(?:好|完)?了|"
    r"(?:الليلة|النهارده|النهاردة|بكرة|بكره) (?:هخلص|حخلص|رح اخلص|راح اخلص|بخلص) من (?:كل ده|كل هذا|كل شي|كل شيء|كل حاجة|الدنيا|حياتي)|"
    r"وصيت على (?:العيال|الولاد|ولادي|أولادي|اولادي)|"
    r"\b(?:nahar|nadi|pul|patri|chhat|track|dariya)\b.{0,30}\bsab khatam kar (?:dunga|doonga|dungi|doongi)\b|"
    r"(?:नहर|नदी|पुल|पटरी|छत).{0,30}सब खत्म कर (?:दूंगा|दूँगा|दूंगी|दूँगी)",
    # A rope brought home, life's "game over" (Hinglish)
    r"\brassi (?:le (?:aaya|aayi|aaye|aya|ayi|aa gaya|aa gayi|li|liya)|la (?:li|liya|di|rakhi)|khareed (?:li|liya|lai|laya))|"
    r"रस्सी (?:ले (?:आया|आई|ली|लिया)|ला (?:ली|रखी)|खरीद (?:ली|लिया|लाया))|"
    r"\b(?:life|zindagi|jindagi) ka game over (?:karna|kar (?:dunga|doonga|dungi|du|doon|deta|deti))",
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
        # Hinglish (Hindi in Latin letters, mixed with English): "mujhe kya bimari hai?", "kya mujhe typhoid hai?"
        r"\b(?:mujhe|mujhko|mere ko|muje|meri \w+ ko|mere \w+ ko|isko|usko)\s+(?:kya|kaun ?si|kon ?si|konsi|kaunsi)\s+"
        r"(?:bimari|beemari|bimaari|disease|problem|infection|takleef|rog)\s+(?:hai|hui|ho gayi|ho gai|hua)\b",
        r"\bkya\s+(?:mujhe|mujhko|muje|mere ko|meri \w+ ko|mere \w+ ko)\b.{1,40}\b(?:hai|ho gaya|ho gayi|hua)\b",
        r"\b(?:ye|yeh|yah|is|mujhe)\s+(?:kaun ?si|kon ?si|konsi|kaunsi|kya)\s+(?:bimari|beemari|bimaari|disease|infection|rog)\b",
        r"\b(?:diagnose|diagnosis|check)\s+(?:kar(?:o|do|dein|den|iye|ke batao)|bata(?:o|iye|do))\b",
        r"\b(?:batao|bataiye|bata do|bolo)\b.{0,30}\b(?:mujhe|muje|mere ko)\b.{0,20}\b(?:kya|kaun ?si|konsi)\b",
        # the other languages: "est-ce que j'ai de l'arthrose ?", "¿tengo gota?", "será que eu tenho", "我是不是得了", "هل عندي"
        r"\best-ce que (?:j'ai|je fais|je suis atteinte?) (?:de l'|de la |du |des |une? |la |le |l')[^?.!]{2,40}\?|"
        r"¿\s*(?:tengo|tendr[ée]|ser[áa] que tengo)\s+[^?]{2,40}\?|\bser[áa] que (?:eu )?(?:tenho|estou com)\b[^?.!]{2,40}\?|"
        r"我是不是(?:得了|有|患了)|هل (?:عندي|أنا مصاب|انا مصاب)\b[^؟?]{2,40}[؟?]",
        # "what is it I have?": "这是什么病", "帮我判断一下", "عندي ايه بالظبط؟", "mujhe kya hua hai?", "o que eu tenho?"
        r"(?:这|这个)是什么病|帮我(?:判断|诊断|看看是什么)|(?:عندي|عندى) (?:ايه|إيه|ايش|إيش|شو)(?: بالظبط| بالضبط)?\s*[؟?]|"
        r"\b(?:mujhe|muje|mere ko|mujhko) (?:kya|kyaa) (?:hua|ho gaya|ho gayi) hai\b|मुझे क्या (?:हुआ|हो गया) है|"
        r"\bo que (?:eu )?tenho\s*\?|\bqu'est-ce que j'ai\s*\?|\bqu[ée] (?:es lo que )?tengo\s*\?",
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
        r"\bhow\s+(?:much|many)\b.{0,40}\bis\s+(?:it\s+)?safe\s+to\s+take\b",
        # the other languages: "¿cuánto clonazepam puedo tomar?", "quanto devo tomar", "吃多少", "أزوده كام وحدة"
        r"\bcu[áa]nt[oa]s?\s+(?!(?:de\s+)?(?:agua|caf[ée]|leche|vino|cerveza|alcohol)\b)[^?.!]{0,40}\b(?:le doy|(?:puedo|debo|tengo que)\s+"
        r"(?:tomar|darle|subir|aumentar))|\bquant[oa]s?\s+(?!(?:de\s+)?(?:[áa]gua|caf[ée]|leite|cerveja|[áa]lcool)\b)[^?.!]{0,40}\b"
        r"(?:posso|devo|dou)\s+(?:tomar|dar|aumentar)|\bcombien\s+(?!d'eau|de caf[ée]|de lait)[^?.!]{0,40}\b(?:je peux|dois-je|je dois)\s+(?:prendre|lui donner)|"
        r"(?:吃|打|加)多少(?:片|粒|单位|毫克)?(?:才|比较|合适|能|可以)|(?:أزود|ازود|أزوّد|أنقص|انقص)\S*\s+(?:كام|كم)\s+(?:وحدة|حبة)|"
        r"(?:كام|كم)\s+(?:حبة|وحدة)\s+(?:آخد|اخد|آخذ|ياخد|تاخد)",
    ],
    "controlled substances": [
        r"\b(?:get|buy|obtain|order|score|find|prescribe|refill|more(?!\s+(?:\w+\s+)?(?:dangerous|addictive|potent|powerful|deadly|common|likely|risky|harmful|toxic|lethal|effective|than)))\b.{0,40}\b(?:oxycodone|oxycontin|hydrocodone|vicodin|"
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
        r"\b(?:meri|mera|mere)\s+(?:\w+\s+)?(?:report|test|reports|x-?ray|scan|sugar|bp)\b.{0,60}\b(?:matlab|normal hai|theek hai|"
        r"sahi hai|kya hai|dikha ?(?:do|o)|dekh ?(?:lo|kar))\b",
    ],
    "prior authorisation or disability letter": [
        r"\b(?:write|draft|sign|fill (?:out|in)|complete|give me|provide)\b.{0,50}\b(?:letter|note|form|certificate|authori[sz]ation|paperwork|appeal)\b",
        r"\b(?:need|want|get|give me)\b.{0,30}\b(?:doctor'?s note|sick note|medical (?:note|certificate|letter|exemption)|note for (?:school|work))\b",
        r"\bprior\s+auth\w*\b.{0,40}\b(?:for my|for me|write|submit|get|need)\b|\b(?:for my|for me|write|submit|get|need)\b.{0,40}\bprior\s+auth",
        r"\b(?:disability|fmla|sick leave|esa|emotional support animal)\b.{0,30}\b(?:letter|form|note|paperwork|claim)\b.{0,30}\b(?:for me|my|i)\b",
    ],
}

# Severity of a pattern-found emergency by category (the spec's levels); any other sign is "high".
EMERGENCY_SEVERITY: dict[str, str] = {
    "chest pain or pressure": "critical", "trouble breathing": "critical", "stroke signs": "critical",
    "heart attack signs": "critical", "breathing emergency": "critical", "anaphylaxis": "critical",
    "sepsis": "critical", "severe bleeding or trauma": "critical", "loss of consciousness": "critical",
    "overdose or poisoning": "critical", "electric shock, heat stroke or carbon monoxide": "critical",
    "severe abdominal pain with fever or vomiting": "high", "diabetic emergency": "high", "severe burns": "high",
    "poisonous mushrooms or plants": "high", "dehydration in a baby": "high", "heart failure getting worse": "high",
    "fever on chemotherapy or after a transplant": "critical", "adrenaline auto-injector used": "critical",
    "missed dialysis": "critical", "low oxygen": "critical", "waters broken or pre-eclampsia in pregnancy": "critical",
    "fever in a young baby": "critical",
}

# Context: is it happening to someone, now?
PERSONAL = (r"\b(?:i|i'?m|i'?ve|i'?d|me|my|we|we'?re|our|us|he|he'?s|she|she'?s|they'?re|him|his|her|husband|wife|son|daughter|"
            r"baby|child|kid|toddler|mom|mum|dad|mother|father|friend|grand\w+|partner|brother|sister|boyfriend|girlfriend|"
            r"roommate|coworker|neighbou?r|patient)\b")
PRESENT = (r"\b(?:right now|(?<!fine )(?<!okay )(?<!ok )(?<!better )(?<!well )(?<!good )now|currently|at the moment|today|tonight|this (?:morning|evening|afternoon)|"
           r"(?<!was )(?<!were )(?<!it's )(?<!its )(?<!or )just(?!\s+(?:curious|wondering|asking|in case|(?:a|an|being|\w+ing)\b))|suddenly|"
           r"keeps?|started|since|minutes? ago|hours? ago|is having|am having|i'?m having|i have|i feel|i'?ve got|"
           r"can'?t|cannot|won'?t stop|"
           r"maintenant|en ce moment|depuis|ce soir|aujourd'hui|ahora|ahorita|ya mismo|desde hace|esta noche|hoy|"
           r"agora|neste momento|desde|hoje|esta noite|"
           r"tout à l'heure|tout a l'heure|ce matin|cette nuit|vient de|viens de|il y a (?:une|deux|\d+) heures?|recién|recien|"
           r"acaba de|acabo de|hace (?:un rato|unos minutos|media hora|una hora)|acabou de|há pouco|ha pouco|abhi|aaj|aaj raat)\b|"
           r"现在|刚才|刚刚|正在|今晚|今天|小时前|分钟前|الآن|هلأ|هلق|الحين|دلوقتي|الليلة|من ساعة|من شوية|اليوم|من الصبح|من الصباح|"
           r"अभी|इस वक्त|आज|सुबह से|\bsubah se\b")
PAST = (r"\b(?:last (?:year|month|week|spring|summer|winter|fall)|years? ago|months? ago|weeks? ago|in (?:19|20)\d\d|"
        r"(?:it'?ll be|it will be|it'?s been|it has been) (?:\d+|two|three|four|five|ten|twenty) years|"
        r"history of|passed away|died|survived|recovered|used to|when i was (?:a )?(?:kid|child|young|teen\w*|\d+)|"
        r"as a (?:kid|child|baby|toddler|teen\w*)|back in|"
        r"le mois dernier|l'an dernier|l'année dernière|il y a \d+ (?:ans|mois)|el mes pasado|el año pasado|"
        r"hace \d+ (?:años|meses)|en (?:19|20)\d\d|mês passado|ano passado|há \d+ (?:anos|meses)|em (?:19|20)\d\d)\b|"
        r"上个月|去年|年前|以前|高中时|小时候|الشهر الماضي|السنة الماضية|العام الماضي|من سنين|पिछले (?:महीने|साल|हफ्ते)|"
        r"\bhace (?:un|una|dos|tres|unos|unas|\d+) (?:años?|mes(?:es)?|semanas?)\b|"
        r"\b(?:quand j'[ée]tais (?:petite?|enfant|gamin\w*)|(?:toute )?petite?,? j'(?:ai|avais)|enfant,|de chiquit[ao]|de niñ[ao]|de pequeñ[ao]|"
        r"cuando era (?:niñ[ao]|chic[ao]|pequeñ[ao])|quando eu era (?:pequen[ao]|criança|menin[ao])|bachpan (?:mein|me|mai))\b|"
        r"(?:وأنا|وانا|لما كنت) صغير(?:ة)?|बचपन में|\buna vez a los\b|\buma vez aos\b|"
        r"\bh[áa] (?:um|uma|dois|duas|\d+) (?:anos?|m[eê]s(?:es)?|semanas?)\b|\bsemana passada\b|\bnous a racont[ée]\b|"
        r"上周|上次|الأسبوع الماضي|الاسبوع الماضي|(?:السنة|الشهر|الاسبوع) اللي فات(?:ت)?|"
        r"قبل \S+ (?:سنين|سنوات|شهور)|و(?:هي|هو) صغير|"
        r"साल पहले|महीने पहले|\bla semana pasada\b|\b(?:\d+ )?saal pehle\b|\bpichh?le (?:hafte|mahine|saal)\b|"
        r"前年|(?:من|قبل) سنتين|في سنوات المراهقة|की उम्र में|के दिनों में|个月的时候|周的时候|岁的时候|"
        r"\bil y a (?:un|une|deux|trois|quatre) (?:ans?|mois|semaines?)\b|\b(?:\w+ )?(?:mahine|hafte) pehle\b")
# "... and now I'm fine": a "now" that closes a past story ("two years ago I thought of ending it, today I'm great").
RECOVERED = (r"\b(?:now i'?m (?:fine|ok|okay|good|better|well)|i'?m (?:doing )?(?:really |very |so )?(?:well|fine|good|great) now|"
             r"(?:in|at) a (?:really |much |very )?(?:good|better|great|healthy) place|(?:totally |completely |been )?(?:fine|ok|okay|good|normal)(?: all (?:day|night|evening))? (?:ever )?since|(?:been )?clean (?:for )?\d+ (?:years?|months?)(?: now)?|"
             r"(?:it'?ll be|it will be|it'?s been|it has been) (?:\d+|two|three|four|five|ten|twenty) years(?: \w+){0,3} since|"  # an anniversary
             r"(?:hoje|agora) (?:eu )?(?:estou|t[ôo]|me sinto) (?:[óo]timo|[óo]tima|bem|melhor)|"
             r"t[ôo] bem (?:faz|h[áa]) anos|hoy (?:\w+ ){0,4}estoy bien|me recuper[ée]|"
             r"(?:hoy|ahora) (?:ya )?(?:estoy|me siento) (?:bien|mejor)|"
             r"(?:aujourd'hui|maintenant) (?:je vais|[çc]a va|je suis|je me sens) (?:bien|mieux)|"
             r"ab (?:[a-z]+ ){0,4}(?:theek|thik|accha|achha) (?:hu|hoon|hun|hai|ho gaya|ho gayi)|(?:il|elle) va (?:tr[èe]s )?bien depuis)\b|"
             r"现在(?:已经)?(?:走出来了|好了|没事了|好多了)|之后再也没|后来再也没|(?:هلأ|هلق|دلوقتي|الحين) الحمد ?لله|الحمد ?لله (?:منيح|كويس|بخير)|"
             r"अब (?:\S+ ){0,6}(?:ठीक|अच्छा|अच्छी) (?:हूँ|हूं|हू)|अच्छी हालत में हूँ|(?:وأنا|وانا|أنا) بخير|توقفت منذ")
# Intent to harm oneself denied outright: "no tengo ideas de hacerme daño", "我没有想不开", "main koi galat kadam nahi uthaungi".
DENIED_INTENT = (r"\b(?:i'?m|i am) not (?:suicidal|going to (?:hurt|harm|kill) myself|going to do anything (?:stupid|silly))|"
                 r"\bno (?:thoughts|ideas?|intention|plans?) (?:of|about) (?:hurting|harming|killing) myself|"
                 r"\bi (?:won'?t|will not|would never) (?:do anything (?:stupid|silly)|hurt myself|harm myself)|"
                 r"no tengo (?:ideas|pensamientos|intenci[óo]n) de (?:hacerme da[ñn]o|matarme|suicid)|"
                 r"no (?:voy a|pienso) (?:hacer ninguna (?:tonter[íi]a|locura)|hacerme da[ñn]o)|"
                 r"je ne (?:vais|compte) (?:pas|rien) (?:faire de b[êe]tise|me faire du mal)|(?:aucune|pas d')id[ée]es? "
                 r"(?:noires|suicidaires|de me faire du mal)|je ne suis pas suicidaire|n[ãa]o (?:tenho|penso em) (?:ideias?|pensamentos?) "
                 r"de (?:me machucar|me matar|suic)|n[ãa]o vou fazer (?:nenhuma )?(?:besteira|bobagem)|"
                 r"(?:没有|不会)(?:想不开|做傻事|伤害自己)|没有(?:伤害自己|自杀)的(?:念头|想法)|"
                 r"(?:مش|لن|ما) (?:هعمل|أعمل|رح اعمل) (?:حاجة|شي) (?:غلط|غبية)|(?:ليس|ما) (?:لدي|عندي) (?:أفكار|نية) (?:لإيذاء|للانتحار)|"
                 r"\b(?:koi )?galat kadam nahi?n? (?:uthaung[ia]|uthaunga)|खुद को नुकसान पहुँचाने (?:जैसा )?कोई (?:ख़याल|ख्याल|विचार) नहीं|"
                 r"कोई गलत कदम नहीं")
# A crisis word said in general or of a story: "warning signs that someone might be thinking about
# suicide", "a novel where the narrator's brother dies by suicide".
NOT_ONE_OWN = (r"(?:\b(?:characters?|narrator|protagonist|novel|"
               r"script|screenplay|film|movie|lyrics|warning signs|roman|novela|romance|personnage|personaje|personagem)\b|"
               r"小说|诗|作家|رواية|उपन्यास)")
# An animal the sign happens to: "bakri ko saanp ne kaata", "mi perro se comió el veneno" (animals are not patients here;
# a person named beside it, "the dog bit my son", keeps the sign).
ANIMAL = (r"\b(?:cows?|goats?|dogs?|pupp(?:y|ies)|cats?|kittens?|horses?|sheep|lambs?|pigs?|chickens?|hens?|buffalo|cattle|"
          r"vache|ch[èe]vre|chien|chat|cheval|brebis|mouton|poule|vaca|chiva|cabra|perr[oa]|gat[oa]|caballo|borrego|oveja|gallina|"
          r"cachorr[oa]|c[ãa]o|boi|cavalo|galinha|porco|ovelha|bakri|bakra|kutt[ae]|billi|gaay|bhains|ghoda|murgi)\b|"
          r"羊|狗|猫|牛(?!奶|肉)|马(?!上|桶|路|蜂)|鸡(?!蛋|肉|汤)|猪(?!肉)|كلب|عنزة|جاموسة|بقرة|قطة|حصان|خروف|ماعز|भैंस|गाय|बकरी|कुत्त|बिल्ली|घोड़|मुर्गी")
HUMAN = (r"\b(?:son|daughter|kids?|child(?:ren)?|baby|husband|wife|mom|mum|mother|dad|father|grand\w+|brother|sister|uncle|aunt|"
         r"friend|man|woman|boy|girl|neighbou?r|worker|family|everyone|everybody|all of us|both of us|we|us|famille|familia|"
         r"fam[íi]lia|parivaar|ghar wale|fils|fille|enfant|b[ée]b[ée]|mari|femme|m[èe]re|p[èe]re|fr[èe]re|s[oœ]e?ur|"
         r"hij[oa]|niñ[oa]|espos[oa]|mam[áa]|pap[áa]|abuel[oa]|herman[oa]|filh[oa]|crian[çc]a|marido|m[ãa]e|pai|av[óô]|irm[ãa]o?|"
         r"beta|beti|bachch?[ae]|papa|mummy|dadi|dada|bhai|behen|pati|patni)\b|儿子|女儿|孩子|宝宝|老公|老婆|妈|爸|奶奶|爷爷|弟|哥|姐|妹|朋友|同事|工人|老人|我|全家|家人|العيلة|العائلة|कुटुंब|परिवार|"
         r"ابني|بنتي|جوزي|مراتي|أمي|امي|ابوي|أبوي|أبي|ولدي|बेटा|बेटी|बच्च|पति|पत्नी|मां|पापा")
# A sign taken back as soon as it is said: "overdosed on caffeine lol jk".
TAKEN_BACK = (r"\W{0,3}(?:\w+\W+){0,3}?(?:lol\s+)?(?:jk|j/k|just kidding|just joking|kidding)\b"
              r"(?!\W*(?:no|nah|not|but|actually|seriously|for real|fr|honestly)\b)"  # not "jk no really I did"
              r"|[ \t]*(?:😂|🤣|😆|\b(?:lol|lmao|lmfao|haha\w*|mdr|ptdr|jaja\w*|kkkk*)\b)"  # laughing at once: "i cant breathe 😂😂"
              r"(?![^.!?\n]{0,20}\b(?:no really|for real|seriously|actually|not kidding|not joking|honestly)\b)")
# "She hasn't said anything about hurting herself": the sign is named to say it is absent.
NOTHING_SAID = (r"(?:\b(?:(?:hasn'?t|has not|didn'?t|did not|never) (?:said|mentioned|talked about|told me) anything|"
                r"n'a (?:rien|jamais rien) dit|no (?:ha dicho|dijo) nada|n[ãa]o (?:disse|falou|comentou) nada|"
                r"kuch nahi (?:kaha|bola)|kuch nahin (?:kaha|bola))\b|"
                r"没(?:有)?(?:说过|提过|讲过)|(?:ما|مش) (?:حكى|قال|قالت|حكت) (?:شي|اشي|حاجة)|ما قالش|कुछ नहीं (?:कहा|बोला))")
GENERAL = (r"(?:\b(?:in general|generally|usually|typically|first aid course|what (?:is|are)|what'?s (?=\w+\??$)|चेतावनी (?:के )?संकेत|what (?:does|do) .{0,40}\bmean|what'?s the difference|what causes|symptoms of|signs of|"
           r"warning signs|how (?:is|are|do(?! i\b| we\b)|does|can(?! i\b| we\b)|long)|why (?:do|does|is|are)|risk (?:of|factors?)|prevent\w*|difference between|"
           r"explain|what happens|essay|documentary|if someone|for my (?:class|course|essay|project|exam)|"
           r"hypothetical\w*|someday|some day|if (?:\w+ ){1,3}ever|what (?:do|should) (?:you|we|people) do if|homework|"
           r"screenplay|nursing student|med(?:ical)? student|viva|pathophysiology|safeguarding|"
           # laughter: "that video had me dying, couldn't breathe from laughing" is an idiom
           r"lmao|lol|haha\w*|laughing|mdr|ptdr|jaja\w*|kkkk*|"
           # fiction, the news, and asking ahead: "in the series someone was bitten by a snake ..."
           # ("like in the movies" is a simile, not fiction)
           r"(?<!like in the )(?<!like in )(?<!like on )(?:movies?|films?|tv (?:show|series))|episode|series|novel|in the news|"
           r"news (?:story|report)|in advance|"
           r"série|feuilleton|reportage|(?:un|mi|el) cuento|au journal|à l'avance|película\w*|serie|telenovela|noticias?|de antemano|"
           r"filmes?|novela|notícia\w*|quero saber antes|movie me|serial|peli|c'?est quoi|c est quoi|c quoi|(?:is|are) (?:\w+ ){1,3}always|agar kabhi|bas janna tha|"
           r"étudiant\w*|etudiant\w*|infirmi[eè]re|comment (?:agit|fonctionne|marche)|c[óo]mo (?:funciona|act[úu]a)|"
           r"como (?:funciona|age|atua)|cours|exposé|partiel|documentaire|si quelqu'un|différence entre|physiopathologie|"
           r"estudiante|curso|ensayo|documental|si alguien|diferencia entre|"
           r"estudante|documentário|trabalho da escola|se algu[ée]m|diferença entre|"
           # "in general" and "just in case" in each language
           r"curiosity|curiosidad|curiosidade|curiosit[ée]|in (?:the|a) (?:video ?)?game|pubg|free fire|game me|game mein|estudo (?:enfermagem|medicina)|estudio (?:enfermer[ií]a|medicina)|"
           r"prova pr[áa]tica|"
           # a message forwarded from a group, asked about: "forwarded as received: '...' real or fake?"
           r"forwarded|real or fake|is (?:this|it|that) (?:true|real|legit)|fake news|chain message|message transf[ée]r[ée]|vrai ou faux|"
           r"reenviad[oa]|verdad o mentira|encaminhad[ao]|verdade ou mentira|[ée] verdade|forward (?:aaya|kiya|hua)|sach hai kya|"
           # "what to do if you see someone ...", "if someone gets a shock"
           r"que faire si|si (?:tu vois|on voit|je vois|vous voyez) quelqu'un|qu[ée] hay que hacer si|si (?:ves|veo|vemos|encuentras) a alguien|"
           r"o que fazer se|se (?:voc[êe] )?(?:v[êe]|vir|ver|encontrar) algu[ée]m|agar (?:koi|kisi (?:ko|ka|ki|ke))|"
           r"ho (?:to|toh) kya kar(?:ein|en|na|e)|seekhna chaht|safety class|"
           r"just in case|en general|por lo general|por si acaso|en général|au cas où|em geral|por via das dúvidas|"
           r"si un jour|se um dia|si alg[úu]n d[íi]a|"
           r"aam taur (?:par|pe)|general mein|student (?:hoon|hu|hun)|kya hota hai|ho ja(?:ye|aye|e) (?:to|toh) kya karna|ke (?:symptoms|lakshan|signs) kya (?:hote|hai|hain))\b|"
           r"हो जाए तो क्या करना|के लक्षण क्या|क्या होता है|\bqu'est-ce|\bquels sont|\bqué es|\bcuáles son|"
           r"一般来说|一般來說|一般性|一般(?:应该|應該|要|怎么|怎麼|该|該)|一般嚟讲|一般嚟講|以防万一|以防萬一|بشكل عام|عموما|عمومًا|احتياطا|احتياطًا|"
           r"सामान्य तौर|आम तौर|एहतियात|如果哪天|万一哪天|لو [^.؟?!]{0,30}في يوم|"
           r"\bo que é|\bquais são|أكتب قصة|(?:पड़ने|होने) पर .{0,40}क्या करना चाहिए|什么是|哪些|纪录片|论文|作业|急救课|如果(?:看到|遇到|碰到|发现)?(?:身边)?有人|转发|是真的吗|真的假的|谣言|ما هو|ما هي|وثائقي|بحث|دورة|إذا أحد|"
           r"क्या है|डॉक्यूमेंट्री|निबंध|प्रोजेक्ट|क्लास|अगर कोई|😂|🤣|😅|哈哈|笑死|笑得|ههه|हाहा|हँसते|"
           r"好奇|من باب الفضول|منقول|رسالة متداولة|(?:هل هذا|هل الكلام ده|الكلام ده) (?:صحيح|صح)|सच है क्या|游戏里|في اللعبة|电视剧|电影|新闻|文章|小说|剧里|剧中|محاضرة|(?:اغلب|أغلب) حالات|अगर कभी|实习时|提前学|أثناء تدريبي|مسلسل|فيلم|فلم|الأخبار|خبر عن|انتشر فيديو|फिल्म|सीरियल|खबर)")
# Suicide rates, statistics and the news: a question about a population, not about oneself (read for
# the crisis words of the other languages only: "heart rate" belongs to emergencies).
STATISTICS = (r"(?:\b(?:suicide rates?|rates? of suicide|statistics|stats|taux de suicide|statistiques|chiffres du suicide|"
              r"tasas? de suicidio|cifras de suicidio|estad[íi]sticas|taxas? de suic[íi]dio|estat[íi]sticas|dados oficiais)\b|"
              r"自杀率|统计|数据|新闻报道|معدل الانتحار|نسبة الانتحار|معدلات الانتحار|إحصائيات|احصائيات|"
              r"आत्महत्या की दर|आँकड़े|आंकड़े)")

# "Yes, I acknowledge" (any of the seven languages): the answer to the pressed-beyond-scope request.
ACKNOWLEDGEMENT = (r"^\W*(?:yes|yeah|yep|ok(?:ay)?|sure|i (?:do )?(?:acknowledge|accept|agree|understand)|"
                   r"oui|d'accord|je (?:le )?(?:reconnais|accepte|comprends)|sí|de acuerdo|(?:lo )?(?:acepto|reconozco|entiendo)|"
                   r"sim|concordo|(?:eu )?(?:aceito|reconheço|entendo)|是|确认|我确认|我接受|我同意|同意|"
                   r"نعم|أقر|موافق|أوافق|أقبل|हाँ|हां|haan|मैं स्वीकार|स्वीकार|ठीक है)(?=\W|$)")

# "I have type 2 diabetes": the patient lives with a condition (the reply acknowledges it; not a diagnosis request).
CHRONIC = (r"\b(?:i have|i'?ve had|i live with|i'?m living with|i was diagnosed with|i'?ve been diagnosed with|"
           r"diagnosed me with|my doctor said i have)\b.{0,30}\b(?:diabetes|asthma|copd|hypertension|high blood pressure|"
           r"high cholesterol|arthritis|lupus|crohn'?s|colitis|ibs|epilepsy|multiple sclerosis|ms|heart failure|"
           r"kidney disease|ckd|hiv|hepatitis|psoriasis|eczema|fibromyalgia|migraines?|depression|anxiety|"
           r"parkinson'?s|thyroid|hypothyroidism|celiac|sickle cell|cancer|chronic \w+)\b"
           # fr, es, pt: "j'ai du diabète depuis", "tengo diabetes", "tenho diabetes"; zh, ar, hi: the same said plainly
           r"|\b(?:j'ai|je vis avec|je suis|tengo|vivo con|soy|tenho|convivo com|sou)\b.{0,25}\b(?:diab[eè]t\w*|asthm\w*|asma|"
           r"hypertension|hipertensi[oó]n|hipertens[aã]o|[eé]pilep\w*|epilepsia|insuffisance \w+|insuficiencia \w+|"
           r"insufici[eê]ncia \w+|polyarthrite|artritis|artrite|lupus|crohn|d[eé]pression|depresi[oó]n|depress[aã]o|"
           r"chronique|cr[oó]nic[ao]|cr[oô]nic[ao])"
           r"|(?:我有|我患有|我得了).{0,8}(?:糖尿病|高血压|哮喘|癫痫|抑郁症|慢性)|(?:患|得).{0,4}(?:糖尿病|高血压|哮喘)(?:已经|有).{0,6}年"
           r"|(?:أعاني من|لدي|عندي).{0,20}(?:السكري|السكر|الضغط|الربو|الصرع|الاكتئاب|مزمن)"
           r"|(?:मुझे|मैं).{0,25}(?:डायबिटीज़?|मधुमेह|शुगर|बीपी|ब्लड प्रेशर|अस्थमा|दमा|मिर्गी|डिप्रेशन)")

# An overdose already taken, in the other six languages (the English ones are the emergency category
# "overdose or poisoning"). Read only on a message already flagged as an emergency or a crisis: it
# makes a crisis an emergency too (the poison may act before any counsellor can).
OVERDOSE_TAKEN: list[str] = [
    r"\bj'ai (?:pris|aval[ée]|englouti)\b.{0,40}(?:tou(?:te|s|tes)? (?:ma|mes|la|les|une)\b|bo[iî]te|plaquette|flacon|"
    r"\b\d{2,}\b|plein de|une poign[ée]e)",
    r"\b(?:me tom[ée]|tom[ée]|me he tomado|he tomado|me tragu[ée]|tragu[ée]|me beb[ií])\b.{0,40}(?:tod[oa]s? (?:la|las|mis|el|los)\b|"
    r"caja|frasco|bl[ií]ster|\b\d{2,}\b|un mont[oó]n|un pu[ñn]ado)",
    r"\b(?:tomei|engoli|bebi)\b.{0,40}(?:cartela|caixa|frasco|tod[oa]s? (?:os|as|a|o)\b|\b\d{2,}\b|um monte|v[áa]rios comprimidos)",
    r"(?:吃了|吞了|服了|喝了)[^。！？]{0,8}(?:一整瓶|整瓶|一瓶|整盒|一盒|全部|所有的|几十|\d{2,})[^。！？]{0,6}(?:药|片|粒|农药)",
    r"(?:أخذت|اخذت|بلعت|تناولت|شربت)\s.{0,30}(?:علبة|العلبة|كل (?:ال)?(?:حبوب|أقراص|دواء)|شريط|[\d٠-٩]{2,}\s*(?:حبة|قرص))",
    r"(?:मैंने|मैने)\s.{0,40}(?:पूरा पत्ता|पूरी शीशी|सारी|सब|बहुत सारी|\d{2,})\s*.{0,30}(?:खा ली|खा लीं|खा लिया|खा लिए|निगल)",
    r"\b(?:maine|mene|main ne)\b.{0,40}\b(?:saari|sari|puri|poori|sab|\d{2,}|bahut saari)\b.{0,20}\b(?:kha li|kha lee|kha liya|"
    r"kha lin|khali|nigal)",
]
