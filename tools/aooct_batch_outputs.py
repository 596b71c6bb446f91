# SPDX-License-Identifier: GPL-2.0-or-later
"""aooct-batch's output folder: which paths each file's job owns, the
checks made before anything is written or removed, and the record
(OUT/NAME.json) that says an output is complete and which settings made it.

The rules (docs/scale-out.md, "Nothing lost, nothing replaced"):
  - an input is never written, removed or replaced: a job whose outputs
    would be an input, or hold one, is refused before anything runs;
  - two jobs never share an output path (a.raw and a.json.raw: a's record
    OUT/a.json is a.json's folder), refused before anything runs;
  - an output counts as complete only when its record's settings hash is
    this run's and every file it lists exists with its recorded size
    (never 0 bytes);
  - an output made with other settings, or not made by aooct-batch at all,
    is replaced only with --overwrite;
  - one aooct-batch at a time per output folder (a lock), so that no run
    clears another's work in progress.
"""
import errno
import fcntl
import hashlib
import json
import os
import socket

LOCK = ".aooct-batch.lock"


def owned_paths(job):
    """The paths the job of NAME creates, replaces or removes: OUT/NAME (a
    folder, and everything in it), OUT/NAME.json and its .tmp, and the
    hidden OUT/.NAME.* (partial and old folders)."""
    out, name = job["outdir"], job["name"]
    return {"final": os.path.join(out, name), "meta": os.path.join(out, name + ".json"),
            "meta_tmp": os.path.join(out, name + ".json.tmp"),
            "hidden_prefix": os.path.join(out, "." + name + ".")}


def _within(path, folder):
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def collisions(jobs):
    """Messages for every input an output would touch and every path two
    jobs would share (empty: none).  Paths compared after realpath, so that
    a link or "./x" is the same file."""
    problems = []
    owners = {}
    for job in jobs:
        p = owned_paths(job)
        for key in ("final", "meta", "meta_tmp"):
            path = os.path.realpath(p[key])
            if path in owners and owners[path] is not job:
                problems.append(f"{owners[path]['input']} and {job['input']} would both write "
                                f"{p[key]}: rename one, or run them into different folders")
            owners[path] = job
    for job in jobs:
        src = os.path.realpath(job["input"])
        for other in jobs:
            p = owned_paths(other)
            hidden = os.path.realpath(os.path.dirname(p["hidden_prefix"]))
            hidden = os.path.join(hidden, os.path.basename(p["hidden_prefix"]))
            if _within(src, os.path.realpath(p["final"])) or \
                    src in (os.path.realpath(p["meta"]), os.path.realpath(p["meta_tmp"])) or \
                    src.startswith(hidden):
                problems.append(f"the input {job['input']} is where the output of {other['input']} "
                                f"goes ({p['final']}, {p['meta']}): inputs are never written or "
                                "removed: give another -o, or rename the input")
    return problems


def _file_sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def identity(job):
    """What makes a job's output: the chain with every property, the
    contents of the files it reads besides the input (calibration,
    background, phase), the input's size and time, the output layout.
    (The backend and plugin version are recorded, not compared: CPU and
    CUDA give the same images to the spec's tolerance.)"""
    st = os.stat(job["input"])
    files = {}
    for path in job["read_files"]:
        try:
            files[path] = _file_sha256(path)
        except OSError as e:
            files[path] = f"unreadable: {e.strerror}"
    return {"chain": job["description"], "read_files": files,
            "input": {"path": job["input"], "bytes": st.st_size, "mtime_ns": st.st_mtime_ns},
            "bscans_per_volume": job["bscans_per_volume"], "location": job["location"],
            "writer": "tiff" if job["tiff"] else "hdf5" if job["hdf5"] else "png",
            "compress": job["compress"]}


def settings_hash(ident):
    return hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()


def list_files(folder):
    """Every file under @folder (relative path: size in bytes)."""
    out = {}
    for top, _, names in os.walk(folder):
        for n in names:
            full = os.path.join(top, n)
            out[os.path.relpath(full, folder)] = os.path.getsize(full)
    return dict(sorted(out.items()))


def read_record(job):
    try:
        with open(owned_paths(job)["meta"]) as f:
            record = json.load(f)
        return record if isinstance(record, dict) else None
    except (OSError, ValueError):
        return None


def _differences(old, new, prefix=""):
    """The keys whose values differ, as "key: old -> new" (for the
    message of a refused output)."""
    out = []
    if isinstance(old, dict) and isinstance(new, dict):
        for k in sorted(set(old) | set(new)):
            out += _differences(old.get(k), new.get(k), f"{prefix}{k}.")
    elif isinstance(old, list) and isinstance(new, list) and old != new:
        # the chain's tokens: the ones that changed
        gone = list(dict.fromkeys(t for t in old if t not in new))
        came = list(dict.fromkeys(t for t in new if t not in old))
        out.append(f"{prefix.rstrip('.')}: {' '.join(map(str, gone)) or '-'} -> "
                   f"{' '.join(map(str, came)) or '-'}")
    elif old != new:
        out.append(f"{prefix.rstrip('.')}: {old!r} -> {new!r}")
    return out


def state(job, ident, digest):
    """("complete", None), ("redo", None) (ours, same settings, damaged or
    absent) or ("refuse", reason) (other settings, or not aooct-batch's)."""
    p = owned_paths(job)
    have_final, have_meta = os.path.lexists(p["final"]), os.path.lexists(p["meta"])
    if not have_final and not have_meta:
        return "redo", None
    record = read_record(job)
    if record is None or "settings_hash" not in record:
        what = p["meta"] if have_meta else p["final"]
        return "refuse", (f"{what} exists and is not a record of this version of aooct-batch"
                          if have_meta else f"{p['final']} exists without its record {p['meta']}")
    if record["settings_hash"] != digest:
        diff = _differences(record.get("identity", {}), ident)
        return "refuse", ("was made with other settings (" + "; ".join(diff[:4]) +
                          (f"; {len(diff) - 4} more" if len(diff) > 4 else "") + ")")
    files = record.get("files")
    if not isinstance(files, dict) or not files or not os.path.isdir(p["final"]):
        return "redo", None
    for rel, size in files.items():
        full = os.path.join(p["final"], rel)
        try:
            if not isinstance(size, int) or size <= 0 or os.path.getsize(full) != size:
                return "redo", None
        except OSError:
            return "redo", None
    return "complete", None


class FolderLock:
    """One aooct-batch at a time in an output folder: flock on OUT/.aooct-batch.lock
    (held until the process ends), the holder's host and pid in it."""

    def __init__(self, outdir):
        self.path = os.path.join(outdir, LOCK)
        self.fd = None

    def acquire(self):
        """None, or a message naming the run that holds it."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            if e.errno not in (errno.EWOULDBLOCK, errno.EACCES):
                os.close(fd)
                raise
            try:
                holder = os.read(fd, 200).decode(errors="replace").strip() or "another process"
            except OSError:
                holder = "another process"
            os.close(fd)
            return (f"{os.path.dirname(self.path)} is in use by another aooct-batch ({holder}): "
                    "wait for it, or give another -o")
        os.ftruncate(fd, 0)
        os.write(fd, f"host {socket.gethostname()} pid {os.getpid()}\n".encode())
        self.fd = fd
        return None
