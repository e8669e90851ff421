"""The word lists that tell a name from a common word, and the judgements made with them.

:data:`STOPWORDS` are never names; :data:`COMMON_WORDS` (with their inflections and typical
endings) are capitalised only because a sentence opens with them; connectors ("of", "van der")
may join the words of one name; a word's shape (an acronym, CamelCase, letters with digits)
makes it a name wherever it stands.
"""

from __future__ import annotations

import re


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: Never an entity, wherever they stand: pronouns, determiners, question words, conjunctions,
#: prepositions, auxiliaries, interjections, weekdays, months, relative days, markers.
STOPWORDS: frozenset[str] = _words(
    """
    i me my mine myself we us our ours ourselves you your yours yourself yourselves he him his himself
    she her hers herself it its itself they them their theirs themselves one ones someone somebody
    something anyone anybody anything everyone everybody everything noone nobody nothing
    the a an this that these those some any each every all both either neither no none other another
    such own same few many much more most less least several enough
    when what where who whom whose why how which whatever whenever wherever whoever however whether
    and but or nor so yet if then than because though although unless while whereas since until till
    also too very just only even still already again ever never always often sometimes usually
    not yes yeah yep nope no ok okay oh ah aha hey hi hello hiya bye goodbye thanks thank please sorry
    wow whoa oops hmm hm um uh well sure right great good nice cool awesome amazing congrats
    congratulations welcome dear lol haha omg btw fyi imo tbh
    of in on at to for from with by about into onto over under after before during above below
    between among through throughout across along around against without within upon via per
    up down out off near toward towards beyond behind beside besides despite like unlike as
    is am are was were be been being do does did done doing have has had having will would shall
    should can could may might must need ought let lets
    here there now then today tomorrow yesterday tonight soon later earlier recently currently
    monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
    january february march april june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec
    morning afternoon evening night week weekend month year day
    am pm utc gmt
    todo fixme note notes nb ps re fw fwd tbd tba etc eg ie vs
    mr mrs ms dr prof sir madam
    aw aww awww yup yea yess gotta gonna wanna kinda sorta lemme gotcha woah woohoo woo yoohoo yay
    nah oof mm mmm ooo ooh ouch ugh phew ha hah ahh ahhahha hmmm yum ttyl dang darn c'mon y'all
    sooo kudos cheers bummer anytime looky man go
    """
)

#: Common words that are capitalised only because a sentence starts with them. A run of
#: capitalised words at the start of a sentence loses such words from its front ("Met Ed Kowalski"
#: gives "Ed Kowalski"). Inflections are checked too ("Prefers", "Rotated", "Finds"). Kept out on
#: purpose: words that begin place and organisation names (New, North, San, United, Great...).
COMMON_WORDS: frozenset[str] = _words(
    """
    about after again against ago almost alone along already alright anyway anyhow apparently around
    back bad basically best better big bit certainly clearly close completely definitely different
    early easy else especially eventually ever exactly except excited fine finally first fun funny
    glad happy hard honestly hopefully huge important indeed instead interesting just kind last late
    later least less life likely little long lot lots main maybe meanwhile moreover most mostly
    much next normally now obviously often old once only other others otherwise overall perhaps
    plus possibly pretty probably quick quite rather ready real really recently right same second
    several short similarly simply small so somehow sometimes soon sorry still such suddenly
    supposedly sure thankfully therefore third though thus tired true truly two unfortunately
    useful various way whatever worth yet
    accept add agree allow answer appear apply approve arrive ask attend avoid bake become begin
    believe borrow break bring build buy call care carry catch change check choose clean climb close
    collect come compare complete consider continue cook cost count cover create cut dance decide
    deliver describe design destroy die discover discuss do draw dream drink drive drop eat enjoy
    enter explain fail fall feel fight file fill find finish fix fly follow forget forgive form get
    give go grow guess hand happen hate have hear help hide hike hit hold hope hurt imagine improve
    include join keep kill know land laugh learn leave lend let lie like listen live look lose love
    make manage mark matter mean meet mention mind miss move need notice offer open order organise
    organize own paint pass pay pick place plan play point practise practice prefer prepare present
    print promise prove publish pull push put reach read realise realize receive recommend record
    reduce refuse relax release remember remind remove repeat reply report request rest return
    review ride ring rise rotate run save say search see seem sell send serve set share shop show
    sign sing sit sleep smile solve speak spend stand start stay stop study suggest support suppose
    swim take talk taste teach tell test thank think throw touch train travel treat try turn
    understand update use visit wait wake walk want wash watch wear win wish wonder work worry wrap
    write
    cancel compile configure confirm debug delete deploy download expire fetch install migrate
    postpone refactor rename repair replace reset restore revert submit unlock upgrade upload weigh
    born died married retired moved aged
    ate became began bought brought built came caught chose did drew drank drove fell felt fought
    flew forgot found gave got grew had heard held hid hit hurt kept knew laid led left lent lost
    made meant met paid put ran rang read rode rose said sang sat saw sent shot showed slept sold
    spent spoke stood swam taught thought threw told took understood went woke won wore wrote
    gone done seen known taken given written spoken
    intro overview summary background context introduction conclusion example examples usage setup
    install installation config configuration detail details status history changelog goal
    problem solution question answer reason rule principle decision lesson thought thoughts
    key release chapter part section appendix entry log ledger contact link reference resource task
    idea misc faq team owner people person related open closed plan step risk issue bug
    memory secret tool inbox token ceremony honesty privacy safety security value values promise
    morning evening afternoon night photo picture family friend friends kid kids work home
    loose note draft archive journal diary thing things maintainer owner
    one two three four five six seven eight nine ten eleven twelve twenty hundred
    sound appreciate super bet crazy impressive finger hang rock lucky cherish wedding exercise rate
    event trip mixed busy trust visual spill unconditional sunflower veggie stuff creativity brave
    gather respect success tackle impressed obstacle guidance mentor capture quality simple blessed
    breath laughter adorable allergy somewhat dyed jealous dairy theme apart tough music everywhere
    game struggle unforgettable confident difficult money epic email vary daily precious somewhere
    mix fit user sad someday explore deadline determined fully wall perseverance special twist story
    green nostalgic afterward comfort candle gorgeous onward onwards research world storm consistency
    sweet twisted celebrate doctor progress treasure incredible embrace fascinated classic invite
    clear safe skilled fresh luxury eager art animal pet book setback challenge proud nature
    absolutely totally exciting excellent fantastic beautiful lovely wonderful glad hopeful awesome
    """
)

#: Endings of verbs, adverbs and abstract nouns: such a word opening a sentence is not a name.
_SUFFIX_RE = re.compile(r"(?:ing|ly|tion|tions|sion|sions|ment|ments|ness|ship|ism|isms)$")
CONNECTORS = frozenset({"of", "de", "da", "di", "del", "der", "van", "von", "la", "le", "du", "bin", "al"})
SECOND_CONNECTORS = frozenset({"the", "der", "den", "la", "los", "las"})  # "Lord of the Rings"
ANY_CONNECTOR = CONNECTORS | SECOND_CONNECTORS
_CONTRACTION_RE = re.compile(r"['’](?:t|m|re|ve|ll|d)$", re.IGNORECASE)
#: Month names that are also first names ("April Jones", "Jun Park", "Jan Smith"): a stopword
#: everywhere else, part of the name when a capitalised name word follows and no date leads in
#: (``memsearch.entities.extract``). "May" and "March" are left out: a modal verb and a verb first.
MONTH_FIRST_NAMES = _words(
    "january february april june july august september october november december"
    " jan feb apr jun jul aug sep sept oct nov dec"
)
#: Words after which a month word is a date or a thing, not a first name ("in June Carter
#: called", "the June Offsite"): prepositions that all but always lead to a date, and determiners.
DATE_LEADS = _words(
    "in on since until till during through throughout of early late mid last next this every"
    " the a an that these those each our my your their his her its"
)
#: First three letters of month and weekday names: a line opening so may open with a date.
DATE_OPENINGS = _words("jan feb mar apr may jun jul aug sep oct nov dec mon tue wed thu fri sat sun")


def is_stopword(word: str) -> bool:
    low = word.casefold()
    return (
        low in STOPWORDS
        or len(word) == 1
        or (("'" in low or "’" in low) and _CONTRACTION_RE.search(low) is not None)
    )


#: Verbs of an agent's log that are nouns too, common only inflected: "Shipped HPX" opens with a
#: verb, "Ship Inn" and "Post Office" are names.
_VERB_BASES: frozenset[str] = _words(
    """
    backup boot book commit copy email export feed flash harvest import invoice load lock log merge
    message mount pack patch phone plant post prune roll schedule ship switch sync text water
    """
)


def is_common(word: str) -> bool:
    """A word (or an inflection of one) from the common list; or a typical verb/adverb/noun ending."""
    low = word.casefold().replace("’", "'")
    head = low.split("-", 1)[0]
    if low in STOPWORDS or head in COMMON_WORDS:
        return True
    for base in _bases(head):
        if base in COMMON_WORDS or base in _VERB_BASES:
            return True
    if head.startswith("re") and len(head) > 5 and head[2:] in COMMON_WORDS:  # "Restart", "Rebuild"
        return True
    return bool(_SUFFIX_RE.search(head)) and len(head) >= 6 and not word.isupper()


def _bases(word: str) -> list[str]:
    """Candidate dictionary forms of an inflected word: prefers -> prefer, rotated -> rotate."""
    out = []
    if word.endswith("ies") and len(word) > 4:
        out.append(word[:-3] + "y")
    if word.endswith("es") and len(word) > 3:
        out.append(word[:-2])
    if word.endswith("s") and len(word) > 3 and not word.endswith("ss"):
        out.append(word[:-1])
    if word.endswith("ied") and len(word) > 4:
        out.append(word[:-3] + "y")
    if word.endswith("ed") and len(word) > 4:
        out.extend([word[:-2], word[:-1]])
        if len(word) > 5 and word[-3] == word[-4]:  # stopped -> stop
            out.append(word[:-3])
    if word.endswith("ing") and len(word) > 5:
        out.extend([word[:-3], word[:-3] + "e"])
        if word[-4] == word[-5]:  # running -> run
            out.append(word[:-4])
    # "restarted", "redeployed": a verb done again is that verb (only when what is left is one)
    out.extend([base[2:] for base in out if base.startswith("re") and len(base) > 5])
    return out


def name_like(word: str) -> bool:
    """Shaped like a name whatever its position: an acronym, CamelCase, or letters with digits."""
    return (
        (word.isupper() and len(word) >= 2)
        or any(ch.isupper() for ch in word[1:])
        or (any(ch.isdigit() for ch in word) and any(ch.isalpha() for ch in word))
    )
