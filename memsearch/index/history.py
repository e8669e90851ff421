"""Forgotten memories out of the index repository: one commit's files pruned, and with a purge every
commit rewritten without them (shards, vectors, manifest entries, the paths in commit messages),
reflogs expired and the old objects dropped, so no commit holds their text or vectors.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from memsearch.index import in_memory, loading
from memsearch.index.forget_list import ForgetList, path_hash, sha256_hex
from memsearch.index.format import (
    FILES_SUBDIR,
    MANIFEST,
    decode_manifest,
    decode_vectors,
    encode_manifest_head,
    encode_vectors,
    manifest_buckets,
    modal_files,
    shard_file,
    vector_file,
    vector_rows,
)
from memsearch.index.versioning import IndexRepo, crashpoint


class Pruner:
    """Takes the forgotten memories out of one commit's files (a dict of path -> bytes getter)."""

    def __init__(self, forget: ForgetList, dim: int | None) -> None:
        self.forget = forget
        self.dim = dim
        self.embed_shas: set[str] = set()  # texts whose vectors go from the cache
        self.content_hashes: set[str] = set()  # for the signal state
        self.paths: set[str] = set()  # forgotten paths seen (for messages and the signal inbox)
        self.chunks = 0
        self.modal_vectors = 0  # notebook sidecar vectors taken out (forgotten or redacted moments)

    def prune(self, files: dict[str, dict], read: Any, dim: int | None) -> tuple[dict, dict, set[str]]:
        """``(new file table, {repo path: new bytes or None to delete}, touched manifest paths)``."""
        aliases = in_memory.alias_map(files)
        out = dict(files)
        writes: dict[str, bytes | None] = {}
        touched: set[str] = set()
        for path, entry in files.items():
            name = entry["shard"]
            shard_rel, vec_rel = shard_file(name), vector_file(name)
            whole = self.forget.has_path(path) or self.forget.has_content(entry.get("sha256", ""))
            if entry.get("modal") and self.forget.is_redacted(path) and not whole:
                # Redacted (``memsearch redact``): every sidecar vector goes, the text stays.
                writes.update(dict.fromkeys(modal_files(entry).values()))
                self.modal_vectors += len(entry["modal"])
                entry = out[path] = {k: v for k, v in entry.items() if k != "modal"}
                touched.add(path)
            if not whole and not (self.forget.entities or self.forget.phrases):
                continue
            raw = read(shard_rel)
            lines = [ln for ln in (raw or b"").splitlines() if ln.strip()]
            keep_lines, keep_ids, drop_ids = [], [], set()
            for line in lines:
                data = json.loads(line)
                said = f"{data.get('header', '')}\n{data.get('text', '')}"
                if whole or self.forget.drops(data.get("entities", ()), said, aliases):
                    drop_ids.add(data["id"])
                    if data.get("embed_sha256"):
                        self.embed_shas.add(data["embed_sha256"])
                    header, text = data.get("header", ""), data.get("text", "")
                    self.content_hashes.add(sha256_hex(f"{header}\n{text}"))
                else:
                    keep_lines.append(line)
                    keep_ids.append(data["id"])
            if not drop_ids and not whole:
                continue
            touched.add(path)
            self.chunks += len(drop_ids)
            if entry.get("modal") and (whole or entry["chunks"][0] in drop_ids):
                # A moment's sidecar vectors hang on its chunk: they go with it.
                writes.update(dict.fromkeys(modal_files(entry).values()))
                self.modal_vectors += len(entry["modal"])
                entry = {k: v for k, v in entry.items() if k != "modal"}
            if whole or not keep_ids:
                if whole:
                    self.paths.add(path)
                    del out[path]
                else:
                    out[path] = {**entry, "chunks": []}
                    out[path].pop("gaps", None)
                    writes[shard_rel] = b""
                if whole:
                    writes[shard_rel] = None
                writes[vec_rel] = None
                continue
            new_entry = {**entry, "chunks": keep_ids}
            gaps = [cid for cid in entry.get("gaps", ()) if cid in set(keep_ids)]
            if gaps:
                new_entry["gaps"] = gaps
            else:
                new_entry.pop("gaps", None)
            out[path] = new_entry
            writes[shard_rel] = b"".join(ln + b"\n" for ln in keep_lines)
            vec_raw = read(vec_rel)
            if vec_raw is not None and dim:
                matrix = decode_vectors(vec_raw, int(dim))
                rows = vector_rows(entry)
                keep_rows = [i for i, cid in enumerate(rows) if cid not in drop_ids]
                if keep_rows:
                    writes[vec_rel] = encode_vectors(matrix[keep_rows])
                else:
                    writes[vec_rel] = None
        return out, writes, touched


class History:
    """Every commit's file table and shard texts, read once (for the scans before a rewrite)."""

    def __init__(self, repo: IndexRepo) -> None:
        self.repo = repo
        out = repo.git("rev-list", "--reverse", "--topo-order", "--parents", "HEAD").decode()
        self.commits = [line.split() for line in out.splitlines()]
        self._files: dict[str, dict[str, dict] | None] = {}
        self._trees: dict[str, dict[str, str]] = {}
        self._blobs: dict[str, list[dict]] = {}

    def files(self, sha: str) -> dict[str, dict] | None:
        if sha not in self._files:
            try:
                self._files[sha] = loading.committed_manifest(self.repo, sha)["files"]
            except Exception:  # a commit of an older format or without a manifest holds no file table
                self._files[sha] = None
        return self._files[sha]

    def shard(self, sha: str, entry: dict) -> list[dict]:
        """The chunk records of one file's shard at ``sha`` (read once per blob)."""
        if sha not in self._trees:
            self._trees[sha] = self.repo.tree(sha, "shards")
        blob = self._trees[sha].get(shard_file(entry["shard"]))
        if blob is None:
            return []
        if blob not in self._blobs:
            raw = self.repo.read_blobs([blob])[blob]
            records = []
            for line in raw.splitlines():
                with contextlib.suppress(ValueError):
                    records.append(json.loads(line))
            self._blobs[blob] = records
        return self._blobs[blob]

    def texts(self, sha: str, entry: dict) -> set[str]:
        return {
            r.get("embed_sha256") or sha256_hex(f"{r.get('header', '')}\n{r.get('text', '')}")
            for r in self.shard(sha, entry)
        }


def earlier_names(repo: IndexRepo, forget: ForgetList, history: History | None = None) -> set[str]:
    """Path hashes of the names a forgotten file had before: a commit that adds a forgotten path
    and drops another whose content, or any chunk's text, it shares is a rename (followed back
    through every earlier rename). Those names are forgotten with it."""
    history = history or History(repo)
    found: set[str] = set()

    def gone(rel: str) -> bool:
        return forget.has_path(rel) or path_hash(rel) in found

    changed = True
    while changed:
        changed = False
        for sha, *parents in reversed(history.commits):
            now = history.files(sha)
            if now is None:
                continue
            for parent in parents:
                before = history.files(parent)
                if before is None:
                    continue
                added = [p for p in now if p not in before and gone(p)]
                if not added:
                    continue
                for q in [q for q in before if q not in now and not gone(q)]:
                    for p in added:
                        same = now[p].get("sha256") and now[p].get("sha256") == before[q].get("sha256")
                        if same or history.texts(sha, now[p]) & history.texts(parent, before[q]):
                            found.add(path_hash(q))
                            changed = True
                            break
    return found


def history_keys(repo: IndexRepo, forget: ForgetList, history: History | None = None) -> set[str]:
    """The text hashes of every forgotten chunk in any commit (their vectors leave the cache even
    if a purge is killed after the rewrite, when no commit names them any more)."""
    history = history or History(repo)
    keys: set[str] = set()
    for sha, *_parents in history.commits:
        files = history.files(sha)
        if not files:
            continue
        aliases = in_memory.alias_map(files) if forget.entities else None
        for rel, entry in files.items():
            whole = forget.has_path(rel)
            if not whole and not (forget.entities or forget.phrases):
                continue
            for r in history.shard(sha, entry):
                said = f"{r.get('header', '')}\n{r.get('text', '')}"
                if r.get("embed_sha256") and (whole or forget.drops(r.get("entities", ()), said, aliases)):
                    keys.add(r["embed_sha256"])
    return keys


def _drop_leftovers(repo: IndexRepo) -> None:
    """What a rewrite or a gc killed part way leaves in the git folder (temporary index files,
    half-written packs and objects): they may hold the old objects' bytes."""
    for entry in repo.git_dir.glob("tmp*"):
        if entry.is_dir():
            shutil.rmtree(entry, ignore_errors=True)
    objects = repo.git_dir / "objects"
    for pattern in ("pack/.tmp-*", "pack/tmp_*", "tmp_obj_*", "*/tmp_obj_*", "incoming-*"):
        for entry in objects.glob(pattern):
            if entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)


def purge_history(repo: IndexRepo, forget: ForgetList, pruner: Pruner) -> int:
    """Rewrite every commit without the forgotten memories; expire reflogs; gc. Returns commits rewritten."""
    _drop_leftovers(repo)
    commits = [
        line.split()
        for line in repo.git("rev-list", "--reverse", "--topo-order", "--parents", "HEAD")
        .decode()
        .splitlines()
    ]
    mapping: dict[str, str] = {}
    rewritten = 0
    with tempfile.TemporaryDirectory(dir=repo.git_dir) as tmp:
        index_file = os.path.join(tmp, "index")
        for sha, *parents in commits:
            tree = repo.tree(sha)
            blobs = repo.read_blobs(list(tree.values()))

            def read(rel: str, tree: dict = tree, blobs: dict = blobs) -> bytes | None:
                return blobs[tree[rel]] if rel in tree else None

            head_raw = read(MANIFEST)
            changes: dict[str, bytes | None] = {}
            if head_raw is not None:
                bucket_raws = [read(p) for p in sorted(tree) if p.startswith(FILES_SUBDIR + "/")]
                manifest = decode_manifest(head_raw, [b for b in bucket_raws if b is not None])
                dim = (manifest.get("embedder") or {}).get("dim")
                new_files, writes, touched = pruner.prune(manifest["files"], read, dim)
                changes.update(writes)
                skipped = manifest.get("skipped", {})
                hidden = [p for p in skipped if forget.has_path(p)]
                if touched or hidden:
                    manifest["files"] = new_files
                    for p in hidden:
                        pruner.paths.add(p)
                        skipped.pop(p)
                    changes[MANIFEST] = encode_manifest_head(manifest)
                    for rel, bucket in manifest_buckets(manifest, touched).items():
                        changes[rel] = bucket or None
            message = repo.git("log", "-1", "--format=%B", sha).decode("utf-8", "replace")
            new_message = _redact(message, pruner.paths)
            new_parents = [mapping.get(p, p) for p in parents]
            if not changes and new_message == message and new_parents == parents:
                mapping[sha] = sha
                continue
            rewritten += 1
            env = {"GIT_INDEX_FILE": index_file}
            repo.git("read-tree", sha, env=env)
            lines = []
            for rel, data in changes.items():
                if data is None:
                    if rel in tree:
                        lines.append(f"0 {'0' * 40}\t{rel}")
                else:
                    blob = repo.git("hash-object", "-w", "--stdin", input=data).decode().strip()
                    lines.append(f"100644 {blob}\t{rel}")
            if lines:
                repo.git("update-index", "--index-info", input=("\n".join(lines) + "\n").encode(), env=env)
            new_tree = repo.git("write-tree", env=env).decode().strip()
            dates = repo.git(
                "log", "-1", "--format=%an%x00%ae%x00%ad%x00%cn%x00%ce%x00%cd", "--date=raw", sha
            )
            an, ae, ad, cn, ce, cd = dates.decode().rstrip("\n").split("\x00")
            cenv = {
                "GIT_AUTHOR_NAME": an,
                "GIT_AUTHOR_EMAIL": ae,
                "GIT_AUTHOR_DATE": ad,
                "GIT_COMMITTER_NAME": cn,
                "GIT_COMMITTER_EMAIL": ce,
                "GIT_COMMITTER_DATE": cd,
            }
            args = ["commit-tree", new_tree]
            for p in new_parents:
                args += ["-p", p]
            mapping[sha] = repo.git(*args, "-F", "-", input=new_message.encode(), env=cenv).decode().strip()
    crashpoint("purge-commits-written")
    head = repo.head()
    if head and mapping.get(head, head) != head:
        repo.git("update-ref", "refs/heads/main", mapping[head])
    crashpoint("purge-ref-moved")
    repo.git("read-tree", "--reset", "-u", "HEAD")
    # Nothing may still reach an old object: other refs, reflogs, a filter-branch backup.
    for ref in repo.git("for-each-ref", "--format=%(refname)").decode().split():
        if ref != "refs/heads/main":
            repo.git("update-ref", "-d", ref)
    shutil.rmtree(repo.git_dir / "refs" / "original", ignore_errors=True)
    for name in ("ORIG_HEAD", "FETCH_HEAD", "COMMIT_EDITMSG"):
        (repo.git_dir / name).unlink(missing_ok=True)
    repo.git("reflog", "expire", "--expire=now", "--all")
    crashpoint("purge-before-gc")
    repo.git("gc", "--prune=now", "--aggressive", "--quiet")
    repo.git("prune", "--expire=now")
    _drop_leftovers(repo)
    _owner_only(repo.git_dir)
    return rewritten


def _redact(message: str, paths: set[str]) -> str:
    for p in sorted(paths, key=len, reverse=True):
        message = message.replace(p, f"(forgotten {path_hash(p)[:12]})")
    return message


def _owner_only(root: Path) -> None:
    for dirpath, _dirnames, filenames in os.walk(root):
        with contextlib.suppress(OSError):
            os.chmod(dirpath, 0o700)
        for name in filenames:
            with contextlib.suppress(OSError):
                os.chmod(os.path.join(dirpath, name), 0o600)
