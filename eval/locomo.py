"""LoCoMo-format conversational memory: each conversation becomes a journal vault, each QA a query.

A conversation's sessions are written as ``journal/<YYYY-MM-DD>-session-<NN>.md``: a heading with the
session's date as written, a blank line, then one paragraph (one line) per turn, ``Speaker: text``.
Each turn's line is recorded as the file is written; dia_ids never enter the text, so the engine cannot
match on them. A question is judged at the granularity the engine returns (``chunks=True``):

- any@k: an evidence turn's line lies inside the line range of one of the top-k results;
- any@300w: an evidence turn's line is read within the first 300 words, reading the ranked results in
  order, each from its start line to its end line (a line started before the limit counts);
- words@10: how many words the top-10 results hold, the reading cost behind any@10.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import harness
from harness import Backend, IndexStats, Latency, VaultReader, log, run_search, strategies_for
from ir_metrics import READ_BUDGET_WORDS, any_within_words, first_hit_rank, mean, words_in_spans

DATE_FORMAT = "%I:%M %p on %d %B, %Y"
#: Fallbacks, in case held-out data writes its dates a little differently.
DATE_FORMATS = (DATE_FORMAT, "%I:%M%p on %d %B, %Y", "%d %B, %Y", "%d %B %Y", "%Y-%m-%d %H:%M", "%Y-%m-%d")
HEADLINE_CATEGORIES = (1, 2, 3, 4)
ADVERSARIAL_CATEGORY = 5
CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
#: Results asked for per query: enough to read 300 words of short turns, and to score any@5 / any@10.
SEARCH_K = 50

_SESSION_KEY = re.compile(r"^session_(\d+)$")
_EVIDENCE_ID = re.compile(r"D:?(\d+):(\d+)")
_PHOTO_PREFIX = re.compile(r"^(a|an)\s+(photo|photograph|photography|picture|image)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Turn:
    dia_id: str
    speaker: str
    text: str  # one line: internal whitespace collapsed, photo caption appended


@dataclass(frozen=True)
class Session:
    number: int
    date_time: str | None  # as written in the data
    date: datetime | None  # parsed, naive
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Question:
    qid: str
    question: str
    category: int
    evidence: tuple[str, ...]  # normalised ids that point at a turn
    dropped: tuple[str, ...] = ()  # normalised ids that point at no turn


@dataclass
class Conversation:
    sample_id: str
    sessions: tuple[Session, ...]
    questions: list[Question] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)  # why questions were left out

    @property
    def now(self) -> datetime | None:
        """The query time: the date of the last session that has turns (timezone-aware, UTC)."""
        for session in reversed(self.sessions):
            if session.date is not None:
                return session.date.replace(tzinfo=UTC)
        return None


@dataclass(frozen=True)
class RenderedVault:
    files: dict[str, str]  # vault-relative posix path -> text
    turn_lines: dict[str, tuple[str, int]]  # dia_id -> (path, 1-based line)


# ----------------------------------------------------------------------------------------------- loading


def parse_date(value: str | None) -> datetime | None:
    if not value or not isinstance(value, str):
        return None
    text = " ".join(value.split())
    for fmt in DATE_FORMATS:
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    return None


def normalise_evidence(raw: Any) -> list[str]:
    """Evidence ids as ``D<session>:<turn>``, in order, deduplicated.

    Handles the malformed forms of the README (``"D8:6; D9:17"``, ``"D:11:26"``, ``"D30:05"``, ``"D"``).
    """
    if raw is None:
        return []
    items = [raw] if isinstance(raw, str) else list(raw)
    out: list[str] = []
    for item in items:
        for s, t in _EVIDENCE_ID.findall(str(item)):
            dia = f"D{int(s)}:{int(t)}"
            if dia not in out:
                out.append(dia)
    return out


def one_line(text: Any) -> str:
    return " ".join(str(text or "").split())


def turn_text(turn: Mapping[str, Any]) -> str:
    """The utterance on one line, with an image turn's caption appended as `` [shares a photo of ...]``."""
    text = one_line(turn.get("text"))
    caption = one_line(turn.get("blip_caption"))
    if caption:
        shared = caption if _PHOTO_PREFIX.match(caption) else f"a photo of {caption}"
        text = f"{text} [shares {shared}]" if text else f"[shares {shared}]"
    return text


def parse_conversation(item: Mapping[str, Any], index: int) -> Conversation:
    sample_id = one_line(item.get("sample_id")) or f"conv-{index + 1}"
    conv = item.get("conversation") or {}
    numbers = sorted(
        int(m.group(1))
        for key, value in conv.items()
        if (m := _SESSION_KEY.match(key)) and isinstance(value, list)
    )
    sessions = []
    for n in numbers:
        turns = []
        for i, raw in enumerate(conv[f"session_{n}"], start=1):
            if not isinstance(raw, Mapping):
                continue
            ids = normalise_evidence(raw.get("dia_id"))
            dia_id = ids[0] if ids else f"D{n}:{i}"
            turns.append(Turn(dia_id, one_line(raw.get("speaker")) or "Unknown", turn_text(raw)))
        date_time = conv.get(f"session_{n}_date_time")
        date_time = one_line(date_time) if isinstance(date_time, str) and date_time.strip() else None
        sessions.append(Session(n, date_time, parse_date(date_time), tuple(turns)))
    result = Conversation(sample_id, tuple(s for s in sessions if s.turns))
    known = {t.dia_id for s in result.sessions for t in s.turns}
    skipped = {"no_evidence": 0, "evidence_points_at_no_turn": 0}
    for qi, qa in enumerate(item.get("qa") or []):
        if not isinstance(qa, Mapping) or not one_line(qa.get("question")):
            continue
        try:
            category = int(qa.get("category"))
        except (TypeError, ValueError):
            category = 0
        ids = normalise_evidence(qa.get("evidence"))
        kept = tuple(d for d in ids if d in known)
        dropped = tuple(d for d in ids if d not in known)
        if not ids:
            skipped["no_evidence"] += 1
            continue
        if not kept:
            skipped["evidence_points_at_no_turn"] += 1
            continue
        result.questions.append(
            Question(f"{sample_id}#{qi}", one_line(qa["question"]), category, kept, dropped)
        )
    result.skipped = skipped
    return result


def resolve_data_path(path: Path) -> Path:
    """The JSON file itself, or the only ``*.json`` in a folder."""
    if path.is_dir():
        found = sorted(path.glob("*.json"))
        if len(found) != 1:
            raise SystemExit(
                f"{path}: expected exactly one .json file, found {len(found)}; pass the file itself"
            )
        return found[0]
    if not path.is_file():
        raise SystemExit(f"{path}: no such file; pass --data PATH to a LoCoMo-format JSON file")
    return path


def load(path: Path) -> list[Conversation]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(data, Mapping):  # a single conversation
        data = [data]
    convs = [parse_conversation(item, i) for i, item in enumerate(data) if isinstance(item, Mapping)]
    seen: set[str] = set()
    for conv in convs:  # folder names must be unique even if sample ids are not
        base, n = conv.sample_id, 1
        while conv.sample_id in seen:
            n += 1
            conv.sample_id = f"{base}-{n}"
        seen.add(conv.sample_id)
    return convs


# ----------------------------------------------------------------------------------------------- vaults


def session_path(session: Session) -> str:
    if session.date is not None:
        return f"journal/{session.date:%Y-%m-%d}-session-{session.number:02d}.md"
    return f"journal/session-{session.number:02d}.md"


def render_conversation(conv: Conversation) -> RenderedVault:
    """The conversation's vault, and the line each turn was written on."""
    files: dict[str, str] = {}
    turn_lines: dict[str, tuple[str, int]] = {}
    for session in conv.sessions:
        path = session_path(session)
        lines = [f"# {session.date_time or f'Session {session.number}'}"]
        for turn in session.turns:
            lines.append("")
            lines.append(f"{turn.speaker}: {turn.text}")
            turn_lines.setdefault(turn.dia_id, (path, len(lines)))
        files[path] = "\n".join(lines) + "\n"
    return RenderedVault(files, turn_lines)


def safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", name).strip(".") or "conversation"


# ------------------------------------------------------------------------------------------- evaluation


@dataclass
class QuestionOutcome:
    qid: str
    category: int
    run: str
    first_rank: int | None
    hit_at_5: bool
    hit_at_10: bool
    hit_at_300w: bool
    words_at_10: int
    results: int


def judge(
    question: Question,
    run: str,
    spans: Sequence[tuple[str, int, int]],
    turn_lines: Mapping[str, tuple[str, int]],
    read_lines: Any,
) -> QuestionOutcome:
    targets = [turn_lines[d] for d in question.evidence]
    rank = first_hit_rank(spans, targets)
    return QuestionOutcome(
        qid=question.qid,
        category=question.category,
        run=run,
        first_rank=rank,
        hit_at_5=rank is not None and rank <= 5,
        hit_at_10=rank is not None and rank <= 10,
        hit_at_300w=any_within_words(spans, targets, read_lines, READ_BUDGET_WORDS),
        words_at_10=words_in_spans(spans[:10], read_lines),
        results=len(spans),
    )


def aggregate(outcomes: Sequence[QuestionOutcome]) -> dict[str, Any]:
    def rate(flags: list[bool]) -> float | None:
        return harness.summarise_rates(flags)

    return {
        "n": len(outcomes),
        "any@5": rate([o.hit_at_5 for o in outcomes]),
        "any@10": rate([o.hit_at_10 for o in outcomes]),
        "any@300w": rate([o.hit_at_300w for o in outcomes]),
        "words@10": None if not outcomes else round(mean([o.words_at_10 for o in outcomes]) or 0.0, 1),
        "words_per_result@10": (
            None
            if not outcomes
            else round(
                sum(o.words_at_10 for o in outcomes) / max(sum(min(o.results, 10) for o in outcomes), 1), 1
            )
        ),
    }


def evaluate(
    convs: Sequence[Conversation],
    backend: Backend,
    settings: Any,
    work_dir: Path,
    runs: Sequence[str],
    k: int = SEARCH_K,
    reindex: bool = False,
) -> dict[str, Any]:
    """Index each conversation's vault with the engine and judge its questions under every run."""
    outcomes: list[QuestionOutcome] = []
    latency = {run: Latency() for run in runs}
    index_total = IndexStats()
    per_conversation = []
    index_root = work_dir / f"index-{harness.index_fingerprint(settings)}"
    for conv in convs:
        if not conv.questions:
            continue
        rendered = render_conversation(conv)
        name = safe_name(conv.sample_id)
        vault = work_dir / "vaults" / name
        harness.sync_vault(vault, rendered.files, managed_dirs=["journal"])
        log(f"[locomo] {conv.sample_id}: indexing {len(rendered.files)} sessions ...")
        index_home = index_root / name
        stats = harness.ensure_index(
            backend, vault, rendered.files, settings, index_home, work_dir / "embeddings" / name, reindex
        )
        index_total.add(stats)
        log(
            f"[locomo] {conv.sample_id}: {stats.chunks} chunks, "
            + ("index reused" if stats.reused else f"{stats.embedded} embedded, {stats.wall_seconds:.1f}s")
            + f"; {len(conv.questions)} questions x {len(runs)} runs"
        )
        engine = backend.open(vault, settings, index_home)
        read_lines = VaultReader(vault)
        now = conv.now
        for run in runs:
            for question in conv.questions:
                searched = run_search(
                    engine, question.question, k=k, chunks=True, now=now, strategies=strategies_for(run)
                )
                latency[run].add(searched)
                outcomes.append(judge(question, run, searched.spans, rendered.turn_lines, read_lines))
        close = getattr(engine, "close", None)
        if callable(close):
            close()
        per_conversation.append(
            {
                "sample_id": conv.sample_id,
                "sessions": len(conv.sessions),
                "turns": sum(len(s.turns) for s in conv.sessions),
                "questions": len(conv.questions),
                "now": now.isoformat() if now else None,
                "index": vars(stats),
            }
        )
    return summarise(outcomes, latency, runs, index_total, per_conversation)


def summarise(
    outcomes: Sequence[QuestionOutcome],
    latency: Mapping[str, Latency],
    runs: Sequence[str],
    index_total: IndexStats,
    per_conversation: list[dict[str, Any]],
) -> dict[str, Any]:
    by_run: dict[str, Any] = {}
    for run in runs:
        mine = [o for o in outcomes if o.run == run]
        categories = sorted({o.category for o in mine})
        by_run[run] = {
            "overall": aggregate([o for o in mine if o.category in HEADLINE_CATEGORIES]),
            "by_category": {
                str(c): {
                    "name": CATEGORY_NAMES.get(c, "other"),
                    **aggregate([o for o in mine if o.category == c]),
                }
                for c in categories
            },
            "latency": latency[run].summary(),
        }
    return {
        "runs": by_run,
        "index": vars(index_total),
        "conversations": per_conversation,
        "per_question": [vars(o) for o in outcomes],
    }


def report(summary: Mapping[str, Any]) -> str:
    runs = list(summary["runs"])
    head = [
        "run",
        "n",
        "any@5",
        "any@10",
        "any@300w",
        "words@10",
        "ms p50/p95 excl. embed",
        "ms p50/p95 incl.",
    ]
    rows = []
    for run in runs:
        o = summary["runs"][run]["overall"]
        lat = summary["runs"][run]["latency"]
        rows.append(
            [
                run,
                o["n"],
                o["any@5"],
                o["any@10"],
                o["any@300w"],
                harness.fmt(o["words@10"], 1),
                harness.fmt_ms(lat, "excl_embed_ms"),
                harness.fmt_ms(lat, "incl_embed_ms"),
            ]
        )
    out = ["### LoCoMo, categories 1-4 (chunks=True)", "", harness.markdown_table(head, rows), ""]
    categories = sorted({int(c) for run in runs for c in summary["runs"][run]["by_category"]})
    if categories:
        crow = []
        for c in categories:
            row: list[Any] = [f"{c} {CATEGORY_NAMES.get(c, 'other')}"]
            for run in runs:
                cell = summary["runs"][run]["by_category"].get(str(c))
                row.append(
                    "-" if not cell else f"{harness.fmt(cell['any@10'])} / {harness.fmt(cell['any@300w'])}"
                )
                if run == runs[0]:
                    row.insert(1, cell["n"] if cell else 0)
            crow.append(row)
        out += [
            "### any@10 / any@300w by category",
            "",
            harness.markdown_table(["category", "n", *runs], crow),
            "",
        ]
    out.append(harness.index_line(summary["index"], len(summary["conversations"])))
    out += harness.health_lines(summary["runs"])
    return "\n".join(out)


# ------------------------------------------------------------------------------------------------- CLI


def select(
    convs: Sequence[Conversation],
    limit_conversations: int | None,
    limit_questions: int | None,
    adversarial: bool,
) -> list[Conversation]:
    """The first N conversations, then the first M questions in file order across them (in total)."""
    chosen = list(convs[:limit_conversations] if limit_conversations else convs)
    budget = limit_questions
    for conv in chosen:
        qs = [q for q in conv.questions if adversarial or q.category != ADVERSARIAL_CATEGORY]
        if budget is not None:
            qs = qs[: max(budget, 0)]
            budget -= len(qs)
        conv.questions = qs
    return [c for c in chosen if c.questions]


def main(args: Any, backend: Backend | None = None) -> dict[str, Any]:
    data_path = resolve_data_path(Path(args.data))
    content_hash = harness.hash_files([data_path])
    settings = harness.apply_overrides(harness.default_settings(), harness.parse_overrides(args.set or []))
    convs = load(data_path)
    skipped: dict[str, int] = {}
    for conv in convs:
        for key, value in conv.skipped.items():
            skipped[key] = skipped.get(key, 0) + value
    convs = select(convs, args.limit_conversations, args.limit_questions, not args.no_adversarial)
    log(
        f"[locomo] {data_path}: {len(convs)} conversations, {sum(len(c.questions) for c in convs)} questions "
        f"selected; skipped {skipped}"
    )
    work_dir = harness.dataset_cache_dir(Path(args.cache_dir), "locomo", data_path, content_hash)
    meta = harness.run_metadata("locomo", data_path, content_hash, settings, args)
    summary = evaluate(
        convs,
        backend or harness.MemsearchBackend(search_backend=getattr(args, "backend", None)),
        settings,
        work_dir,
        args.strategies,
        args.k,
        args.reindex,
    )
    summary["skipped_questions"] = skipped
    if not args.per_query:
        summary.pop("per_question")
    payload = {"meta": meta, **summary}
    print(report(summary))
    path = harness.write_results("locomo", payload, Path(args.out))
    print(f"\nWrote {path}")
    return payload
