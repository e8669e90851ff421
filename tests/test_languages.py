"""memsearch.languages: a text's Latin-script language, told by its function words (issue 17)."""

import pytest

from memsearch.languages import LANGUAGES, MARKERS, decide, tally_tokens
from memsearch.tokenize import raw_tokens


def language(text: str) -> str | None:
    return decide(tally_tokens(raw_tokens(text)))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Wir sind in die neue Wohnung gezogen. Die Kaution haben wir schon überwiesen.", "german"),
        ("Presentamos el proyecto a los inversores; las diapositivas están en la carpeta.", "spanish"),
        ("Nous avons déménagé dans le nouvel appartement et les voisins sont très gentils.", "french"),
        ("Abbiamo comprato delle biciclette nuove per le vacanze, anche per i bambini.", "italian"),
        ("Nós compramos uma casa nova em Lisboa e já não temos tempo para isso.", "portuguese"),
        ("Wij hebben het huis niet verkocht, maar de tuin is nu ook van ons.", "dutch"),
        ("We moved the signing keys to the new vault and rotated them on Friday.", "english"),
    ],
)
def test_a_paragraph_names_its_language(text, expected):
    assert language(text) == expected


def test_a_text_too_short_or_too_mixed_to_tell_says_nothing():
    assert language("Wohnungen in Kreuzberg") is None  # no function word of any language
    assert language("presentación a los inversores") is None  # one marker is a name or a quotation
    # Nearly as much English as German: code-switching, neither language's text.
    assert language("Die Kaution ist bezahlt und wir haben the keys and the deposit back") is None
    # A German quotation inside English prose is English.
    assert language("Dana wrote 'die Kaution ist bezahlt' and that was the end of it") == "english"


def test_english_prose_with_foreign_names_and_code_stays_english():
    text = (
        "Dr. Le met the team at El Camino; the x and y columns of the del table were checked, and "
        "IL-6 et al. is what the paper cites for the van der Waals case."
    )
    assert language(text) == "english"


def test_no_marker_says_two_languages():
    seen: dict[str, str] = {}
    for name in LANGUAGES:
        for word in MARKERS[name]:
            assert word not in seen, f"{word!r} in {seen.get(word)} and {name}"
            seen[word] = name
