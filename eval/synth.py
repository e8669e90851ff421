"""Synthetic memory vaults for the benchmark: every territory, entities, dates and links, from a seed.

    from synth import generate
    info = generate(Path("/tmp/vault"), chunks=100_000, seed=1)

A vault of about ``chunks`` chunks (as memsearch's chunkers cut it; the real count is within a few
percent and is what the benchmark reports) is written across the default territories, in shares
that follow an agent's vault: most memories are ledger lines and journal entries, fewer are
reference and system pages.

- ``aster/ledger/YYYY/YYYY-MM-DD.md``, one file a day: a chunk is a timestamped line
  (``- 2025-03-26 09:14 — ...``), some with an indented sub-bullet;
- ``journal/YYYY/YYYY-MM-DD.md`` (frontmatter date and people, ``# date``, paragraphs, ``## Evening``,
  a dated postscript) and ``...-session-NN.md`` conversations (``Speaker: turn``, one chunk per turn);
- ``reference/{topics,people,projects}/*.md``: frontmatter title, aliases, tags, people, project; a
  chunk per ``##`` section; fenced code; wikilinks and markdown links to other pages;
- ``system/covenant/*.md`` and ``system/*.md``, ``aster/notes/*.md`` (some sections headed by a date):
  ``##`` sections;
- ``literature/*.md``: books with frontmatter title and author, a chunk per ``# Chapter``;
- ``archive/YYYY-partN.md``: ``---``-separated dated blocks under month headings.

Text is drawn from a Zipf distribution over a vocabulary of common English words and pronounceable
pseudo-words, so postings lists have the long tail of a real vault. Entities: people (``Mara Lin``),
projects (capitalised words), ``#tags``, ``[[wikilinks]]`` to reference pages, markdown links
between files, and code identifiers (``sign_ed25519()``); a few people and projects are hubs.

Everything is a function of ``(chunks, seed)``: the same arguments write byte-identical files
(``generate`` returns a digest of the tree to check that), and :func:`make_queries` draws a fixed
mix of keyword, entity, temporal, identifier and filtered queries from the same plan.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import numpy as np

#: Bump when the output for a given (chunks, seed) changes: cached vaults are regenerated.
GENERATOR_VERSION = 1
#: The last day the synthetic agent lived through; queries use it as "now".
END_DATE = date(2025, 6, 30)
NOW = datetime(2025, 7, 1, 9, 0, tzinfo=UTC)

#: Share of chunks per territory (an agent's vault: mostly ledger lines and journal entries).
SHARES: dict[str, float] = {
    "ledger": 0.34,
    "journal": 0.26,
    "reference": 0.14,
    "system": 0.03,
    "notes": 0.04,
    "literature": 0.08,
    "archive": 0.11,
}
TERRITORY_PREFIXES: dict[str, str] = {
    "ledger": "aster/ledger/",
    "journal": "journal/",
    "reference": "reference/",
    "system": "system/",
    "notes": "aster/",
    "literature": "literature/",
    "archive": "archive/",
}


def _words(text: str) -> list[str]:
    return text.split()


#: Function words first: the Zipf head, dropped by the tokenizer as in real prose.
FUNCTION_WORDS = _words("the of and to a in that is was for it with as on at by this we from")
COMMON_WORDS = FUNCTION_WORDS + _words(
    """
time year people way day man thing woman life child world school state family student group country
problem hand part place case week company system program question work government number night point
home water room mother area money story fact month lot right study book eye job word business issue
side kind head house service friend father power hour game line end member law car city community name
president team minute idea kid body information back parent face others level office door health person
art war history party result change morning reason research girl guy moment air teacher force education
build release key sign token check deploy review plan note call meeting ship test fix write read run
open close start stop move keep bring hold turn show hear play live believe happen provide sit stand
lose pay meet include continue set learn lead understand watch follow create speak allow add spend grow
offer remember love consider appear buy wait serve die send expect stay fall cut reach kill remain
suggest raise pass sell require report decide pull server client backup mirror ledger signal garden
canal river train coffee walk rain snow light dark quiet loud early late long short small large new old
"""
)
SYLLABLES = _words(
    "ka ri to ne sa mi lo ve da ru pe zi mo ta li na so re ko vi ba lu me ti ro fa ze nu ga di "
    "sha tho bri cle dra fen gor hal jun kel mar nor pel quo ras sten tur vol wyn yar zor ast "
    "eld orn ith ulm ack ess"
)
FIRST_NAMES = _words(
    "Mara Ed Lena Tomas Ines Otto Priya Kenji Alma Bruno Clara Dmitri Eva Farah Goran Hana Ivo Jana "
    "Karl Lior Mina Nils Olga Pavel Rosa Sami Tara Umar Vera Wim Xenia Yusuf Zara Arjun Bea Cyril "
    "Dana Emil Freya Gil Hugo Iris Jonas Kira Luca Maya Noor Oren Petra"
)
SPEAKERS = ("Caroline", "Melanie", "Aster", "Jon", "Gina")
MONTHS = _words("January February March April May June July August September October November December")
LEDGER_VERBS = (
    "Opened",
    "Closed",
    "Rotated",
    "Reviewed",
    "Shipped",
    "Asked",
    "Noted",
    "Fixed",
    "Signed",
    "Moved",
)


@dataclass
class Plan:
    """Who and what the vault talks about; drawn once from the seed."""

    people: list[str]
    projects: list[str]
    tags: list[str]
    topics: list[str]  # reference page titles (wikilink targets)
    identifiers: list[str]
    vocab: list[str]
    word_cdf: np.ndarray
    person_cdf: np.ndarray
    project_cdf: np.ndarray


@dataclass
class VaultInfo:
    root: str
    chunks_planned: int
    seed: int
    files: int
    bytes: int
    digest: str
    by_territory: dict[str, dict[str, int]] = field(default_factory=dict)
    generator_version: int = GENERATOR_VERSION

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def _zipf_cdf(n: int, s: float) -> np.ndarray:
    weights = 1.0 / np.arange(1, n + 1, dtype=np.float64) ** s
    cdf = np.cumsum(weights)
    return cdf / cdf[-1]


def _pseudo_word(rng: np.random.Generator) -> str:
    n = int(rng.integers(2, 4))
    return "".join(SYLLABLES[int(i)] for i in rng.integers(0, len(SYLLABLES), n))


def make_plan(chunks: int, seed: int) -> Plan:
    rng = np.random.default_rng([seed, 0])
    n_people = int(min(max(chunks // 100, 40), 6000))
    n_projects = int(min(max(chunks // 800, 12), 1200))
    n_topics = int(max(8, round(chunks * SHARES["reference"] / 9 * 0.5)))
    n_vocab = int(min(max(chunks // 4, 4000), 60000))
    seen: set[str] = set(w.lower() for w in COMMON_WORDS)
    words: list[str] = []
    while len(words) < n_vocab:
        w = _pseudo_word(rng)
        if w not in seen:
            seen.add(w)
            words.append(w)
    # Common words first (frequent), pseudo-words make the long tail.
    vocab = list(COMMON_WORDS) + words
    surnames: list[str] = []
    while len(surnames) < max(n_people // 3, 30):
        w = _pseudo_word(rng).capitalize()
        if w.lower() not in seen:
            seen.add(w.lower())
            surnames.append(w)
    people: list[str] = []
    taken: set[str] = set()
    while len(people) < n_people:
        name = (
            f"{FIRST_NAMES[int(rng.integers(len(FIRST_NAMES)))]} {surnames[int(rng.integers(len(surnames)))]}"
        )
        if name not in taken:
            taken.add(name)
            people.append(name)
    projects: list[str] = []
    while len(projects) < n_projects:
        w = (_pseudo_word(rng) + _pseudo_word(rng)[:3]).capitalize()
        if w.lower() not in seen:
            seen.add(w.lower())
            projects.append(w)
    tags = [f"{w}" for w in rng.choice(words[:2000], size=min(300, len(words)), replace=False).tolist()]
    topic_words = rng.choice(words, size=(n_topics, 2)).tolist()
    topics = list(dict.fromkeys(f"{a.capitalize()} {b}" for a, b in topic_words))
    identifiers = [
        f"{a}_{b}{int(rng.integers(10, 999))}()" if i % 3 == 0 else f"{a}.{b}" if i % 3 == 1 else f"{a}_{b}"
        for i, (a, b) in enumerate(rng.choice(words[:5000], size=(max(n_topics, 50), 2)).tolist())
    ]
    return Plan(
        people=people,
        projects=projects,
        tags=tags,
        topics=topics,
        identifiers=identifiers,
        vocab=vocab,
        word_cdf=_zipf_cdf(len(vocab), 1.05),
        person_cdf=_zipf_cdf(len(people), 0.9),
        project_cdf=_zipf_cdf(len(projects), 0.9),
    )


class _Writer:
    """Draws text from the plan with one generator per file (so files are independent of order)."""

    def __init__(self, plan: Plan, seed: int, key: int) -> None:
        self.plan = plan
        self.rng = np.random.default_rng([seed, 1, key])

    def _pick(self, cdf: np.ndarray, n: int) -> np.ndarray:
        return np.searchsorted(cdf, self.rng.random(n), side="right").clip(0, len(cdf) - 1)

    def person(self) -> str:
        return self.plan.people[int(self._pick(self.plan.person_cdf, 1)[0])]

    def project(self) -> str:
        return self.plan.projects[int(self._pick(self.plan.project_cdf, 1)[0])]

    def choice(self, items):
        return items[int(self.rng.integers(len(items)))]

    def entity(self) -> str:
        roll = self.rng.random()
        if roll < 0.4:
            return self.person()
        if roll < 0.6:
            return self.project()
        if roll < 0.75:
            return "#" + self.choice(self.plan.tags)
        if roll < 0.92:
            return f"[[{self.choice(self.plan.topics)}]]"
        return f"`{self.choice(self.plan.identifiers)}`"

    def sentence(self, lo: int = 6, hi: int = 16, entities: float = 0.5) -> str:
        n = int(self.rng.integers(lo, hi + 1))
        words = [self.plan.vocab[int(i)] for i in self._pick(self.plan.word_cdf, n)]
        k = int(self.rng.poisson(entities))
        for _ in range(min(k, 3)):
            words.insert(int(self.rng.integers(1, len(words) + 1)), self.entity())
        words[0] = words[0].capitalize() if words[0][0] not in "#[`" else words[0]
        return " ".join(words) + "."

    def paragraph(self, sentences: tuple[int, int] = (1, 4), entities: float = 0.5) -> str:
        n = int(self.rng.integers(sentences[0], sentences[1] + 1))
        return " ".join(self.sentence(entities=entities) for _ in range(n))


def _split_counts(total: int) -> dict[str, int]:
    counts = {name: round(total * share) for name, share in SHARES.items()}
    counts["ledger"] += total - sum(counts.values())
    return counts


def _fmt_long(d: date) -> str:
    return f"{MONTHS[d.month - 1]} {d.day}, {d.year}"


def _write(path: Path, text: str, stats: dict[str, int]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    path.write_bytes(data)
    stats["files"] += 1
    stats["bytes"] += len(data)


def _ledger(root: Path, plan: Plan, seed: int, n: int, stats: dict[str, int]) -> None:
    per_day = 12
    days = max(1, math.ceil(n / per_day))
    written = 0
    for d_i in range(days):
        day = END_DATE - timedelta(days=days - 1 - d_i)
        w = _Writer(plan, seed, 1_000_000 + d_i)
        lines = [f"# Ledger — {_fmt_long(day)}", ""]
        count = min(per_day, n - written)
        minutes = sorted(int(m) for m in w.rng.integers(7 * 60, 23 * 60, count))
        for m in minutes:
            text = w.sentence(5, 14, entities=0.8)
            lines.append(f"- {day.isoformat()} {m // 60:02d}:{m % 60:02d} — {w.choice(LEDGER_VERBS)} {text}")
            if w.rng.random() < 0.15:
                lines.append(f"  - {w.sentence(3, 8, entities=0.3)}")
        written += count
        _write(
            root / "aster" / "ledger" / f"{day.year}" / f"{day.isoformat()}.md",
            "\n".join(lines) + "\n",
            stats,
        )


def _journal(root: Path, plan: Plan, seed: int, n: int, stats: dict[str, int]) -> None:
    written, f_i = 0, 0
    day = END_DATE
    while written < n:
        w = _Writer(plan, seed, 2_000_000 + f_i)
        if f_i % 5 == 4:  # a conversation, one chunk per turn (LoCoMo-like)
            turns = int(w.rng.integers(8, 24))
            turns = min(turns, n - written)
            a, b = w.choice(SPEAKERS), w.choice(SPEAKERS[::-1])
            clock = f"{w.rng.integers(1, 12)}:{w.rng.integers(0, 60):02d} pm"
            lines = [f"# {clock} on {day.day} {MONTHS[day.month - 1]}, {day.year}"]
            for t in range(turns):
                lines += ["", f"{a if t % 2 == 0 else b}: {w.paragraph((1, 2), entities=0.4)}"]
            name = f"{day.isoformat()}-session-{f_i % 97:02d}.md"
            written += turns
        else:
            entries = min(int(w.rng.integers(4, 10)), n - written)
            people = sorted({w.person() for _ in range(int(w.rng.integers(0, 3)))})
            lines = ["---", f"date: {day.isoformat()}"]
            if people:
                lines.append(f"people: [{', '.join(people)}]")
            lines += ["---", f"# {day.isoformat()}"]
            for e in range(entries):
                if e and e == entries - 2 and w.rng.random() < 0.5:
                    lines += ["", "## Evening"]
                if e == entries - 1 and w.rng.random() < 0.2:
                    nxt = day + timedelta(days=1)
                    lines += ["", f"{nxt.isoformat()} 07:{int(w.rng.integers(10, 59))} {w.sentence()}"]
                else:
                    lines += ["", w.paragraph((1, 4), entities=0.6)]
            name = f"{day.isoformat()}.md" if f_i % 2 == 0 else f"{day.isoformat()}-notes.md"
            written += entries
        _write(root / "journal" / f"{day.year}" / name, "\n".join(lines) + "\n", stats)
        f_i += 1
        if f_i % 2 == 0:
            day -= timedelta(days=1)


def _sections_file(
    w: _Writer, title: str, n_sections: int, frontmatter: list[str], code: float, dated: date | None = None
) -> str:
    lines = ["---", *frontmatter, "---"] if frontmatter else []
    lines += [f"# {title}", "", w.paragraph((1, 3), entities=0.8)]
    for s in range(n_sections - 1):
        if dated is not None and s % 2 == 0:
            heading = f"{(dated - timedelta(days=3 * s)).isoformat()} — {w.sentence(2, 5, 0)[:-1]}"
        else:
            heading = w.sentence(2, 5, entities=0.2)[:-1]
        lines += ["", f"## {heading}", "", w.paragraph((2, 6), entities=1.0)]
        if w.rng.random() < code:
            ident = w.choice(w.plan.identifiers).rstrip("()").replace(".", "_")
            lines += [
                "",
                "```python",
                f"def {ident}(payload: bytes, key_id: str) -> bytes:",
                f"    # {w.sentence(4, 8, 0)}",
                "",
                "    return token.sign(payload)",
                "```",
            ]
        if w.rng.random() < 0.3:
            other = w.choice(w.plan.topics)
            lines += ["", f"See [{other}](../topics/{_slug(other)}.md) and [[{w.choice(w.plan.topics)}]]."]
    return "\n".join(lines) + "\n"


def _slug(title: str) -> str:
    return "-".join(title.lower().replace("#", "").split())


def _reference(root: Path, plan: Plan, seed: int, n: int, stats: dict[str, int]) -> None:
    written, f_i = 0, 0
    pages: list[tuple[str, str]] = []
    for t in plan.topics:
        pages.append(("topics", t))
    for i, p in enumerate(plan.people):
        if i % 4 == 0:
            pages.append(("people", p))
    for i, p in enumerate(plan.projects):
        if i % 2 == 0:
            pages.append(("projects", p))
    while written < n:
        kind, title = pages[f_i % len(pages)]
        w = _Writer(plan, seed, 3_000_000 + f_i)
        sections = min(int(w.rng.integers(4, 14)), n - written)
        fm = [f"title: {title}"]
        if kind == "people":
            fm.append(f"aliases: [{title.split()[0]} {title.split()[1][0]}.]")
        elif kind == "projects":
            fm.append(f"aliases: [{title[:3].upper()}]")
            fm.append(f"project: {title}")
        fm.append(f"tags: [{', '.join(sorted({w.choice(plan.tags) for _ in range(3)}))}]")
        fm.append(f"people: [{', '.join(sorted({w.person() for _ in range(2)}))}]")
        suffix = f"-{f_i // len(pages)}" if f_i >= len(pages) else ""
        text = _sections_file(w, title, sections, fm, code=0.15)
        _write(root / "reference" / kind / f"{_slug(title)}{suffix}.md", text, stats)
        written += sections
        f_i += 1


def _system(root: Path, plan: Plan, seed: int, n: int, stats: dict[str, int]) -> None:
    written, f_i = 0, 0
    while written < n:
        w = _Writer(plan, seed, 4_000_000 + f_i)
        sections = min(int(w.rng.integers(5, 12)), n - written)
        title = w.sentence(2, 3, 0)[:-1]
        folder = root / "system" / ("covenant" if f_i % 3 == 0 else "")
        _write(folder / f"{_slug(title)}-{f_i}.md", _sections_file(w, title, sections, [], code=0.05), stats)
        written += sections
        f_i += 1


def _notes(root: Path, plan: Plan, seed: int, n: int, stats: dict[str, int]) -> None:
    written, f_i = 0, 0
    while written < n:
        w = _Writer(plan, seed, 5_000_000 + f_i)
        sections = min(int(w.rng.integers(3, 9)), n - written)
        title = f"Notes on {w.project()}"
        when = END_DATE - timedelta(days=int(w.rng.integers(0, 900)))
        fm = [f"title: {title}", f"tags: [{w.choice(plan.tags)}]"]
        _write(
            root / "aster" / "notes" / f"{_slug(title)}-{f_i}.md",
            _sections_file(w, title, sections, fm, code=0.05, dated=when),
            stats,
        )
        written += sections
        f_i += 1


def _literature(root: Path, plan: Plan, seed: int, n: int, stats: dict[str, int]) -> None:
    written, f_i = 0, 0
    while written < n:
        w = _Writer(plan, seed, 6_000_000 + f_i)
        chapters = min(int(w.rng.integers(8, 30)), n - written)
        title = w.sentence(2, 4, 0)[:-1]
        lines = ["---", f"title: {title}", f"author: {w.person()}", "---"]
        for c in range(chapters):
            lines += ["", f"# Chapter {c + 1}: {w.sentence(2, 4, 0)[:-1]}"]
            for _ in range(int(w.rng.integers(1, 3))):
                lines += ["", w.paragraph((2, 4), entities=0.3)]
        _write(root / "literature" / f"{_slug(title)}-{f_i}.md", "\n".join(lines) + "\n", stats)
        written += chapters
        f_i += 1


def _archive(root: Path, plan: Plan, seed: int, n: int, stats: dict[str, int]) -> None:
    per_file = 60
    files = max(1, math.ceil(n / per_file))
    written = 0
    for f_i in range(files):
        w = _Writer(plan, seed, 7_000_000 + f_i)
        year = END_DATE.year - 1 - f_i // 4
        part = f_i % 4
        count = min(per_file, n - written)
        lines = [f"# Archive {year} (part {part + 1})"]
        for b in range(count):
            month = 1 + (part * 3 + b * 3 // max(count, 1)) % 12
            day = 1 + b % 28
            if b % 5 == 0:
                lines += ["", f"## {MONTHS[month - 1]} {year}"]
            lines += ["", f"{year}-{month:02d}-{day:02d}: {w.paragraph((1, 3), entities=0.6)}", "", "---"]
        written += count
        _write(root / "archive" / f"{year}-part{part + 1}.md", "\n".join(lines) + "\n", stats)


WRITERS = {
    "ledger": _ledger,
    "journal": _journal,
    "reference": _reference,
    "system": _system,
    "notes": _notes,
    "literature": _literature,
    "archive": _archive,
}


def tree_digest(root: Path) -> str:
    """sha256 over every file's relative path and bytes, in sorted order."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*.md") if ".memsearch" not in p.parts):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def generate(root: Path, chunks: int, seed: int = 1) -> VaultInfo:
    """Write a synthetic vault of about ``chunks`` chunks into ``root`` (which must be empty or absent)."""
    root = Path(root)
    if root.exists() and any(root.iterdir()):
        raise FileExistsError(f"{root} is not empty; generate into a fresh folder")
    root.mkdir(parents=True, exist_ok=True)
    plan = make_plan(chunks, seed)
    by_territory: dict[str, dict[str, int]] = {}
    for name, n in _split_counts(chunks).items():
        stats = {"files": 0, "bytes": 0, "chunks_planned": n}
        WRITERS[name](root, plan, seed, n, stats)
        by_territory[name] = stats
    (root / "README.md").write_text(
        f"# Synthetic vault\n\nGenerated by memsearch eval/synth.py (version {GENERATOR_VERSION},"
        f" seed {seed}, about {chunks} chunks). Not real memories.\n"
    )
    return VaultInfo(
        root=str(root),
        chunks_planned=chunks,
        seed=seed,
        files=sum(s["files"] for s in by_territory.values()) + 1,
        bytes=sum(s["bytes"] for s in by_territory.values()),
        digest=tree_digest(root),
        by_territory=by_territory,
    )


# -- queries ---------------------------------------------------------------------------------------


def make_queries(chunks: int, seed: int = 1, n: int = 200) -> list[dict]:
    """A fixed mix of queries an agent asks, as ``--batch`` lines (``id``, ``query``, ``now``, filters).

    Kinds, in rotation: keyword (a few words of the vault's vocabulary), entity (a person or project
    by name), temporal (a day or a month the vault has entries for, or "last week"), identifier (a code
    name), natural (a question mixing the others), and filtered (territory, fact type or since).
    """
    plan = make_plan(chunks, seed)
    rng = np.random.default_rng([seed, 2])
    n_vocab = len(plan.vocab)
    ledger_days = max(1, math.ceil(_split_counts(chunks)["ledger"] / 12))
    out: list[dict] = []

    def word() -> str:
        # Mid-frequency words: neither stopword-like nor one-off.
        return plan.vocab[int(rng.integers(len(COMMON_WORDS), min(n_vocab, len(COMMON_WORDS) + 3000)))]

    def person() -> str:
        return plan.people[int(rng.integers(min(len(plan.people), 400)))]

    def project() -> str:
        return plan.projects[int(rng.integers(min(len(plan.projects), 200)))]

    def day() -> date:
        return END_DATE - timedelta(days=int(rng.integers(0, ledger_days)))

    kinds = ("keyword", "entity", "temporal", "identifier", "natural", "filtered")
    for i in range(n):
        kind = kinds[i % len(kinds)]
        q: dict = {"id": i, "kind": kind, "now": NOW.isoformat()}
        if kind == "keyword":
            q["query"] = " ".join(word() for _ in range(int(rng.integers(2, 5))))
        elif kind == "entity":
            q["query"] = f"what did {person()} say about {project()}"
        elif kind == "temporal":
            d = day()
            q["query"] = (
                f"what happened on {_fmt_long(d)}"
                if i % 3
                else f"{word()} in {MONTHS[d.month - 1]} {d.year}"
                if i % 2
                else f"{word()} last week"
            )
        elif kind == "identifier":
            q["query"] = plan.identifiers[int(rng.integers(len(plan.identifiers)))].rstrip("()")
        elif kind == "natural":
            q["query"] = f"why did {person()} move {project()} off {word()} {word()}"
        else:
            q["query"] = f"{word()} {word()} {project()}"
            pick = (i // len(kinds)) % 3
            if pick == 0:
                q["territory"] = "journal/"
            elif pick == 1:
                q["fact_type"] = "world"
            else:
                q["since"] = (END_DATE - timedelta(days=60)).isoformat()
        out.append(q)
    return out


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="Write a synthetic memsearch vault.")
    parser.add_argument("root", type=Path)
    parser.add_argument("--chunks", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--queries", type=Path, help="also write this many queries as JSONL here")
    args = parser.parse_args(argv)
    info = generate(args.root, args.chunks, args.seed)
    if args.queries:
        with open(args.queries, "w") as fh:
            for q in make_queries(args.chunks, args.seed):
                fh.write(json.dumps(q) + "\n")
    print(json.dumps(info.to_dict(), indent=1))
    return 0


if __name__ == "__main__":
    os.umask(0o077)
    raise SystemExit(main())
