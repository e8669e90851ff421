"""The index as a git repository: one commit per update, log, search --at, rollback, layout."""

from __future__ import annotations

import json
import os
import shutil
import stat

import pytest
from click.testing import CliRunner

from memsearch.api import index_vault, log, open_index, rollback
from memsearch.cli import main
from memsearch.errors import IndexMissingError, RevisionError
from memsearch.index import loading
from memsearch.index.format import shard_file, vector_file
from memsearch.index.versioning import IndexRepo
from memsearch.paths import default_home
from tests.versioning_helpers import git, repo_of, results, write


def _history(vault):
    """Index, then three updates (add, change, remove); the results after each, by commit."""
    seen = {}
    first = index_vault(vault, embed=True)
    seen[first.commit] = results(vault)
    write(vault, "journal/2025-03-20.md", "# 2025-03-20\n\nSaw a zebracorn at the zoo with Ed.\n")
    added = index_vault(vault)
    seen[added.commit] = results(vault)
    path = vault / "reference" / "redflag.md"
    path.write_text(path.read_text().replace("Keys rotate every quarter.", "Keys rotate monthly now."))
    changed = index_vault(vault)
    seen[changed.commit] = results(vault)
    (vault / "archive" / "2024.md").unlink()
    removed = index_vault(vault)
    seen[removed.commit] = results(vault)
    return [first, added, changed, removed], seen


def test_one_commit_per_update_naming_its_files(vault_copy):
    reports, _ = _history(vault_copy)
    assert all(r.commit for r in reports)
    again = index_vault(vault_copy)
    assert again.commit is None and not again.changed_anything  # nothing changed: no commit
    commits = log(vault_copy)
    assert [c["commit"] for c in commits] == [r.commit for r in reversed(reports)]
    subjects = [c["subject"] for c in commits]
    assert subjects[0] == "index -archive/2024.md"
    assert subjects[1] == "index ~reference/redflag.md"
    assert subjects[2] == "index +journal/2025-03-20.md"
    assert "added (12):" in commits[3]["body"] and "reference/redflag.md" in commits[3]["body"]
    assert reports[1].added == ("journal/2025-03-20.md",)
    assert reports[2].changed == ("reference/redflag.md",)
    assert reports[3].removed == ("archive/2024.md",)
    # Only that file's shard and vectors (and the manifest) change in its commit.
    changed = git(repo_of(vault_copy), "show", "--name-only", "--format=", reports[2].commit).split()
    assert sorted(p.split("/")[0] for p in changed) == ["files", "manifest.json", "shards", "vectors"]


def test_search_at_an_old_commit_gives_the_results_of_that_time(vault_copy):
    reports, seen = _history(vault_copy)
    for commit, expected in seen.items():
        assert results(vault_copy, at=commit) == expected
    # Without any cached snapshot, each commit is rebuilt from the repository: the same again.
    shutil.rmtree(vault_copy / ".memsearch" / "cache" / "snapshots")
    for commit, expected in seen.items():
        assert results(vault_copy, at=commit) == expected
    assert results(vault_copy, at="HEAD~3") == seen[reports[0].commit]
    assert any(r["path"] == "journal/2025-03-20.md" for r in results(vault_copy, at="HEAD~2")[3])


def test_search_at_through_the_cli(vault_copy):
    reports, seen = _history(vault_copy)
    runner = CliRunner()
    out = runner.invoke(
        main,
        [
            "search",
            "zebracorn",
            "--vault",
            str(vault_copy),
            "--at",
            reports[1].commit[:10],
            "--format",
            "json",
            "--chunks",
            "-k",
            "8",
            "--now",
            "2025-04-01T12:00:00+00:00",
        ],
    )
    assert out.exit_code == 0, out.output
    assert [r for r in json.loads(out.output)["results"]] == seen[reports[1].commit][3]
    # A range printed its two ends, read as one id: "the commit has no manifest; rebuild the index"
    for rev in ("nonsense", "HEAD~1..HEAD", "^HEAD"):
        bad = runner.invoke(main, ["search", "zebracorn", "--vault", str(vault_copy), "--at", rev])
        assert bad.exit_code == 1 and f"{rev!r} names no commit" in bad.output, bad.output


def test_rollback_restores_the_results_as_a_new_commit(vault_copy):
    reports, seen = _history(vault_copy)
    before = len(log(vault_copy))
    commit = rollback(vault_copy, reports[0].commit)
    assert commit is not None
    commits = log(vault_copy)
    assert len(commits) == before + 1 and commits[0]["commit"] == commit  # history kept whole
    assert commits[0]["subject"].startswith(f"rollback to {reports[0].commit[:12]}")
    assert results(vault_copy) == seen[reports[0].commit]
    # The chunk ids handed out since stay used.
    manifest = json.loads(git(repo_of(vault_copy), "show", "HEAD:manifest.json"))
    later = json.loads(git(repo_of(vault_copy), "show", f"{reports[-1].commit}:manifest.json"))
    assert "files" not in manifest  # the file table lives in files/, one bucket per shard prefix
    assert manifest["next_id"] == later["next_id"]
    # Already current: nothing to do. The next reindex brings the index back to the vault.
    assert rollback(vault_copy, "HEAD") is None
    caught_up = index_vault(vault_copy)
    assert caught_up.commit and results(vault_copy) == seen[reports[-1].commit]


def test_log_and_rollback_through_the_cli(vault_copy):
    reports, seen = _history(vault_copy)
    runner = CliRunner()
    out = runner.invoke(main, ["log", "--vault", str(vault_copy)])
    assert out.exit_code == 0 and len(out.output.splitlines()) == 4
    assert out.output.splitlines()[0].startswith(reports[-1].commit[:12])
    out = runner.invoke(main, ["rollback", reports[1].commit[:12], "--vault", str(vault_copy)])
    assert out.exit_code == 0 and "new commit" in out.output
    assert results(vault_copy) == seen[reports[1].commit]
    with pytest.raises(RevisionError):
        rollback(vault_copy, "no-such-revision")


def test_files_are_owner_only(vault_copy):
    _history(vault_copy)
    home = vault_copy / ".memsearch"
    for root, dirs, files in os.walk(home):
        for name in dirs:
            mode = stat.S_IMODE(os.stat(os.path.join(root, name)).st_mode)
            assert mode & 0o077 == 0, (os.path.join(root, name), oct(mode))
        for name in files:
            mode = stat.S_IMODE(os.lstat(os.path.join(root, name)).st_mode)
            assert mode & 0o077 == 0, (os.path.join(root, name), oct(mode))


def test_a_corrupt_snapshot_is_rebuilt_from_the_commit(vault_copy):
    index_vault(vault_copy)
    expected = results(vault_copy)
    (snapshot,) = (vault_copy / ".memsearch" / "cache" / "snapshots").glob("*/*")
    (snapshot / "keyword.npz").write_bytes(b"not a numpy file")
    assert results(vault_copy) == expected
    (snapshot / "meta.json").unlink(missing_ok=True)
    shutil.rmtree(snapshot, ignore_errors=True)
    assert results(vault_copy) == expected


def test_a_corrupt_commit_is_rebuilt_from_the_vault(vault_copy):
    index_vault(vault_copy)
    expected = results(vault_copy)
    repo = repo_of(vault_copy)
    shard = next((repo / "shards").rglob("*.jsonl"))
    shard.write_text("{not json\n")
    git(repo, "-c", "user.name=x", "-c", "user.email=x@y", "commit", "-qam", "corrupt")
    shutil.rmtree(vault_copy / ".memsearch" / "cache" / "snapshots")
    with pytest.raises(Exception, match="rebuild"):
        open_index(vault_copy)
    report = index_vault(vault_copy)
    assert report.commit and any("cannot be read" in n for n in report.notes)
    assert results(vault_copy) == expected


def test_an_index_in_the_old_layout_is_rebuilt(vault_copy):
    legacy = vault_copy / ".memsearch" / "index"
    legacy.mkdir(parents=True)
    (legacy / "manifest.json").write_text(json.dumps({"format": 1, "files": {}}))
    with pytest.raises(IndexMissingError, match="older layout"):
        open_index(vault_copy)
    report = index_vault(vault_copy)
    assert report.commit and report.files == 12
    assert not legacy.exists()
    assert open_index(vault_copy).search("sign_ed25519", k=1).results[0].path == "reference/redflag.md"


def test_long_lists_in_a_commit_message_are_cut_with_a_count(vault_copy):
    index_vault(vault_copy, embed=False)
    for i in range(30):
        write(vault_copy, f"notes/n{i:02d}.md", f"# Note {i}\n\nThought number {i}.\n")
    report = index_vault(vault_copy, embed=False)
    (commit,) = log(vault_copy, limit=1)
    assert commit["subject"] == "index +30 ~0 -0 files (+notes/n00.md, ...)"
    assert "added (30):" in commit["body"] and "... and 10 more" in commit["body"]
    assert report.added[0] == "notes/n00.md"


def test_the_repository_grows_by_what_changed(vault_copy):
    """30 one-file updates: the repository grows by a small multiple of that file's shard and vectors."""
    index_vault(vault_copy)
    repo = IndexRepo(vault_copy / ".memsearch")
    repo.git("repack", "-a", "-d", "-q")
    start = repo.size_bytes()
    path = vault_copy / "journal" / "2025-03-11.md"
    base = path.read_text()
    one = 0
    for i in range(30):
        path.write_text(base + f"\nUpdate {i}: the zebracorn moved to pen {i}.\n")
        report = index_vault(vault_copy)
        assert report.changed == ("journal/2025-03-11.md",)
        name = loading.read_manifest(repo.home)["files"]["journal/2025-03-11.md"]["shard"]
        one = max(one, (repo.path / shard_file(name)).stat().st_size)
        one_vec = (repo.path / vector_file(name)).stat().st_size
    repo.maintain()
    grown = repo.size_bytes() - start
    assert grown < 30 * 4 * (one + one_vec), (grown, one, one_vec)


def test_a_manifest_that_does_not_parse_is_rebuilt_from_the_vault(vault_copy):
    index_vault(vault_copy)
    expected = results(vault_copy)
    repo = repo_of(vault_copy)
    (repo / "manifest.json").write_text("{not json")
    stray = repo / "shards" / "zz" / "stray.jsonl"
    stray.parent.mkdir()
    stray.write_text("{}\n")
    git(repo, "-c", "user.name=x", "-c", "user.email=x@y", "add", "-A")
    git(repo, "-c", "user.name=x", "-c", "user.email=x@y", "commit", "-qm", "corrupt")
    report = index_vault(vault_copy)
    assert report.commit and any("manifest" in n for n in report.notes)
    assert not stray.exists() and "stray" not in git(repo, "ls-files")
    assert results(vault_copy) == expected


def test_a_batch_commit_by_fast_import_equals_one_by_git_add(vault_copy, tmp_path, monkeypatch):
    # The same vault indexed twice: every commit through `git add`, then through `git fast-import`.
    via_import = tmp_path / "imported"
    shutil.copytree(vault_copy, via_import, ignore=shutil.ignore_patterns(".memsearch*"))
    imports = []
    real_import = IndexRepo._commit_by_import
    monkeypatch.setattr(
        IndexRepo, "_commit_by_import", lambda repo, *a: imports.append(repo.path) or real_import(repo, *a)
    )
    monkeypatch.setenv("MEMSEARCH_IMPORT_MIN_PATHS", "1000000")
    index_vault(vault_copy, embed=False)
    assert imports == []
    monkeypatch.setenv("MEMSEARCH_IMPORT_MIN_PATHS", "1")
    index_vault(via_import, embed=False)
    assert imports == [repo_of(via_import)]  # this build's commit went through fast-import
    added, imported = repo_of(vault_copy), repo_of(via_import)

    def tree(repo):  # every file but manifest.json, which names its vault and build time
        return [
            line for line in git(repo, "ls-tree", "-r", "HEAD").splitlines() if "manifest.json" not in line
        ]

    def head_manifest(repo):
        data = json.loads(git(repo, "show", "HEAD:manifest.json"))
        return {k: v for k, v in data.items() if k not in ("vault", "built_at")}

    assert len(tree(added)) > 10 and tree(added) == tree(imported)
    assert head_manifest(added) == head_manifest(imported)
    assert git(imported, "status", "--porcelain", "--ignored") == ""  # staging area = work tree
    assert git(imported, "for-each-ref", "refs/memsearch") == ""  # the side ref is gone
    # A change, then nothing: one more commit, then none (the unchanged tree is not committed).
    write(via_import, "journal/2025-03-20.md", "# 2025-03-20\n\nSaw a zebracorn at the zoo with Ed.\n")
    assert index_vault(via_import, embed=False).commit is not None
    repo = IndexRepo(default_home(via_import))
    head = repo.head()
    files = sorted(git(imported, "ls-files").split())
    assert repo.commit(files, "the same files again") is None
    assert repo.head() == head
    hits = open_index(via_import).search("zebracorn", 3, strategies=["keyword"]).results
    assert hits and hits[0].path == "journal/2025-03-20.md"


def test_recover_drops_an_unfinished_batch_commit(vault_copy, monkeypatch):
    index_vault(vault_copy, embed=False)
    repo = IndexRepo(default_home(vault_copy))
    head = repo.head()
    repo.git("update-ref", "refs/memsearch/import", head)  # what a writer killed mid-import leaves
    notes = repo.recover()
    assert "dropped an unfinished batch commit" in notes
    assert git(repo_of(vault_copy), "for-each-ref", "refs/memsearch") == ""
    assert repo.head() == head


def _shard(repo):
    return next((repo / "shards").rglob("*.jsonl"))


def _vectors(repo):
    return next((repo / "shards").rglob("*.npy"), None) or next(repo.rglob("*.npy"))


def _manifest_of_wrong_types(repo):
    manifest = repo / "manifest.json"
    data = json.loads(manifest.read_text())
    data.update(embedder="x", index_settings="x", skipped="x")
    manifest.write_text(json.dumps(data))
    return manifest


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda repo: _shard(repo).write_text("null\n"),  # JSON, but no object
        lambda repo: _shard(repo).write_text('"x"\n'),
        lambda repo: _vectors(repo).write_bytes(b""),  # numpy's EOFError read as Ctrl-C: "Aborted!"
        _manifest_of_wrong_types,  # AttributeError; and `memsearch index` could not rebuild it
    ],
    ids=["null shard line", "string shard line", "empty vectors", "manifest of wrong types"],
)
def test_a_commit_corrupt_in_any_way_says_so_and_is_rebuilt_from_the_vault(vault_copy, corrupt):
    from memsearch.errors import IndexCorruptError

    index_vault(vault_copy)
    expected = results(vault_copy)
    repo = repo_of(vault_copy)
    corrupt(repo)
    git(repo, "-c", "user.name=x", "-c", "user.email=x@y", "commit", "-qam", "corrupt")
    shutil.rmtree(vault_copy / ".memsearch" / "cache" / "snapshots")
    with pytest.raises(IndexCorruptError, match="memsearch index"):
        open_index(vault_copy)
    report = index_vault(vault_copy)
    assert report.commit
    assert results(vault_copy) == expected
