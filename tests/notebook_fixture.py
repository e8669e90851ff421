"""A small notebook of the published schema (1.0), written as real YAML files for the tests.

Three sessions and twelve moments with parent/child links, a compaction summary and links across
sessions. Moment ``m-0302`` (session ``s-gamma``) is reached only through ``linked_to`` from
``m-0101`` (session ``s-alpha``): no text, concept or key of it names what a query about
``m-0101``'s concept does.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np
import yaml

#: (session, moment id, text, concepts, retrieval keys, importance, decay_rate, relations)
MOMENTS: list[tuple[str, str, str, list[str], list[str], float, float, dict[str, Any]]] = [
    (
        "s-alpha",
        "m-0101",
        "Rotated the signing key after the audit flagged the old one as weak.",
        ["keyrotation"],
        ["audit finding"],
        0.9,
        0.01,
        {"linked_to": ["m-0302"], "child_moments": ["m-0102"]},
    ),
    (
        "s-alpha",
        "m-0102",
        "Published the new public key on the release page for the team.",
        ["release page"],
        ["public key publication"],
        0.5,
        0.05,
        {"parent_moment": "m-0101"},
    ),
    (
        "s-alpha",
        "m-0103",
        "Lunch order: noodles for everyone on the late shift.",
        ["lunch"],
        ["late shift food"],
        0.1,
        0.5,
        {},
    ),
    (
        "s-alpha",
        "m-0104",
        "Compaction summary of the morning: the audit and the key publication.",
        ["compaction"],
        ["morning summary"],
        0.7,
        0.02,
        {"parent_moment": "m-0101", "linked_to": ["m-0102"]},
    ),
    (
        "s-beta",
        "m-0201",
        "The espresso machine in the kitchen broke again; descaling did not help.",
        ["espresso machine"],
        ["kitchen appliance"],
        0.2,
        0.2,
        {},
    ),
    (
        "s-beta",
        "m-0202",
        "Heard a grinding noise from the server rack fan in room four.",
        ["server rack"],
        ["fan noise"],
        0.6,
        0.05,
        {"child_moments": ["m-0203"]},
    ),
    (
        "s-beta",
        "m-0203",
        "Replaced the rack fan; the grinding stopped.",
        ["server rack"],
        ["fan replacement"],
        0.6,
        0.05,
        {"parent_moment": "m-0202"},
    ),
    (
        "s-beta",
        "m-0204",
        "Screenshot of the dashboard showing latency spikes at noon.",
        ["latency dashboard"],
        ["noon spikes"],
        0.4,
        0.1,
        {},
    ),
    (
        "s-gamma",
        "m-0301",
        "Read a chapter about tide pools and the creatures living in them.",
        ["tide pools"],
        ["marine reading"],
        0.3,
        0.1,
        {},
    ),
    (
        "s-gamma",
        "m-0302",
        "Filed the quarterly paperwork with the compliance office.",
        ["paperwork"],
        ["quarterly filing"],
        0.5,
        0.05,
        {},
    ),
    (
        "s-gamma",
        "m-0303",
        "Sketched the garden layout with raised beds by the fence.",
        ["garden layout"],
        ["raised beds"],
        0.3,
        0.1,
        {},
    ),
    (
        "s-gamma",
        "m-0304",
        "Listened to a recording of rain on the tin roof before sleep.",
        ["rain recording"],
        ["tin roof"],
        0.2,
        0.3,
        {},
    ),
]

SESSIONS: dict[str, dict[str, Any]] = {
    "s-alpha": {
        "task": "Rotate the release signing key",
        "history": "Audit found a weak key. Rotated it, then published the new one.",
        "decisions": [
            {"turn": 3, "what": "use ed25519 for the new key", "result": "accepted", "moment_id": "m-0101"},
            {"turn": 7, "what": "publish on the release page", "result": "done", "moment_id": "m-0102"},
        ],
        "pending": ["revoke the old key at the keyserver"],
        "escalations": [
            {
                "when": "2026-03-02T10:00:00Z",
                "to": "security lead",
                "reason": "old key may have signed a tampered build",
                "response_summary": "checked the build hashes: clean",
                "moment_id": "m-0101",
            }
        ],
        "links": ["sessions/s-gamma/moments/m-0302.yaml"],
    },
    "s-beta": {
        "task": "Keep the office running",
        "history": "Kitchen and server room chores over the week.",
        "decisions": [{"turn": 2, "what": "order a spare rack fan", "result": "ordered"}],
        "pending": ["buy descaler", "check fan noise next week"],
        "escalations": [],
        "links": ["reference/garden.md"],  # a note of the vault the notebook sits in
    },
    "s-gamma": {
        "task": "Personal notes",
        "history": "Reading, garden plans and paperwork.",
        "decisions": [],
        "pending": [],
        "escalations": [],
        "links": [],
    },
}

#: Each moment's day: m-0101 on 2026-03-01, then one day later each.
FIRST_DAY = 1


def moment_day(moment_id: str) -> str:
    n = [m[1] for m in MOMENTS].index(moment_id)
    return f"2026-03-{FIRST_DAY + n:02d}T09:00:00Z"


def moment_document(session: str, moment_id: str) -> dict[str, Any]:
    for s, mid, text, concepts, keys, importance, decay, relations in MOMENTS:
        if mid == moment_id and s == session:
            return {
                "moment": {
                    "id": mid,
                    "session_id": s,
                    "timestamp": moment_day(mid),
                    "modalities": {
                        "text": text,
                        "audio_signature": f"sha256:{'a' * 16}{mid}",
                        "image_signature": f"sha256:{'b' * 16}{mid}",
                        "multimodal_embedding": f"sha256:{'c' * 16}{mid}",
                    },
                    "audio_clip_path": None,
                    "image_clip_path": None,
                    "concepts": concepts,
                    "retrieval_keys": keys,
                    "importance": importance,
                    "decay_rate": decay,
                    "parent_moment": relations.get("parent_moment"),
                    "child_moments": relations.get("child_moments", []),
                    "linked_to": relations.get("linked_to", []),
                    "actions_taken": [],
                }
            }
    raise KeyError(moment_id)


def session_document(session: str) -> dict[str, Any]:
    spec = copy.deepcopy(SESSIONS[session])  # a test may change what it is given
    moments = [m[1] for m in MOMENTS if m[0] == session]
    return {
        "notebook": {
            "schema_version": "1.0",
            "session_id": session,
            "created_at": "2026-03-01T08:00:00Z",
            "last_touched": "2026-03-12T18:00:00Z",
            "owner": "senter",
            "task": spec["task"],
            "task_status": "in_progress",
            "context": {"condensed_history": spec["history"], "recent_moments": moments[-2:]},
            "decisions": spec["decisions"],
            "pending": spec["pending"],
            "escalations": spec["escalations"],
            "links": spec["links"],
            "stats": {"turns": 12, "moments": len(moments)},
        }
    }


def index_document() -> dict[str, Any]:
    concepts: dict[str, dict[str, Any]] = {}
    for _s, mid, _t, names, _k, _i, _d, _r in MOMENTS:
        for name in names:
            entry = concepts.setdefault(name, {"moment_count": 0, "last_seen": moment_day(mid)})
            entry["moment_count"] += 1
    return {
        "notebook_index": {
            "schema_version": "1.0",
            "last_compacted": "2026-03-10T00:00:00Z",
            "sessions": list(SESSIONS),
            "concepts": concepts,
            "embedding_index": {"type": "hnsw", "path": "embeddings/", "size": 12, "last_updated": None},
            "compaction_log": [],
        }
    }


def dump(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def moment_path(root: Path, session: str, moment_id: str) -> Path:
    return root / "sessions" / session / "moments" / f"{moment_id}.yaml"


def write_notebook(root: Path) -> Path:
    """The notebook written under ``root`` (created): index.yaml, sessions and moments."""
    (root / "sessions").mkdir(parents=True, exist_ok=True)
    (root / "index.yaml").write_text(dump(index_document()), encoding="utf-8")
    for session in SESSIONS:
        (root / "sessions" / f"{session}.yaml").write_text(dump(session_document(session)), encoding="utf-8")
    for session, moment_id, *_ in MOMENTS:
        path = moment_path(root, session, moment_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dump(moment_document(session, moment_id)), encoding="utf-8")
    return root


#: Each modality's dimension in the fixture's sidecars (small, unlike the notebook's 512/4096:
#: the checks do not depend on the size).
SIDECAR_DIMENSIONS: dict[str, int] = {"audio": 16, "image": 24, "joint": 32}

#: The seed every synthetic sidecar vector is drawn from.
SIDECAR_SEED = 16


def sidecar_vector(moment_id: str, modality: str) -> np.ndarray:
    """The moment's synthetic ``modality`` vector (float32, 1-D), the same on every call: a unit
    vector drawn from a seed made of the fixed seed, the modality and the moment's place."""
    place = [m[1] for m in MOMENTS].index(moment_id)
    salt = sorted(SIDECAR_DIMENSIONS).index(modality)
    rng = np.random.default_rng([SIDECAR_SEED, salt, place])
    vector = rng.standard_normal(SIDECAR_DIMENSIONS[modality]).astype(np.float32)
    return vector / np.linalg.norm(vector)


def write_sidecars(root: Path, modalities: tuple[str, ...] = ("audio", "image", "joint")) -> list[Path]:
    """Every moment's sidecars under the notebook ``root`` (beside its YAML), saved by numpy.save."""
    written: list[Path] = []
    for session, moment_id, *_ in MOMENTS:
        for modality in modalities:
            path = moment_path(root, session, moment_id).with_suffix(f".{modality}.npy")
            np.save(path, sidecar_vector(moment_id, modality))
            written.append(path)
    return written
