"""memsearch.dates.local: dates in local notation, in queries and in the vault (issue 17)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memsearch.dates import find_leading_datetime, parse_datetime, query_time_window, strip_time_phrase

NOW = datetime(2025, 3, 20, 12, tzinfo=UTC)  # a Thursday


@pytest.mark.parametrize(
    ("query", "start", "end", "phrase", "yearly"),
    [
        ("2025年3月1日我们讨论了什么", "2025-03-01", "2025-03-02", "2025年3月1日", False),
        ("令和7年3月1日の会議", "2025-03-01", "2025-03-02", "令和7年3月1日", False),
        ("2025년 3월 1일 회의", "2025-03-01", "2025-03-02", "2025년 3월 1일", False),
        ("was war am 1. März 2025", "2025-03-01", "2025-03-02", "1. März 2025", False),
        ("26 de marzo de 2025 reunión", "2025-03-26", "2025-03-27", "26 de marzo de 2025", False),
        ("что было 26 марта 2025 года", "2025-03-26", "2025-03-27", "26 марта 2025 года", False),
        # Without a year: every year's day, its latest not after now.
        ("3月26日的会议", "2024-03-26", "2024-03-27", "3月26日", True),
        ("3월 26일 회의", "2024-03-26", "2024-03-27", "3월 26일", True),
        ("Treffen am 26. März", "2024-03-26", "2024-03-27", "26. März", True),
        ("qué pasó el 26 de marzo", "2024-03-26", "2024-03-27", "26 de marzo", True),
        ("что было 26 марта", "2024-03-26", "2024-03-27", "26 марта", True),
        # Months and years.
        ("2025年3月的预算", "2025-03-01", "2025-04-01", "2025年3月", False),
        ("Budget März 2025", "2025-03-01", "2025-04-01", "März 2025", False),
        ("2024年的计划", "2024-01-01", "2025-01-01", "2024年", False),
        # Relative words.
        ("我昨天吃了什么", "2025-03-19", "2025-03-20", "昨天", False),
        ("昨日の会議", "2025-03-19", "2025-03-20", "昨日", False),
        ("어제 회의", "2025-03-19", "2025-03-20", "어제", False),
        ("was habe ich gestern gemacht", "2025-03-19", "2025-03-20", "gestern", False),
        ("先週の会議", "2025-03-10", "2025-03-17", "先週", False),
        ("上周的会议", "2025-03-10", "2025-03-17", "上周", False),
        ("지난주에 뭐 했지", "2025-03-10", "2025-03-17", "지난주", False),
        ("Notizen von letzter Woche", "2025-03-10", "2025-03-17", "letzter Woche", False),
        ("la semana pasada", "2025-03-10", "2025-03-17", "la semana pasada", False),
        ("上个月的账单", "2025-02-01", "2025-03-01", "上个月", False),
        ("去年的旅行", "2024-01-01", "2025-01-01", "去年", False),
        # Chinese numerals, a month alone (every year's, as "in March"), and 上个星期.
        ("2025年三月一日的会议", "2025-03-01", "2025-03-02", "2025年三月一日", False),
        ("二〇二五年三月一日", "2025-03-01", "2025-03-02", "二〇二五年三月一日", False),
        ("令和七年三月一日の会議", "2025-03-01", "2025-03-02", "令和七年三月一日", False),
        ("十二月二十六日的晚饭", "2024-12-26", "2024-12-27", "十二月二十六日", True),
        ("2025年三月的预算", "2025-03-01", "2025-04-01", "2025年三月", False),
        ("2025年3月一起去旅行", "2025-03-01", "2025-04-01", "2025年3月", False),  # 一起: together
        ("3月的预算", "2025-03-01", "2025-04-01", "3月", True),
        ("三月的预算", "2025-03-01", "2025-04-01", "三月", True),
        ("十二月的账单", "2024-12-01", "2025-01-01", "十二月", True),
        ("10月份的数据", "2024-10-01", "2024-11-01", "10月份", True),
        ("3월 회의", "2025-03-01", "2025-04-01", "3월", True),
        ("去年三月的旅行", "2024-03-01", "2024-04-01", "去年三月", False),
        ("上个星期的会议", "2025-03-10", "2025-03-17", "上个星期", False),
    ],
)
def test_a_date_in_local_notation_makes_the_window(query, start, end, phrase, yearly):
    window = query_time_window(query, NOW)
    assert window is not None, query
    assert (window.start.date().isoformat(), window.end.date().isoformat()) == (start, end)
    assert window.text == phrase and window.yearly is yearly
    assert phrase not in strip_time_phrase(query, window)  # a date is no keyword


@pytest.mark.parametrize(
    "query",
    [
        "the 3 mai tai recipe",  # a German month needs the dot of its day
        "2 marzo",  # a Spanish one needs "de"
        "heutelang",  # a word edge
        "日本の首都",  # 日 alone is no date
        "3个月的数据",  # a count of months, not a month
        "3ヶ月かかった",
        "3개월 동안",
        "二十三月",  # no such month
        # The future, as in English ("tomorrow", "next week"): the engine looks back only.
        "明天的会议",
        "来週の会議",
        "下周的计划",
    ],
)
def test_words_that_only_look_like_local_dates_are_none(query):
    assert query_time_window(query, NOW) is None


@pytest.mark.parametrize(
    ("line", "when"),
    [
        ("## 2025年3月1日", (2025, 3, 1)),
        ("# 2025年3月1日（土）晴れ", (2025, 3, 1)),
        ("2025年3月1日今天开会", (2025, 3, 1)),  # unspaced text right after the day
        ("- 2025년 3월 1일: 회의", (2025, 3, 1)),
        ("## 26. März 2025", (2025, 3, 26)),  # not list item 26
        ("## 26 марта 2025 г.", (2025, 3, 26)),
        ("26 de marzo de 2025", (2025, 3, 26)),
        ("## 2025年3月", (2025, 3, 1)),
        ("# 2025年三月一日", (2025, 3, 1)),
        ("## 二〇二五年十二月二十六日 晴", (2025, 12, 26)),
        ("## 2025年三月", (2025, 3, 1)),
    ],
)
def test_a_line_that_starts_with_a_local_date(line, when):
    found = find_leading_datetime(line)
    assert found is not None and found[0] == datetime(*when, tzinfo=UTC)


def test_whole_strings_in_local_notation_are_dates():
    assert parse_datetime("2025年3月1日") == datetime(2025, 3, 1, tzinfo=UTC)
    assert parse_datetime("1. März 2025") == datetime(2025, 3, 1, tzinfo=UTC)
    assert parse_datetime("2025年13月1日") is None  # no such month
    assert find_leading_datetime("3. buy milk") is None  # still a list item
