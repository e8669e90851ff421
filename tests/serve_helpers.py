"""Talking to a real ``memsearch serve`` on a loopback port, for the tests of the server."""

from __future__ import annotations

import http.client
import json


def raw_request(server, method: str, path: str, body: bytes | None = None, token: str | None = "ok"):
    """One request with exact bytes and headers: ``(status, decoded answer)``."""
    headers = {"Content-Type": "application/json"}
    if token == "ok":
        headers["Authorization"] = f"Bearer {server.token}"
    elif token is not None:
        headers["Authorization"] = f"Bearer {token}"
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def without_timings(text: str) -> list:
    """JSON answers (one document, or one per line) without the timings, which differ run to run."""
    text = text.strip()
    docs = [json.loads(text)] if text.startswith("{\n") else [json.loads(x) for x in text.splitlines()]
    for doc in docs:
        doc.get("health", {}).pop("timings_ms", None)
    return docs
