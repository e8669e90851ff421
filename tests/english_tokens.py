"""The mixed English corpus whose keyword terms must not change when scripts without spaces are
segmented (issue 17): the fixture vault, the benchmark vault's prose and code, and a few lines in
other spaced scripts. ``tests/fixtures/tokens/english.json`` holds their terms as main
tokenized them before CJK segmentation (captured by ``python tests/english_tokens.py``).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "tokens" / "english.json"

#: Spaced scripts and Unicode corners: accents, German, Greek, Cyrillic, Devanagari, Arabic,
#: emoji, fullwidth Latin, title case letters, identifiers and tags.
OTHER_SCRIPTS = [
    "Café naïve résumé, coöperate façade — déjà vu",
    "Die Straße in München: Müller hat größere Äpfel gekauft.",
    "Ελληνικά: λέξεις με τόνους και ΚΕΦΑΛΑΙΑ",
    "Русский текст: 26 марта мы обсудили ключи подписи.",
    "हिन्दी भाषा में लिखा गया पाठ",
    "العربية نص مكتوب من اليمين",
    "emoji 🙂 ok 👍🏽 done ✅",
    "ＡＢＣ fullwidth ｔｅｘｔ １２３",
    "İstanbul ǅemal ﬁne ligature ß",
    "sign_ed25519() #redflag @dana foo.bar signingKey HTTPServer v1.2.3 a-b-c x/y:z",
    "x" * 300 + " " + "#" + "t" * 80 + " a." + "b" * 70 + "()",
]


def corpus() -> dict[str, str]:
    """Name -> text, in a stable order."""
    texts: dict[str, str] = {}
    for folder, pattern in (
        ("tests/fixtures/vault", "*.md"),
        ("eval/ownvault", "*.py"),
    ):
        for path in sorted((ROOT / folder).rglob(pattern)):
            texts[path.relative_to(ROOT).as_posix()] = path.read_text(encoding="utf-8")
    for i, line in enumerate(OTHER_SCRIPTS):
        texts[f"other/{i}"] = line
    return texts


def fingerprint(terms: list[str]) -> str:
    return hashlib.sha256("\x00".join(terms).encode()).hexdigest()


def terms_of(text: str) -> dict[str, object]:
    from memsearch.tokenize import term_counts, tokenize

    terms = tokenize(text)
    counts = term_counts(text)
    return {
        "text": hashlib.sha256(text.encode()).hexdigest(),  # a text edited since is not compared
        "n": len(terms),
        "tokens": fingerprint(terms),
        "counts": fingerprint([f"{t}={n}" for t, n in counts.items()]),
    }


def capture() -> dict[str, dict[str, object]]:
    return {name: terms_of(text) for name, text in corpus().items()}


if __name__ == "__main__":
    # Captured from main before the change; run again only if the corpus itself changes.
    FIXTURE.write_text(json.dumps(capture(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {FIXTURE} ({len(corpus())} texts)", file=sys.stderr)
