"""Check every question against the vault and write queries.jsonl: python build_queries.py OUT_DIR

Reads OUT_DIR/vault (written by make_vault.py) and the questions in _questions.py. Writes
OUT_DIR/queries.jsonl only if every check passes; otherwise prints each failing check and exits 1.
Dangling links are reported but do not fail the build. Standard library only. Written for
memsearch; CC0 1.0.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.dont_write_bytecode = True  # keep the source folder clean
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import itertools

import _common
import _questions

CLASSES = ("exact", "paraphrase", "entity_chain", "alias", "temporal", "update", "territory", "none")
CLASS_RANGE = (20, 26)
TOTAL_RANGE = (160, 200)
FILES_RANGE = (150, 200)
TERRITORIES = ("system/", "system/covenant/", "reference/", "journal/", "aster/ledger/", "aster/",
               "literature/", "archive/")

STOPWORDS = set(["a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are", "as", "at", "be", "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do", "does", "doing", "down", "during", "each", "few", "for", "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his", "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "me", "more", "most", "my", "myself", "no", "nor", "not", "now", "of", "off", "on", "once", "only", "or", "other", "our", "ours", "ourselves", "out", "over", "own", "same", "she", "should", "so", "some", "such", "than", "that", "the", "their", "theirs", "them", "themselves", "then", "there", "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "very", "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your", "yours", "yourself", "yourselves", "i'm", "it's", "what's", "who's", "where's", "when's", "don't", "doesn't", "didn't", "can't", "won't", "isn't", "they're", "we're", "let's", "ok", "also", "get", "got", "still", "ever", "much", "many", "every", "really", "s", "t", "d", "ll", "re", "ve", "m"])


def stem(w: str) -> str:
    for suf in ("ingly", "edly", "ing", "ies", "ied", "ed", "ly", "es", "s"):
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: -len(suf)] + ("y" if suf in ("ies", "ied") else "")
            break
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    return w


def content_words(text: str) -> set[str]:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return {stem(w) for w in words if len(w) > 1 and w not in STOPWORDS}


def whole_word(term: str, text: str, case: bool = False) -> bool:
    flags = 0 if case else re.IGNORECASE
    return re.search(r"(?<![A-Za-z0-9])" + re.escape(term) + r"(?![A-Za-z0-9])", text, flags) is not None


def has(term: str, text: str) -> bool:
    return term.lower() in text.lower()


def in_range(entry: dict, lo: dt.date, hi: dt.date) -> bool:
    d = entry["date"]
    if isinstance(d, tuple):
        y, m = d
        first = dt.date(y, m, 1)
        last = dt.date(y + (m == 12), m % 12 + 1, 1) - dt.timedelta(days=1)
        return lo <= first and last <= hi
    return lo <= d <= hi


def topic_ok(entry: dict, words: list[str] | None) -> bool:
    return not words or any(has(w, entry["text"]) for w in words)


def section_around(text: str, line_no: int) -> tuple[int, int]:
    """Heading-bounded section (1-based inclusive) that holds line_no."""
    lines = text.split("\n")
    b0, b1 = _common.body_range(text)
    start = b0
    for i in range(line_no, b0 - 1, -1):
        if _common.HEADING.match(lines[i - 1]):
            start = i
            break
    end = b1
    for i in range(line_no + 1, b1 + 1):
        if _common.HEADING.match(lines[i - 1]):
            end = i - 1
            break
    while end > start and (not lines[end - 1].strip() or lines[end - 1].strip() == "---"):
        end -= 1
    return start, end


def find_line(text: str, needle: str) -> int | None:
    lines = text.split("\n")
    _, body_start = _common.split_frontmatter(text)
    order = list(range(body_start, len(lines))) + list(range(0, body_start))
    for i in order:
        if needle.lower() in lines[i].lower():
            return i + 1
    return None


def anchors_for(q: dict, path: str) -> list[str]:
    if "anchors" in q and path in q["anchors"]:
        return [q["anchors"][path]]
    out = []
    if q.get("answer"):
        out.append(q["answer"])
    key = q.get("key")
    if q["cls"] in ("exact", "update"):
        out += key if isinstance(key, list) else [key]
    if q["cls"] == "alias":
        out += [q["canonical"], q["key"]]
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python build_queries.py OUT_DIR", file=sys.stderr)
        return 2
    out_dir = Path(argv[1])
    vault_dir = out_dir / "vault"
    if not vault_dir.is_dir():
        print(f"no vault at {vault_dir}; run make_vault.py {out_dir} first", file=sys.stderr)
        return 2
    vault = _common.read_vault(vault_dir)
    paths = set(vault)
    errors: list[str] = []

    def fail(msg: str) -> None:
        errors.append(msg)

    # ---- vault shape
    if not FILES_RANGE[0] <= len(vault) <= FILES_RANGE[1]:
        fail(f"vault has {len(vault)} files, want {FILES_RANGE}")
    for t in TERRITORIES:
        direct = [p for p in paths if p.startswith(t)]
        if t == "aster/":
            direct = [p for p in direct if not p.startswith("aster/ledger/")]
        if t == "system/":
            direct = [p for p in direct if not p.startswith("system/covenant/")]
        if not direct:
            fail(f"territory {t} is empty")

    # ---- links
    links: dict[str, set[str]] = {}
    dangling = []
    for rel, text in vault.items():
        found, bad = _common.link_targets(rel, text, paths)
        links[rel] = found
        dangling += [f"{rel}: {b}" for b in bad]

    entries = {rel: _common.dated_entries(rel, text) for rel, text in vault.items()}
    dates = {rel: _common.note_date(rel, text) for rel, text in vault.items()}

    # ---- questions
    qs = _questions.Q
    ids = Counter(q["id"] for q in qs)
    for i, n in ids.items():
        if n > 1:
            fail(f"duplicate id {i}")
    counts = Counter(q["cls"] for q in qs)
    for c in CLASSES:
        if not CLASS_RANGE[0] <= counts.get(c, 0) <= CLASS_RANGE[1]:
            fail(f"class {c} has {counts.get(c, 0)} questions, want {CLASS_RANGE}")
    for c in counts:
        if c not in CLASSES:
            fail(f"unknown class {c}")
    if not TOTAL_RANGE[0] <= len(qs) <= TOTAL_RANGE[1]:
        fail(f"{len(qs)} questions, want {TOTAL_RANGE}")

    records = []
    for q in qs:
        qid, cls, gold = q["id"], q["cls"], q.get("gold", [])
        for p in gold + q.get("old", []) + q.get("also", []) + q.get("chain", []) + (
                [q["defined_in"]] if "defined_in" in q else []):
            if p not in paths:
                fail(f"{qid}: path {p} not in vault")
        if any(p not in paths for p in gold):
            continue
        if cls == "none":
            if gold:
                fail(f"{qid}: none question with gold")
        elif not gold:
            fail(f"{qid}: empty gold")
        if len(set(gold)) != len(gold):
            fail(f"{qid}: duplicate gold")
        if q.get("answer"):
            for p in gold:
                if not has(q["answer"], vault[p]):
                    fail(f"{qid}: answer {q['answer']!r} not in {p}")
        for p, a in q.get("anchors", {}).items():
            if p not in gold:
                fail(f"{qid}: anchor for non-gold {p}")
            elif not has(a, vault[p]):
                fail(f"{qid}: anchor {a!r} not in {p}")

        if cls == "exact":
            holders = sorted(p for p, t in vault.items() if has(q["key"], t))
            if holders != sorted(gold):
                fail(f"{qid}: key {q['key']!r} occurs in {holders}, gold {sorted(gold)}")
        elif cls == "paraphrase":
            qw = content_words(q["query"])
            for p in gold:
                shared = qw & content_words(vault[p])
                if len(shared) > 1:
                    fail(f"{qid}: shares {sorted(shared)} with {p}")
        elif cls == "entity_chain":
            chain = q["chain"]
            if not 2 <= len(chain) <= 3:
                fail(f"{qid}: chain of {len(chain)} notes, want 1-2 hops")
            if chain[-1] not in gold:
                fail(f"{qid}: chain ends at {chain[-1]}, not gold")
            for a, b in itertools.pairwise(chain):
                if a in links and b not in links[a]:
                    fail(f"{qid}: no link {a} -> {b}")
            if chain[0] in vault and not any(whole_word(k, vault[chain[0]]) for k in q["key"]):
                fail(f"{qid}: first note {chain[0]} doesn't name {q['key']}")
            if not any(whole_word(k, q["query"]) for k in q["key"]):
                fail(f"{qid}: query doesn't name the entity")
            for p in gold:
                for k in q["key"]:
                    if whole_word(k, vault[p]):
                        fail(f"{qid}: gold {p} contains entity form {k!r}")
        elif cls == "alias":
            d = vault.get(q["defined_in"], "")
            if not whole_word(q["key"], d, case=True):
                fail(f"{qid}: alias {q['key']!r} not in {q['defined_in']}")
            if not has(q["canonical"], d):
                fail(f"{qid}: canonical {q['canonical']!r} not in {q['defined_in']}")
            if not whole_word(q["key"], q["query"], case=True):
                fail(f"{qid}: query doesn't use alias {q['key']!r}")
            for p in gold:
                if not (has(q["canonical"], vault[p]) or whole_word(q["key"], vault[p], case=True)):
                    fail(f"{qid}: gold {p} names neither alias nor canonical")
            if all(whole_word(q["key"], _common.body_of(vault[p]), case=True) for p in gold):
                fail(f"{qid}: every gold body uses the alias")
        elif cls == "temporal":
            words = q.get("topic_words")
            if "range" in q:
                lo, hi = (dt.date.fromisoformat(x) for x in q["range"])
                want = sorted(p for p, es in entries.items()
                              if any(in_range(e, lo, hi) and topic_ok(e, words) for e in es))
            else:
                mmdd = q["day"]
                hits = {(p, e["date"].year) for p, es in entries.items() for e in es
                        if not isinstance(e["date"], tuple) and e["date"].strftime("%m-%d") == mmdd
                        and topic_ok(e, words)}
                years = {y for _, y in hits}
                if len(years) != 1:
                    fail(f"{qid}: day {mmdd} has entries in years {sorted(years)}")
                want = sorted({p for p, _ in hits})
            if want != sorted(gold):
                fail(f"{qid}: dated-entry set {want} != gold {sorted(gold)}")
        elif cls == "update":
            newest_old = None
            for p in q["old"]:
                if not any(has(k, vault[p]) for k in q["old_key"]):
                    fail(f"{qid}: old note {p} lacks old value {q['old_key']}")
                if any(has(k, vault[p]) for k in q["key"]):
                    fail(f"{qid}: old note {p} contains new value")
                if dates[p] and (newest_old is None or dates[p] > newest_old):
                    newest_old = dates[p]
            for p in gold:
                if not any(has(k, vault[p]) for k in q["key"]):
                    fail(f"{qid}: gold {p} lacks new value {q['key']}")
                if dates[p] and newest_old and not dates[p] > newest_old:
                    fail(f"{qid}: gold {p} ({dates[p]}) not newer than old notes ({newest_old})")
            if not q["old"]:
                fail(f"{qid}: no old notes")
        elif cls == "territory":
            for p in gold:
                if not p.startswith("system/"):
                    fail(f"{qid}: gold {p} outside system/")
            for p in q["also"]:
                if p.startswith("system/"):
                    fail(f"{qid}: also {p} inside system/")
                elif not all(has(k, vault[p]) for k in q["key"]):
                    fail(f"{qid}: also {p} lacks some of {q['key']}")
            if not any(all(has(k, vault[p]) for k in q["key"]) for p in gold):
                fail(f"{qid}: no gold note holds all of {q['key']}")
        elif cls == "none":
            for k in q["key"]:
                for p, t in vault.items():
                    if whole_word(k, t):
                        fail(f"{qid}: absent term {k!r} occurs in {p}")
                        break

        # ---- gold_lines
        gold_lines = {}
        for p in gold:
            text = vault[p]
            if cls == "temporal":
                if "range" in q:
                    lo, hi = (dt.date.fromisoformat(x) for x in q["range"])
                    es = [e for e in entries[p] if in_range(e, lo, hi) and topic_ok(e, q.get("topic_words"))]
                else:
                    es = [e for e in entries[p] if not isinstance(e["date"], tuple)
                          and e["date"].strftime("%m-%d") == q["day"]]
                if es:
                    gold_lines[p] = [min(e["start"] for e in es), max(e["end"] for e in es)]
                continue
            span = None
            for a in anchors_for(q, p):
                ln = find_line(text, a)
                if ln:
                    span = [ln, ln] if p.startswith("aster/ledger/") else list(section_around(text, ln))
                    break
            gold_lines[p] = span or list(_common.body_range(text))

        rec = {"id": qid, "query": q["query"], "class": cls, "now": _questions.NOW, "gold": gold}
        for f in ("key", "chain", "canonical", "defined_in", "range", "day", "topic", "topic_words", "old", "old_key",
                  "also", "answer"):
            if f in q:
                rec[f] = q[f]
        if "topic_words" in q and "topic" not in q:
            fail(f"{qid}: topic_words without topic")
        rec["note"] = q.get("note", "")
        if cls != "none":
            rec["gold_lines"] = gold_lines
        records.append(rec)

    for d in dangling:
        print(f"dangling link: {d}")
    if errors:
        for e in errors:
            print(f"FAIL {e}")
        print(f"{len(errors)} failing checks; queries.jsonl not written")
        return 1
    out = out_dir / "queries.jsonl"
    with out.open("w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    summary = ", ".join(f"{c} {counts[c]}" for c in CLASSES)
    print(f"wrote {len(records)} questions to {out} ({summary}); vault {len(vault)} files; "
          f"{len(dangling)} dangling links")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
