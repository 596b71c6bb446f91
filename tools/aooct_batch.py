#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""aooct-batch (tools/aooct-batch runs this module): reconstructs many raw
files at once, one Ray task per file.

    tools/aooct-batch --width 832 --height 240 \\
        --bscans-per-volume 100 --wavelength-file cal.txt -o out/ 'scans/*.raw'

Each file goes through the aooct chain in a Ray worker (the elements'
properties set on the element objects, no shell, no path in pipeline
text) and comes out as aooct-stack writes it:
OUT/NAME/vol000-bscan0000.png ... (with --tiff one multi-page TIFF per
volume, OUT/NAME/vol000.tif, with --hdf5 one HDF5 file per volume,
OUT/NAME/vol000.h5: these aooct-stack --tiff / --hdf5 write themselves,
which the worker runs with the chain as its argument list) and
depth-scale.txt, plus OUT/NAME.json (settings and their hash, every file
with its size, geometry, timings, plugin version).  A task asks Ray for
one GPU (--backend cuda) or one CPU (--backend cpu); without --address a
local Ray runs on this machine with --workers tasks at once, confined to
the loopback interface (a private network namespace, unshare), --address
auto or ray://HOST:PORT joins a cluster (every node needs the aooct plugin
and this Python environment).

Nothing lost, nothing replaced (aooct_batch_outputs.py): inputs are never
written or removed; the outputs of all files are checked for collisions
with each other and with the inputs before anything is written; a file is
written under OUT/.NAME.partial-* and renamed to OUT/NAME when complete,
and OUT/NAME.json written last; a re-run skips the outputs that are
complete with the same settings, redoes its own damaged ones, and refuses
(exit 2, nothing done) to replace an output made with other settings, or
not by aooct-batch, unless --overwrite; one run at a time per output
folder.  A worker that dies mid-file (killed, out of memory) is retried by
Ray (--retries).  The exit status is 1 when any file failed (each named at
the end with the element's error or the system's), 2 on a usage error.
Geometry and chain settings come from options or from an aooct-view
settings file (--settings: its [source] width, height, format and its
per-element groups, each key checked against the element's properties);
an option given on the command line wins over the file.

tools/aooct-batch finds the project's .venv itself (gi and ray).
"""
import argparse
import glob
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time

try:
    import gi

    gi.require_version("Gst", "1.0")
    from gi.repository import GLib, GObject, Gst
except (ImportError, ValueError):
    sys.exit(
        f"aooct-batch: this Python ({sys.executable}) has no gi (PyGObject) "
        "with GStreamer: run tools/aooct-batch, which finds the project's .venv "
        "(scripts/bootstrap.sh makes it from /usr/bin/python3 and its "
        "python3-gi), or pip install PyGObject into your environment "
        "(docs/howto.md, 'From Python')."
    )
try:
    import ray
except ImportError:
    sys.exit(
        f"aooct-batch: this Python ({sys.executable}) has no ray: run "
        "tools/aooct-batch after scripts/bootstrap.sh (which installs "
        "ray into .venv), or pip install 'ray[client]'"
    )

import aooct_batch_outputs as outputs  # noqa: E402

# the chain, in order; the input (aooctfilesrc location) is set per file on
# the element object, every other property from the options or --settings
ELEMENTS = ("aooctfilesrc", "aooctdcsub", "aooctpad", "aooctkmap", "aooctdisp", "aooctfft",
            "aooctnorm")
NAMES = {"aooctfilesrc": "src", "aooctkmap": "kmap"}
# properties whose value is a file the chain reads: made absolute (the
# workers run elsewhere) and their contents part of the settings' hash
FILE_PROPS = {("aooctkmap", "wavelength-file"), ("aooctdcsub", "background-file"),
              ("aooctdisp", "phase-file")}
# what aooct-stack appends (tools/aooct-stack.c)
SINK = "appsink name=aooct_stack_sink sync=false max-buffers=8"
BYTES = {"gray16-le": 2, "gray8": 1}


def expand_location(template, volume, bscan):
    """aooct-stack's {volume}/{bscan}[:W] template (widths 3 and 4)."""
    out, i = [], 0
    while i < len(template):
        if template[i] != "{":
            out.append(template[i])
            i += 1
            continue
        close = template.find("}", i)
        if close < 0:
            raise ValueError(f"--location: unclosed '{{' in \"{template[i:]}\"")
        field, _, width = template[i + 1:close].partition(":")
        if field not in ("volume", "bscan"):
            raise ValueError(f"--location: unknown field {{{field}}}: expected {{volume}} or {{bscan}}")
        w = 3 if field == "volume" else 4
        if width:
            if not width.isdigit() or not 1 <= int(width) <= 20:
                raise ValueError(f"--location: width in {{{field}:{width}}} must be 1..20")
            w = int(width)
        out.append("%0*d" % (w, volume if field == "volume" else bscan))
        i = close + 1
    return "".join(out)


def plugin_version():
    plugin = Gst.Registry.get().find_plugin("aooct")
    return {"version": plugin.get_version(), "file": plugin.get_filename()} if plugin else None


class Failed(Exception):
    pass


def gst_value(value):
    """A property value as the right-hand side of a gst-launch token: as it
    is when the parser reads it so, else double-quoted with backslash before
    '"' and '\\' (gst_parse takes them off)."""
    s = str(value)
    if re.fullmatch(r"[A-Za-z0-9_.,:/+-]+", s):
        return s
    return '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"')


def chain_tokens(job, with_input=True, with_backend=True):
    """The job's chain as a gst-launch argument list (one token per
    argument, as gst_parse_launchv and aooct-stack take it): every property
    a token of its own, values quoted (any file name works, nothing in a
    value becomes pipeline text)."""
    out = []
    for factory in ELEMENTS:
        if out:
            out.append("!")
        out.append(factory)
        if factory in NAMES:
            out.append("name=" + NAMES[factory])
        props = dict(job["props"][factory])
        if factory == "aooctfilesrc" and with_input:
            props = {"location": job["input"], **props}
        if with_backend and job.get("backend") in ("cpu", "cuda") and factory in job["has_backend"]:
            props.setdefault("backend", job["backend"])
        out += ["%s=%s" % (k, gst_value(v)) for k, v in props.items()]
    return out + ["!"] + job["tail"]


def shell_join(tokens):
    """The tokens as one shell command line (gst-launch-1.0's "!" as it is)."""
    return " ".join(t if t == "!" else shlex.quote(t) for t in tokens)


def run_stack(job, partial, report):
    """--tiff, --hdf5: aooct-stack itself writes the volumes into partial/
    (the same writer, so the same bytes and metadata); returns the
    images."""
    argv = [job["stack"], "--tiff" if job["tiff"] else "--hdf5",
            "--bscans-per-volume=%d" % job["bscans_per_volume"],
            "--location=" + os.path.join(partial, job["location"])]
    if job.get("compress"):
        argv.append("--compress=%d" % job["compress"])
    argv += ["--"] + chain_tokens(job)
    try:
        r = subprocess.run(argv, capture_output=True, text=True, errors="replace")
    except OSError as e:
        raise Failed(f"cannot run {job['stack']}: {e.strerror}")
    if r.returncode != 0:
        lines = [l for l in r.stderr.splitlines() if l.startswith("aooct-stack: ")]
        raise Failed(lines[0][len("aooct-stack: "):] if lines else
                     f"aooct-stack exited with {r.returncode}: {r.stderr.strip()}")
    images = 0
    for line in r.stdout.splitlines():
        if line.startswith("aooct-stack: ") and " images, " in line:
            images = int(line.split()[1])
    report(images * job["height"])
    return images


def run_pipeline(job, partial, report):
    """One file through the chain into partial/: the images as aooct-stack
    writes them; returns the number of images."""
    if job["tiff"] or job["hdf5"]:
        return run_stack(job, partial, report)
    Gst.init(None)
    # the elements and their names only: every value is set on the objects
    text = " ! ".join("%s name=%s" % (f, NAMES.get(f, "e%d" % i)) for i, f in enumerate(ELEMENTS))
    try:
        pipeline = Gst.parse_launch(text + " ! " + " ".join(job["tail"]) + " ! " + SINK)
    except GLib.Error as e:
        raise Failed(f"pipeline: {e.message} (is the aooct plugin on GST_PLUGIN_PATH?)")
    for i, factory in enumerate(ELEMENTS):
        el = pipeline.get_by_name(NAMES.get(factory, "e%d" % i))
        if factory == "aooctfilesrc":
            el.set_property("location", job["input"])
        props = dict(job["props"][factory])
        if job["backend"] in ("cpu", "cuda") and factory in job["has_backend"]:
            props.setdefault("backend", job["backend"])
        for key, value in props.items():
            if (factory, key) in FILE_PROPS:
                el.set_property(key, value)
            else:
                Gst.util_set_object_arg(el, key, str(value))
    sink = pipeline.get_by_name("aooct_stack_sink")
    bus = pipeline.get_bus()
    per_volume, written, errors = job["bscans_per_volume"], 0, []
    claimed = set()
    mask = Gst.MessageType.ERROR | Gst.MessageType.WARNING | Gst.MessageType.ELEMENT

    def drain():
        while True:
            msg = bus.pop_filtered(mask)
            if msg is None:
                return
            if msg.type == Gst.MessageType.ERROR:
                err, dbg = msg.parse_error()
                errors.append(f"{msg.src.get_name()}: {err.message}" + (f" ({dbg})" if dbg else ""))
            elif msg.type == Gst.MessageType.ELEMENT and msg.get_structure().get_name() == "aooct-depth-scale":
                write_depth_scale(partial, job["location"], msg.get_structure())

    if pipeline.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
        drain()
        pipeline.set_state(Gst.State.NULL)
        raise Failed(errors[0] if errors else "the pipeline cannot start")
    try:
        while not errors:
            drain()
            if errors:
                break
            # (appsink's action signals: no GstApp typelib needed)
            sample = sink.emit("try-pull-sample", Gst.SECOND // 10)
            if sample is None:
                if sink.get_property("eos"):
                    break
                continue
            volume, bscan = divmod(written, per_volume)
            path = os.path.join(partial, expand_location(job["location"], volume, bscan))
            if path in claimed:
                raise Failed(f"image {written} would be written to {os.path.basename(path)}, over an "
                             "earlier one: give --location fields a separator or more digits")
            claimed.add(path)
            buf = sample.get_buffer()
            if buf.get_size() == 0:
                raise Failed(f"image {written} is empty (0 bytes): the encoder gave nothing")
            ok, info = buf.map(Gst.MapFlags.READ)
            try:
                # ({volume}/... templates: a folder per volume)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as f:
                    f.write(info.data)
            finally:
                buf.unmap(info)
            written += 1
            report(written * job["height"])
        drain()
    except Failed as e:
        errors.append(str(e))
    finally:
        pipeline.set_state(Gst.State.NULL)
    if errors:
        raise Failed(errors[0])
    if written == 0:
        raise Failed("the pipeline produced no images (is the raw file empty?)")
    if written % per_volume:
        raise Failed(f"the last volume is incomplete: {written % per_volume} of {per_volume} B-scans "
                     "(is the raw file shorter than volumes x B-scans x A-lines x samples x bytes?)")
    return written


def write_depth_scale(partial, template, s):
    """aooct-stack's depth-scale.txt, next to the first image."""
    ok1, um = s.get_double("um-per-row")
    ok2, first = s.get_double("first-row-um")
    ok3, rows = s.get_int("rows")
    ok4, crop = s.get_int("crop-start")
    if not (ok1 and ok2 and ok3 and ok4):
        return
    folder = os.path.dirname(os.path.join(partial, expand_location(template, 0, 0)))
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "depth-scale.txt"), "w") as f:
        f.write("# aooct depth scale of the images (aooctnorm): depth of image row r = "
                "first-row-um + r * um-per-row, micrometres in air\n"
                "um-per-row=%.9g\nfirst-row-um=%.9g\nrows=%d\ncrop-start=%d\n" % (um, first, rows, crop))


def os_error(e):
    """An OSError as "FILE: the system's reason" (not a traceback)."""
    where = e.filename if e.filename is not None else "a file"
    return f"{where}: {e.strerror or e}"


def remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.remove(path)


def convert(job, progress):
    """A Ray task: one raw file to OUT/NAME and OUT/NAME.json."""
    p = outputs.owned_paths(job)
    name = job["name"]
    host = socket.gethostname()
    # this run's earlier attempts of this file (a dead worker's): the folder
    # lock keeps every other run out, and main() cleared older runs' ones
    stale = glob.glob(glob.escape(p["hidden_prefix"]) + "partial-*")
    for d in stale:
        shutil.rmtree(d, ignore_errors=True)
    partial = p["hidden_prefix"] + "partial-%s-%d" % (host, os.getpid())
    last = [0.0]

    def report(alines):
        now = time.monotonic()
        if now - last[0] > 0.25:
            last[0] = now
            progress.set.remote(name, alines)

    t0, start = time.monotonic(), time.strftime("%Y-%m-%dT%H:%M:%S%z")
    try:
        # a file past `ulimit -f` is a write error to report (OSError
        # EFBIG, named with its file), not a signal that kills the worker
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    except ValueError:  # (not the worker's main thread)
        pass
    try:
        os.makedirs(partial)
        images = run_pipeline(job, partial, report)
        files = outputs.list_files(partial)
        empty = sorted(f for f, size in files.items() if size == 0)
        if empty:
            raise Failed(f"{empty[0]} is empty (0 bytes)")
        seconds = time.monotonic() - t0
        progress.set.remote(name, images * job["height"])
        # complete: the old record goes first (a folder without its record is
        # never taken for complete), an old output (same settings and
        # damaged, or --overwrite) is swapped out, then the record says done
        for old in (p["meta"], p["meta_tmp"]):
            remove(old)
        old = None
        if os.path.lexists(p["final"]):
            old = p["hidden_prefix"] + "old-%s-%d" % (host, os.getpid())
            os.rename(p["final"], old)
        os.rename(partial, p["final"])
        if old:
            remove(old)
        record = {
            "input": job["input"],
            "input_bytes": os.path.getsize(job["input"]),
            "output": p["final"],
            "images": images,
            "files": files,
            "settings_hash": job["settings_hash"],
            "identity": job["identity"],
            "geometry": {"format": job["format"], "width": job["width"], "height": job["height"],
                         "bscans_per_volume": job["bscans_per_volume"],
                         "bscans": images, "volumes": images // job["bscans_per_volume"]},
            "settings": {"chain": shell_join(chain_tokens(job, False)), "elements": job["props"],
                         "backend": job["backend"], "location": job["location"], "tiff": job["tiff"],
                         "hdf5": job["hdf5"], "compress": job["compress"]},
            "timings": {"start": start, "seconds": round(seconds, 3),
                        "alines_per_second": round(images * job["height"] / seconds) if seconds > 0 else None},
            "attempts": len(stale) + 1,
            "host": host,
            "plugin": plugin_version(),
            "gstreamer": Gst.version_string(),
            "ray": ray.__version__,
        }
        with open(p["meta_tmp"], "w") as f:
            json.dump(record, f, indent=1)
            f.flush()
            os.fsync(f.fileno())
        os.rename(p["meta_tmp"], p["meta"])
    except (Failed, OSError) as e:
        shutil.rmtree(partial, ignore_errors=True)
        msg = os_error(e) if isinstance(e, OSError) else str(e)
        return {"name": name, "input": job["input"], "status": "failed", "error": msg}
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return {"name": name, "input": job["input"], "status": "ok", "images": images,
            "seconds": seconds, "attempts": record["attempts"]}


def usage_error(message):
    print(f"aooct-batch: {message}", file=sys.stderr)
    sys.exit(2)


def fail(message):
    print(f"aooct-batch: {message}", file=sys.stderr)
    sys.exit(1)


def load_settings(path):
    """An aooct-view settings file: [source] geometry, element groups."""
    kf = GLib.KeyFile()
    try:
        kf.load_from_file(path, GLib.KeyFileFlags.NONE)
    except GLib.Error as e:
        usage_error(f"--settings {path}: {e.message}")
    groups, _ = kf.get_groups()
    source, elements = {}, {}
    for g in groups:
        keys, _ = kf.get_keys(g)
        values = {k: kf.get_string(g, k) for k in keys}
        if g == "source":
            source = values
        elif g in ELEMENTS:
            elements[g] = values
        # (other groups: elements of aooct-view's display that this chain has not)
    return source, elements


_probes = {}


def probe(factory):
    """An element of @factory to ask about its properties."""
    if factory not in _probes:
        Gst.init(None)
        _probes[factory] = Gst.ElementFactory.make(factory, None)
        if _probes[factory] is None:
            fail(f"no element {factory}: is the aooct plugin on GST_PLUGIN_PATH?")
    return _probes[factory]


def check_property(factory, key, value, origin):
    """@key is a writable property of @factory and @value a valid value of
    it (what gst-launch would accept), else a usage error naming @origin
    (the option or the settings file's group)."""
    el = probe(factory)
    spec = el.find_property(key) if re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", key) else None
    if spec is None or not spec.flags & GObject.ParamFlags.WRITABLE or key == "name":
        usage_error(f"{origin}: {key!r} is not a property of {factory} that can be set "
                    f"(gst-inspect-1.0 {factory})")
    if (factory, key) == ("aooctfilesrc", "location"):
        usage_error(f"{origin}: aooctfilesrc location is each input file, set per file")
    # read as GStreamer reads a typed value (gst-launch, GstStructure):
    # a string quoted, anything else a plain token of the type
    type_name = GObject.type_name(spec.value_type)
    text = str(value)
    got = None
    if spec.value_type == GObject.TYPE_STRING:
        text = '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')
    if spec.value_type == GObject.TYPE_STRING or re.fullmatch(r"[A-Za-z0-9_.+:-]+", text):
        try:
            got = Gst.Structure.from_string("v, v=(%s)%s" % (type_name, text))[0].get_value("v")
        except (TypeError, AttributeError):
            got = None
    if got is None:
        usage_error(f"{origin}: {factory} {key}={value!r}: not a {type_name}")
    lo, hi = getattr(spec, "minimum", None), getattr(spec, "maximum", None)
    if isinstance(got, (int, float)) and not isinstance(got, bool) and lo is not None and \
            not lo <= got <= hi:
        usage_error(f"{origin}: {factory} {key}={value}: must be {lo}..{hi}")


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="aooct-batch", description="Reconstruct many raw files, one Ray task per file.")
    p.add_argument("inputs", nargs="+", help="raw files or globs ('scans/*.raw')")
    p.add_argument("-o", "--output", required=True, help="output folder")
    p.add_argument("--settings", help="an aooct-view settings file (geometry and element properties; "
                   "an option given here wins over it)")
    p.add_argument("--width", type=int, help="samples per A-line (aooctfilesrc width)")
    p.add_argument("--height", type=int, help="A-lines per B-scan (aooctfilesrc height)")
    p.add_argument("--format", choices=sorted(BYTES), help="sample format (default gray16-le)")
    p.add_argument("--bscans-per-volume", type=int, required=True, help="B-scans per volume")
    p.add_argument("--wavelength-file", help="the spectrometer calibration (aooctkmap)")
    p.add_argument("--wavelength-coeffs", help="lambda(p) coefficients (aooctkmap)")
    p.add_argument("--a2", type=float, help="aooctdisp a2 (default 0)")
    p.add_argument("--a3", type=float, help="aooctdisp a3 (default 0)")
    p.add_argument("--pad-size", type=int, help="aooctpad size (default 0: automatic)")
    p.add_argument("--dynamic-range", type=float, help="aooctnorm dB (default 50)")
    p.add_argument("--backend", choices=("cpu", "cuda", "auto"), default="auto",
                   help="auto: cuda when the Ray cluster has GPUs, else cpu")
    p.add_argument("--tiff", action="store_true",
                   help="one multi-page 16-bit TIFF per volume (aooct-stack --tiff, which it runs: "
                   "on PATH, AOOCT_STACK, or the checkout's build/)")
    p.add_argument("--hdf5", action="store_true",
                   help="one HDF5 file per volume with the chain's metadata (aooct-stack --hdf5, "
                   "which it runs: on PATH, AOOCT_STACK, or the checkout's build/)")
    p.add_argument("--compress", type=int, default=0, help="with --hdf5: deflate level 1..9")
    p.add_argument("--location", help="file name template in each file's folder (aooct-stack's)")
    p.add_argument("--overwrite", action="store_true",
                   help="replace outputs made with other settings, or not by aooct-batch "
                   "(default: refuse, nothing done)")
    p.add_argument("--address", help="Ray cluster: auto or ray://HOST:PORT (default: a local Ray, "
                   "on the loopback interface only)")
    p.add_argument("--workers", type=int, default=0,
                   help="local Ray: files at once (default 0: the cores, or the GPUs for cuda)")
    p.add_argument("--retries", type=int, default=3, help="retries of a file whose worker died (>= 0)")
    p.add_argument("--print-pipeline", action="store_true",
                   help="print the chain with every setting that runs, and stop")
    args = p.parse_args(argv)
    if args.workers < 0:
        usage_error(f"--workers {args.workers}: must be >= 0 (0: the cores, or the GPUs)")
    if args.retries < 0:
        usage_error(f"--retries {args.retries}: must be >= 0")
    if args.address and args.address.startswith("ray://"):
        try:
            import grpc  # noqa: F401  (what Ray's client, ray[client], needs)
        except ImportError:
            usage_error(f"--address {args.address}: Ray's client needs ray[client] (grpcio), which "
                        f"{sys.executable} lacks: {os.path.dirname(sys.executable)}/pip install "
                        f"'ray[client]=={ray.__version__}' (scripts/bootstrap.sh installs it), or "
                        "run aooct-batch on a node of the cluster with --address auto")
    return args


def find_stack():
    here = os.path.dirname(os.path.abspath(__file__))
    build = os.environ.get("AOOCT_BUILD") or os.path.join(here, "..", "build")
    for stack in (os.environ.get("AOOCT_STACK"), shutil.which("aooct-stack"),
                  os.path.join(build, "tools", "aooct-stack")):
        if stack and os.access(stack, os.X_OK):
            return os.path.abspath(stack)
    usage_error("--tiff and --hdf5 run aooct-stack, which is not on PATH nor in the checkout's "
                "build/: install aooct or set AOOCT_STACK to it (e.g. build/tools/aooct-stack)")


def element_props(args, elements, source):
    """Every element's properties: the defaults, then the settings file's
    groups, then the options given on the command line (each checked
    against the element's properties)."""
    props = {f: {} for f in ELEMENTS}
    width = args.width or source.get("width")
    height = args.height or source.get("height")
    props["aooctfilesrc"].update(format=args.format or source.get("format", "gray16-le"),
                                 width=width or 0, height=height or 0)
    props["aooctpad"].update(size=0, factor=2)
    props["aooctdisp"].update(a2=0.0, a3=0.0)
    props["aooctnorm"]["dynamic-range"] = 50.0
    for factory, values in elements.items():
        # every key of the file checked, also one an option overrides
        for key, value in values.items():
            check_property(factory, key, value, f"--settings {args.settings} [{factory}] {key}")
        props[factory].update(values)
    explicit = {("aooctpad", "size"): args.pad_size, ("aooctdisp", "a2"): args.a2,
                ("aooctdisp", "a3"): args.a3, ("aooctnorm", "dynamic-range"): args.dynamic_range}
    for (factory, key), value in explicit.items():
        if value is not None:
            props[factory][key] = value
    if args.wavelength_file or args.wavelength_coeffs:
        for k in ("wavelength-file", "wavelength-coeffs"):
            props["aooctkmap"].pop(k, None)
        if args.wavelength_file:
            props["aooctkmap"]["wavelength-file"] = args.wavelength_file
        if args.wavelength_coeffs:
            props["aooctkmap"]["wavelength-coeffs"] = args.wavelength_coeffs
    for factory in ELEMENTS:
        for key, value in props[factory].items():
            origin = (f"--settings {args.settings} [{factory}] {key}"
                      if factory in elements and key in elements[factory] else f"{factory} {key}")
            check_property(factory, key, value, origin)
            if (factory, key) in FILE_PROPS and value:
                props[factory][key] = os.path.abspath(value)
    return props


def make_jobs(args):
    source, elements = load_settings(args.settings) if args.settings else ({}, {})
    for k in ("width", "height"):
        if k in source and not re.fullmatch(r"[0-9]+", source[k].strip()):
            usage_error(f"--settings {args.settings} [source] {k}={source[k]!r}: not a number")
    props = element_props(args, elements, source)
    src = props["aooctfilesrc"]
    width, height, fmt = int(src["width"]), int(src["height"]), src["format"]
    if width < 1 or height < 1:
        usage_error("--width and --height (or --settings with [source] width, height) are needed")
    if fmt not in BYTES:
        usage_error(f"format {fmt}: expected gray16-le or gray8")
    kmap = props["aooctkmap"]
    if not (kmap.get("wavelength-file") or kmap.get("wavelength-coeffs")):
        usage_error("the calibration is needed: --wavelength-file or --wavelength-coeffs")
    if args.bscans_per_volume < 1:
        usage_error("--bscans-per-volume must be >= 1")
    if args.tiff and args.hdf5:
        usage_error("--tiff and --hdf5: choose one")
    if args.compress and not args.hdf5 or not 0 <= args.compress <= 9:
        usage_error("--compress: a deflate level 0..9, with --hdf5")
    stack = find_stack() if args.tiff or args.hdf5 else None
    location = args.location or ("vol{volume}.tif" if args.tiff else "vol{volume}.h5" if args.hdf5
                                 else "vol{volume}-bscan{bscan}.png")
    try:
        first = expand_location(location, 0, 0)
        # aooct-stack's rules: every image (every TIFF volume) named apart,
        # the name saying the format; a name that still comes round again
        # (fields run together) stops the file in run_pipeline
        if first == expand_location(location, 1, 0):
            raise ValueError(f'--location "{location}" has no {{volume}}: every volume would be '
                             f"written to {first}, each over the one before")
        if not (args.tiff or args.hdf5) and args.bscans_per_volume > 1 and \
                first == expand_location(location, 0, 1):
            raise ValueError(f'--location "{location}" has no {{bscan}}: the B-scans of a volume '
                             f"would all be written to {first}, each over the one before")
        ext = (".tif", ".tiff") if args.tiff else (".h5", ".hdf5") if args.hdf5 else (".png",)
        if not first.lower().endswith(ext):
            raise ValueError(f'--location "{location}" must end in {" or ".join(ext)}: '
                             + ("--tiff writes TIFF files" if args.tiff else
                                "--hdf5 writes HDF5 files" if args.hdf5 else "the images are PNG"))
    except ValueError as e:
        usage_error(f"{e}")
    if os.path.isabs(location) or ".." in location.split(os.sep):
        usage_error("--location is a name inside each file's folder")
    files = []
    for pattern in args.inputs:
        matched = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
        if not matched:
            usage_error(f"{pattern}: no such file")
        files += matched
    names, seen = {}, set()
    for f in files:
        if not os.path.isfile(f):
            usage_error(f"{f}: {'not a file' if os.path.exists(f) else 'no such file'}")
        real = os.path.realpath(f)
        if real in seen:
            continue        # the same file named twice (scans/f1.raw, ./scans/f1.raw)
        seen.add(real)
        name = os.path.splitext(os.path.basename(f))[0]
        if name in names:
            usage_error(f"{names[name]} and {f} would both be written to {name}: rename one")
        names[name] = f
    has_backend = set()
    for factory in ELEMENTS:
        if probe(factory).find_property("backend"):
            has_backend.add(factory)
    read_files = sorted(v for f in ELEMENTS for k, v in props[f].items()
                        if (f, k) in FILE_PROPS and v)
    tail = ["video/x-raw,format=GRAY16_LE"] if args.tiff or args.hdf5 else ["pngenc"]
    jobs = [{"input": os.path.abspath(f), "name": name, "outdir": os.path.abspath(args.output),
             "props": props, "tail": tail, "has_backend": sorted(has_backend),
             "read_files": read_files, "format": fmt, "width": width, "height": height,
             "bscans_per_volume": args.bscans_per_volume, "location": location, "tiff": args.tiff,
             "hdf5": args.hdf5, "compress": args.compress, "stack": stack,
             "backend": args.backend} for name, f in names.items()]
    for job in jobs:
        # (the backend is recorded, not part of the settings' hash: CPU and
        # CUDA give the same images to the spec's tolerance)
        job["description"] = chain_tokens(job, False, False)
    problems = outputs.collisions(jobs)
    if problems:
        usage_error("; ".join(problems) + " (nothing was done)")
    return jobs


@ray.remote(num_cpus=0)
class Progress:
    """A-lines done per file, as the workers report them."""

    def __init__(self):
        self.done = {}

    def set(self, name, alines):
        self.done[name] = alines

    def total(self):
        return sum(self.done.values())


def bar(done_files, files, alines, total):
    frac = alines / total if total else 1.0
    n = int(frac * 30)
    return "\r[%s%s] %d/%d files, %d/%d A-lines (%3.0f %%)" % (
        "#" * n, "." * (30 - n), done_files, files, alines, total, 100 * frac)


def confine_local_ray(argv):
    """A local Ray must not listen on the network (Ray's servers bind every
    interface, unauthenticated): aooct-batch runs itself again in a private
    network namespace whose only interface is loopback (unshare, with
    --map-root-user when not root; files it writes belong to the user).
    Where no namespace can be made (user namespaces turned off), Ray runs
    with token authentication and a random token, and says so.  Returns
    how Ray is confined."""
    if os.environ.get("AOOCT_BATCH_NETNS") == str(os.getpid()):
        return "namespace"
    if os.environ.get("AOOCT_BATCH_TOKEN") == str(os.getpid()):
        return "token"
    unshare = shutil.which("unshare")
    ip = shutil.which("ip") or next((p for p in ("/usr/sbin/ip", "/sbin/ip") if os.access(p, os.X_OK)),
                                    None)
    why = "no unshare (util-linux) or ip (iproute2)"
    if os.environ.get("AOOCT_BATCH_NO_NETNS"):
        # (the tests' way to take the other path)
        why = "AOOCT_BATCH_NO_NETNS is set"
    elif unshare and ip:
        cmd = [unshare, "--net"] + ([] if os.geteuid() == 0 else ["--map-root-user"])
        probe = subprocess.run(cmd + ["--", ip, "link", "set", "lo", "up"], capture_output=True,
                               text=True, errors="replace")
        if probe.returncode == 0:
            script = os.path.abspath(sys.argv[0])
            # (exec keeps the pid: the child knows it is the confined one)
            # (a default route through loopback: Ray's probe for this
            # host's address finds 127.0.0.1 instead of warning)
            inner = ('AOOCT_BATCH_NETNS=$$ && export AOOCT_BATCH_NETNS && "$0" link set lo up && '
                     '"$0" route add default dev lo src 127.0.0.1 && exec "$@"')
            os.execv(unshare, cmd + ["--", "/bin/sh", "-c", inner, ip, sys.executable, script] + argv)
        why = (probe.stderr.strip().splitlines() or ["unshare failed"])[-1]
    import secrets
    print(f"aooct-batch: warning: no private network namespace for the local Ray ({why}): it "
          "listens on every interface, with a random token (RAY_AUTH_MODE=token); allow user "
          "namespaces (kernel.unprivileged_userns_clone, AppArmor) to keep it on loopback",
          file=sys.stderr)
    # (Ray reads its token when it is imported: run again with it set;
    # exec keeps the pid, so the new process knows it is that one)
    env = dict(os.environ, RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=secrets.token_hex(32),
               AOOCT_BATCH_TOKEN=str(os.getpid()))
    os.execve(sys.executable, [sys.executable, os.path.abspath(sys.argv[0])] + argv, env)


def start_ray(args, use_gpu, confined):
    # the workers import this module by name (a function of __main__
    # would be pickled with the gi modules it uses, which cannot be)
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p)
    env = {"env_vars": {"PYTHONPATH": path}}
    try:
        if args.address:
            ray.init(address=args.address, runtime_env=env, logging_level="ERROR",
                     log_to_driver=False)
        else:
            kw = {"num_cpus": args.workers or os.cpu_count()} if not use_gpu else \
                ({"num_gpus": args.workers} if args.workers else {})
            # address="local": a new Ray of its own, whatever RAY_ADDRESS says
            if confined == "namespace":
                # (loopback is the namespace's only interface)
                kw["_node_ip_address"] = "127.0.0.1"
            ray.init(address="local", include_dashboard=False, runtime_env=env,
                     logging_level="ERROR", log_to_driver=False, **kw)
    except Exception as e:  # ConnectionError, TimeoutError, RuntimeError, ValueError ...
        first = (str(e).strip().splitlines() or [type(e).__name__])[0]
        fail(f"{'--address ' + args.address if args.address else 'the local Ray'}: cannot start "
             f"or join Ray: {first}" + (" (no Ray cluster on this machine: start one with "
                                        "`ray start --head`, or leave --address out)"
                                        if args.address == "auto" else ""))


def failure_of(e):
    """What a task's exception says, its cause first (a RayTaskError wraps
    the worker's exception)."""
    cause = getattr(e, "cause", None)
    if isinstance(cause, OSError):
        return os_error(cause)
    if cause is not None:
        e = cause
    first = (str(e).strip().splitlines() or [""])[0]
    return f"{type(e).__name__}: {first}" if first else type(e).__name__


def main(argv):
    args = parse_args(argv)
    jobs = make_jobs(args)
    if args.print_pipeline:
        print(shell_join(chain_tokens(jobs[0], False)))
        return 0
    confined = None if args.address else confine_local_ray(argv)
    out = os.path.abspath(args.output)
    try:
        os.makedirs(out, exist_ok=True)
        if not os.access(out, os.W_OK | os.X_OK):
            raise PermissionError(13, os.strerror(13), out)
        lock = outputs.FolderLock(out)
        busy = lock.acquire()
    except OSError as e:
        fail(f"-o {args.output}: {os_error(e)}")
    if busy:
        fail(busy)
    results, todo, refused = [], [], []
    for job in jobs:
        try:
            job["identity"] = outputs.identity(job)
        except OSError as e:
            fail(os_error(e))
        job["settings_hash"] = outputs.settings_hash(job["identity"])
        st, why = outputs.state(job, job["identity"], job["settings_hash"])
        if st == "complete":
            results.append({"name": job["name"], "input": job["input"], "status": "skipped"})
        elif st == "redo" or args.overwrite:
            todo.append(job)
        else:
            refused.append(f"{os.path.join(args.output, job['name'])} ({job['input']}): {why}")
    if refused:
        for r in refused:
            print(f"aooct-batch: {r}", file=sys.stderr)
        usage_error(f"{len(refused)} output(s) would be replaced: give --overwrite to replace them, "
                    "or another -o (nothing was done)")
    # an earlier run's dead attempts (under the lock no other run is here)
    for job in jobs:
        for d in glob.glob(glob.escape(outputs.owned_paths(job)["hidden_prefix"]) + "partial-*"):
            shutil.rmtree(d, ignore_errors=True)
    if todo:
        use_gpu = args.backend == "cuda"
        start_ray(args, use_gpu, confined)
        if args.backend == "auto":
            use_gpu = ray.cluster_resources().get("GPU", 0) >= 1
        for job in todo:
            job["backend"] = "cuda" if use_gpu else "cpu"
        res = {"num_gpus": 1, "num_cpus": 1} if use_gpu else {"num_cpus": 1}
        task = ray.remote(convert).options(max_retries=args.retries, **res)
        progress = Progress.remote()
        # what a file holds, in A-lines, for the bar
        total = sum(os.path.getsize(j["input"]) // (j["width"] * BYTES[j["format"]]) for j in todo)
        pending = {task.remote(j, progress): j for j in todo}
        tty = sys.stderr.isatty()
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
            for ref in ready:
                job = pending.pop(ref)
                try:
                    r = ray.get(ref)
                except Exception as e:  # the worker died more often than --retries, or a bug
                    r = {"name": job["name"], "input": job["input"], "status": "failed",
                         "error": failure_of(e)}
                results.append(r)
                if not tty:
                    print("aooct-batch: %s: %s" % (r["name"], r["status"]), file=sys.stderr)
            if tty:
                print(bar(len(results), len(jobs), ray.get(progress.total.remote()), total),
                      end="", file=sys.stderr)
        if tty:
            print(file=sys.stderr)
        ray.shutdown()
    failed = 0
    for r in sorted(results, key=lambda r: r["name"]):
        if r["status"] == "ok":
            print("ok       %s -> %s (%d images, %.1f s%s)" % (
                r["input"], os.path.join(args.output, r["name"]), r["images"], r["seconds"],
                ", attempt %d" % r["attempts"] if r["attempts"] > 1 else ""))
        elif r["status"] == "skipped":
            print("skipped  %s (complete in %s, same settings)" % (
                r["input"], os.path.join(args.output, r["name"])))
        else:
            failed += 1
            print("FAILED   %s: %s" % (r["input"], r["error"]))
    print("aooct-batch: %d files: %d done, %d skipped (complete), %d failed%s" % (
        len(results), sum(r["status"] == "ok" for r in results),
        sum(r["status"] == "skipped" for r in results), failed,
        "" if not todo or not confined else
        "; Ray on loopback only" if confined == "namespace" else "; Ray with a token"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
