"""Parsing shared by make_vault.py and build_queries.py: frontmatter, links, dated entries, note dates."""

from __future__ import annotations

import calendar
import datetime as dt
import os
import re
from pathlib import Path

ISO = r"(\d{4})-(\d{2})-(\d{2})"
MONTHS = {name: i for i, name in enumerate(calendar.month_name) if name}
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
DATE_HEADING = re.compile(r"^" + ISO + r"\b")
MONTH_HEADING = re.compile(r"^(" + "|".join(MONTHS) + r")\s+(\d{4})$")
DATE_LINE = re.compile(r"^\s*-\s+" + ISO)
FILE_DATE = re.compile(r"^" + ISO + r"\.md$")
WIKILINK = re.compile(r"\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\]")
MDLINK = re.compile(r"\[[^\]]*\]\(([^)\s]+\.md)(?:#[^)]*)?\)")
DEFAULT_DATE = dt.date(2023, 1, 9)
ENTRY_TERRITORIES = ("journal/", "aster/", "archive/")
NO_LINE_ENTRIES = ("system/", "literature/")


def read_vault(root: Path) -> dict[str, str]:
    out = {}
    for path in sorted(root.rglob("*.md")):
        out[path.relative_to(root).as_posix()] = path.read_text(encoding="utf-8")
    return out


def split_frontmatter(text: str) -> tuple[dict[str, str], int]:
    """(frontmatter key -> raw value, 0-based index of the first body line)."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return {}, 0
    fm = {}
    for i in range(1, len(lines)):
        if lines[i].strip() == "---":
            return fm, i + 1
        if ":" in lines[i]:
            k, v = lines[i].split(":", 1)
            fm[k.strip()] = v.strip()
    return {}, 0


def body_of(text: str) -> str:
    _, start = split_frontmatter(text)
    return "\n".join(text.split("\n")[start:])


def body_range(text: str) -> tuple[int, int]:
    """1-based inclusive line range of the body (without trailing blank lines)."""
    lines = text.split("\n")
    _, start = split_frontmatter(text)
    end = len(lines)
    while end > start and not lines[end - 1].strip():
        end -= 1
    return start + 1, max(start + 1, end)


def parse_date(s: str) -> dt.date | None:
    m = re.search(ISO, s or "")
    if not m:
        return None
    try:
        return dt.date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return None


def dated_entries(rel: str, text: str) -> list[dict]:
    """Every dated entry: {kind, date | (year, month), start, end (1-based inclusive), text}."""
    lines = text.split("\n")
    n = len(lines)
    out: list[dict] = []
    name = rel.rsplit("/", 1)[-1]
    in_entry_territory = rel.startswith(ENTRY_TERRITORIES)
    if in_entry_territory:
        m = FILE_DATE.match(name)
        if m:
            b0, b1 = body_range(text)
            out.append({"kind": "file", "date": parse_date(name), "start": b0, "end": b1, "text": text})
        # headings
        heads = []
        for i, line in enumerate(lines):
            h = HEADING.match(line)
            if h:
                heads.append((i, len(h[1]), h[2]))
        for idx, (i, level, title) in enumerate(heads):
            end = n
            for j, lvl2, _ in heads[idx + 1:]:
                if lvl2 <= level:
                    end = j
                    break
            while end > i + 1 and not lines[end - 1].strip():
                end -= 1
            if end > i + 1 and lines[end - 1].strip() == "---":
                end -= 1
                while end > i + 1 and not lines[end - 1].strip():
                    end -= 1
            sec = "\n".join(lines[i:end])
            dm = DATE_HEADING.match(title)
            if dm and not (m and idx == 0 and level == 1):
                d = parse_date(title)
                if d:
                    out.append({"kind": "heading", "date": d, "start": i + 1, "end": end, "text": sec})
                continue
            mm = MONTH_HEADING.match(title)
            if mm:
                out.append({"kind": "month", "date": (int(mm[2]), MONTHS[mm[1]]), "start": i + 1,
                            "end": end, "text": sec})
    if not rel.startswith(NO_LINE_ENTRIES):
        _, body_start = split_frontmatter(text)
        for i in range(body_start, n):
            if DATE_LINE.match(lines[i]):
                d = parse_date(lines[i])
                if d:
                    out.append({"kind": "line", "date": d, "start": i + 1, "end": i + 1, "text": lines[i]})
    return out


def note_date(rel: str, text: str) -> dt.date | None:
    """File name date, then frontmatter updated/date, then the latest dated heading or line."""
    name = rel.rsplit("/", 1)[-1]
    m = FILE_DATE.match(name)
    if m:
        return parse_date(name)
    fm, _ = split_frontmatter(text)
    for key in ("updated", "date"):
        d = parse_date(fm.get(key, ""))
        if d:
            return d
    dates = []
    for line in text.split("\n"):
        h = HEADING.match(line)
        if h and DATE_HEADING.match(h[2]):
            d = parse_date(h[2])
            if d:
                dates.append(d)
        elif DATE_LINE.match(line):
            d = parse_date(line)
            if d:
                dates.append(d)
        elif h and MONTH_HEADING.match(h[2]):
            mm = MONTH_HEADING.match(h[2])
            y, mo = int(mm[2]), MONTHS[mm[1]]
            dates.append(dt.date(y, mo, calendar.monthrange(y, mo)[1]))
    return max(dates) if dates else None


def link_targets(rel: str, text: str, paths: set[str]) -> tuple[set[str], list[str]]:
    """(resolved link targets, dangling link texts) for one note."""
    by_stem: dict[str, list[str]] = {}
    for p in paths:
        by_stem.setdefault(p.rsplit("/", 1)[-1][:-3], []).append(p)
    found, dangling = set(), []
    for m in WIKILINK.finditer(text):
        target = m[1].strip()
        if target.endswith(".md"):
            target = target[:-3]
        if target + ".md" in paths:
            found.add(target + ".md")
        elif target in by_stem and len(by_stem[target]) == 1:
            found.add(by_stem[target][0])
        else:
            dangling.append(f"[[{target}]]")
    base = os.path.dirname(rel)
    for m in MDLINK.finditer(text):
        target = os.path.normpath(os.path.join(base, m[1])).replace(os.sep, "/")
        if target in paths:
            found.add(target)
        else:
            dangling.append(f"({m[1]})")
    return found, dangling
