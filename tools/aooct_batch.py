#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""aooct-batch (tools/aooct-batch runs this module): reconstructs many raw
files at once, one Ray task per file.

    .venv/bin/python tools/aooct-batch --width 832 --height 240 \\
        --bscans-per-volume 100 --wavelength-file cal.txt -o out/ 'scans/*.raw'

Each file goes through the aooct chain in a Ray worker (one pipeline made
with Gst.parse_launch, no shell) and comes out as aooct-stack writes it:
OUT/NAME/vol000-bscan0000.png ... (with --tiff one multi-page TIFF per
volume, OUT/NAME/vol000.tif, with --hdf5 one HDF5 file per volume,
OUT/NAME/vol000.h5: these aooct-stack --tiff / --hdf5 write themselves,
which the worker runs with the chain and its settings written into the
description) and
depth-scale.txt, plus OUT/NAME.json
(settings, geometry, timings, plugin version).  A task asks Ray for one GPU
(--backend cuda) or one CPU (--backend cpu); without --address Ray runs on
this machine with --workers tasks at once, --address auto or ray://HOST:PORT
joins a cluster (every node needs the aooct plugin and this Python
environment).

Nothing is lost: a file is written under OUT/.NAME.partial-* and renamed to
OUT/NAME when complete, and OUT/NAME.json written last; a re-run skips the
files whose outputs are complete and redoes the others; a worker that dies
mid-file (killed, out of memory) is retried by Ray (--retries).  The exit
status is 1 when any file failed (each named at the end with the element's
error), 2 on a usage error.  Geometry and chain settings come from options
or from an aooct-view settings file (--settings: its [source] width,
height, format and its per-element groups).

Needs gi (PyGObject) and ray: scripts/bootstrap.sh makes .venv from the
system's /usr/bin/python3 with its python3-gi and installs ray into it.
"""
import argparse
import glob
import json
import os
import shutil
import socket
import subprocess
import sys
import time

try:
    import gi

    gi.require_version("Gst", "1.0")
    from gi.repository import GLib, Gst
except (ImportError, ValueError):
    sys.exit(
        f"aooct-batch: this Python ({sys.executable}) has no gi (PyGObject) "
        "with GStreamer: run it with the project's .venv/bin/python "
        "(scripts/bootstrap.sh makes it from /usr/bin/python3 and its "
        "python3-gi), or pip install PyGObject into your environment "
        "(docs/howto.md, 'From Python')."
    )
try:
    import ray
except ImportError:
    sys.exit(
        f"aooct-batch: this Python ({sys.executable}) has no ray: run it "
        "with .venv/bin/python after scripts/bootstrap.sh (which installs "
        "ray from PyPI), or pip install ray"
    )

# the chain; aooctfilesrc's location and aooctkmap's wavelength-file are set
# on the element objects, never written into this text (any path works)
CHAIN = ("aooctfilesrc name=src format={format} width={width} height={height}"
         " ! aooctdcsub ! aooctpad size={pad_size} factor=2 ! aooctkmap name=kmap{coeffs}"
         " ! aooctdisp a2={a2} a3={a3} ! aooctfft ! aooctnorm dynamic-range={dynamic_range}")
# what aooct-stack appends (tools/aooct-stack.c)
SINK = " ! appsink name=aooct_stack_sink sync=false max-buffers=8"
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


def elements(pipeline):
    """The pipeline's elements (a Gst.Iterator is not a Python iterable
    without gst-python's overrides)."""
    it, out = pipeline.iterate_recurse(), []
    while True:
        res, el = it.next()
        if res == Gst.IteratorResult.OK:
            out.append(el)
        elif res == Gst.IteratorResult.RESYNC:
            it.resync()
            out = []
        else:
            return out


class Failed(Exception):
    pass


def quote(value):
    """A property value in a gst-launch description: double-quoted, with
    backslash before '"' and '\\' (gst_parse_launch takes them off)."""
    return '"%s"' % str(value).replace("\\", "\\\\").replace('"', '\\"')


def launch_description(job):
    """The job's pipeline as aooct-stack takes it: the properties that
    run_pipeline sets on the element objects written into the description,
    quoted (any file name works)."""
    Gst.init(None)
    out = []
    for part in job["pipeline"].split(" ! "):
        factory = part.split()[0]
        props = {}
        if factory == "aooctfilesrc":
            props["location"] = job["input"]
        if factory == "aooctkmap" and job.get("wavelength_file"):
            props["wavelength-file"] = job["wavelength_file"]
        if factory.startswith("aooct"):
            el = Gst.ElementFactory.make(factory, None)
            if el is None:
                raise Failed(f"no element {factory} (is the aooct plugin on GST_PLUGIN_PATH?)")
            if job["backend"] and el.find_property("backend"):
                props["backend"] = job["backend"]
            props.update(job["settings"].get(factory, {}))
        out.append(part + "".join(" %s=%s" % (k, quote(v)) for k, v in props.items()))
    return " ! ".join(out)


def run_stack(job, partial, report):
    """--tiff, --hdf5: aooct-stack itself writes the volumes into partial/
    (the same writer, so the same bytes and metadata); returns the
    images."""
    argv = [job["stack"], "--tiff" if job["tiff"] else "--hdf5",
            "--bscans-per-volume=%d" % job["bscans_per_volume"],
            "--location=" + os.path.join(partial, job["location"])]
    if job.get("compress"):
        argv.append("--compress=%d" % job["compress"])
    argv += ["--", launch_description(job)]
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
    try:
        pipeline = Gst.parse_launch(job["pipeline"] + SINK)
    except GLib.Error as e:
        raise Failed(f"pipeline: {e.message} (is the aooct plugin on GST_PLUGIN_PATH?)")
    pipeline.get_by_name("src").set_property("location", job["input"])
    if job.get("wavelength_file"):
        pipeline.get_by_name("kmap").set_property("wavelength-file", job["wavelength_file"])
    for el in elements(pipeline):
        factory = el.get_factory().get_name()
        if job["backend"] and el.find_property("backend") and factory.startswith("aooct"):
            Gst.util_set_object_arg(el, "backend", job["backend"])
        for key, value in job["settings"].get(factory, {}).items():
            Gst.util_set_object_arg(el, key, value)
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
            ok, info = buf.map(Gst.MapFlags.READ)
            with open(path, "wb") as f:
                f.write(info.data)
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
    with open(os.path.join(folder, "depth-scale.txt"), "w") as f:
        f.write("# aooct depth scale of the images (aooctnorm): depth of image row r = "
                "first-row-um + r * um-per-row, micrometres in air\n"
                "um-per-row=%.9g\nfirst-row-um=%.9g\nrows=%d\ncrop-start=%d\n" % (um, first, rows, crop))


def convert(job, progress):
    """A Ray task: one raw file to OUT/NAME and OUT/NAME.json."""
    out, name = job["outdir"], job["name"]
    final, meta = os.path.join(out, name), os.path.join(out, name + ".json")
    # an earlier attempt's leftovers: Ray runs one attempt of a task at a
    # time, so they are a dead worker's
    stale = glob.glob(os.path.join(glob.escape(out), "." + glob.escape(name) + ".partial-*"))
    for d in stale:
        shutil.rmtree(d, ignore_errors=True)
    partial = os.path.join(out, ".%s.partial-%s-%d" % (name, socket.gethostname(), os.getpid()))
    os.makedirs(os.path.dirname(os.path.join(partial, expand_location(job["location"], 0, 0))), exist_ok=True)
    last = [0.0]

    def report(alines):
        now = time.monotonic()
        if now - last[0] > 0.25:
            last[0] = now
            progress.set.remote(name, alines)

    t0, start = time.monotonic(), time.strftime("%Y-%m-%dT%H:%M:%S%z")
    try:
        images = run_pipeline(job, partial, report)
    except Failed as e:
        shutil.rmtree(partial, ignore_errors=True)
        return {"name": name, "input": job["input"], "status": "failed", "error": str(e)}
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    seconds = time.monotonic() - t0
    progress.set.remote(name, images * job["height"])
    # complete: replace an older output, then the JSON says it is done
    for old in (meta, final):
        if os.path.isdir(old):
            shutil.rmtree(old)
        elif os.path.exists(old):
            os.remove(old)
    os.rename(partial, final)
    record = {
        "input": job["input"],
        "input_bytes": os.path.getsize(job["input"]),
        "output": final,
        "images": images,
        "files": sorted(os.listdir(final)),
        "geometry": {"format": job["format"], "width": job["width"], "height": job["height"],
                     "bscans_per_volume": job["bscans_per_volume"],
                     "bscans": images, "volumes": images // job["bscans_per_volume"]},
        "settings": {"pipeline": job["pipeline"], "wavelength_file": job.get("wavelength_file"),
                     "backend": job["backend"], "elements": job["settings"],
                     "location": job["location"], "tiff": job["tiff"], "hdf5": job["hdf5"],
                     "compress": job["compress"]},
        "timings": {"start": start, "seconds": round(seconds, 3),
                    "alines_per_second": round(images * job["height"] / seconds) if seconds > 0 else None},
        "attempts": len(stale) + 1,
        "host": socket.gethostname(),
        "plugin": plugin_version(),
        "gstreamer": Gst.version_string(),
        "ray": ray.__version__,
    }
    with open(meta + ".tmp", "w") as f:
        json.dump(record, f, indent=1)
    os.rename(meta + ".tmp", meta)
    return {"name": name, "input": job["input"], "status": "ok", "images": images,
            "seconds": seconds, "attempts": record["attempts"]}


def complete(outdir, name):
    """The output of NAME is complete: its JSON and every file it lists."""
    try:
        with open(os.path.join(outdir, name + ".json")) as f:
            record = json.load(f)
        return all(os.path.isfile(os.path.join(outdir, name, x)) for x in record["files"]) and \
            len(record["files"]) > 0
    except (OSError, ValueError, KeyError, TypeError):
        return False


def usage_error(message):
    print(f"aooct-batch: {message}", file=sys.stderr)
    sys.exit(2)


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
        elif g.startswith("aooct") and g not in ("aooctsrc",):
            elements[g] = values
    return source, elements


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="aooct-batch", description="Reconstruct many raw files, one Ray task per file.")
    p.add_argument("inputs", nargs="+", help="raw files or globs ('scans/*.raw')")
    p.add_argument("-o", "--output", required=True, help="output folder")
    p.add_argument("--settings", help="an aooct-view settings file (geometry and element properties)")
    p.add_argument("--width", type=int, help="samples per A-line (aooctfilesrc width)")
    p.add_argument("--height", type=int, help="A-lines per B-scan (aooctfilesrc height)")
    p.add_argument("--format", choices=sorted(BYTES), help="sample format (default gray16-le)")
    p.add_argument("--bscans-per-volume", type=int, required=True, help="B-scans per volume")
    p.add_argument("--wavelength-file", help="the spectrometer calibration (aooctkmap)")
    p.add_argument("--wavelength-coeffs", help="lambda(p) coefficients (aooctkmap)")
    p.add_argument("--a2", type=float, default=0.0)
    p.add_argument("--a3", type=float, default=0.0)
    p.add_argument("--pad-size", type=int, default=0, help="aooctpad size (0: automatic)")
    p.add_argument("--dynamic-range", type=float, default=50.0, help="aooctnorm dB")
    p.add_argument("--backend", choices=("cpu", "cuda", "auto"), default="auto",
                   help="auto: cuda when the Ray cluster has GPUs, else cpu")
    p.add_argument("--tiff", action="store_true",
                   help="one multi-page 16-bit TIFF per volume (aooct-stack --tiff, which it runs: "
                   "on PATH, or AOOCT_STACK)")
    p.add_argument("--hdf5", action="store_true",
                   help="one HDF5 file per volume with the chain's metadata (aooct-stack --hdf5, "
                   "which it runs: on PATH, or AOOCT_STACK)")
    p.add_argument("--compress", type=int, default=0, help="with --hdf5: deflate level 1..9")
    p.add_argument("--location", help="file name template in each file's folder (aooct-stack's)")
    p.add_argument("--address", help="Ray cluster: auto or ray://HOST:PORT (default: a local Ray)")
    p.add_argument("--workers", type=int, default=0,
                   help="local Ray: files at once (default: the cores, or the GPUs for cuda)")
    p.add_argument("--retries", type=int, default=3, help="retries of a file whose worker died")
    p.add_argument("--print-pipeline", action="store_true", help="print the chain and stop")
    return p.parse_args(argv)


def make_jobs(args):
    source, elements = load_settings(args.settings) if args.settings else ({}, {})
    width = args.width or int(source.get("width", 0))
    height = args.height or int(source.get("height", 0))
    fmt = args.format or source.get("format", "gray16-le")
    if width < 1 or height < 1:
        usage_error("--width and --height (or --settings with [source] width, height) are needed")
    if fmt not in BYTES:
        usage_error(f"format {fmt}: expected gray16-le or gray8")
    kmap = elements.get("aooctkmap", {})
    if not (args.wavelength_file or args.wavelength_coeffs or kmap):
        usage_error("the calibration is needed: --wavelength-file or --wavelength-coeffs")
    if args.bscans_per_volume < 1:
        usage_error("--bscans-per-volume must be >= 1")
    if args.tiff and args.hdf5:
        usage_error("--tiff and --hdf5: choose one")
    if args.compress and not args.hdf5 or not 0 <= args.compress <= 9:
        usage_error("--compress: a deflate level 0..9, with --hdf5")
    stack = None
    if args.tiff or args.hdf5:
        stack = os.environ.get("AOOCT_STACK") or shutil.which("aooct-stack")
        if not stack or not os.access(stack, os.X_OK):
            usage_error("--tiff and --hdf5 run aooct-stack, which is not on PATH: install aooct or "
                        "set AOOCT_STACK to it (e.g. build/tools/aooct-stack)")
        stack = os.path.abspath(stack)
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
    pipeline = CHAIN.format(
        format=fmt, width=width, height=height, pad_size=args.pad_size, a2=args.a2, a3=args.a3,
        dynamic_range=args.dynamic_range,
        coeffs=' wavelength-coeffs="%s"' % args.wavelength_coeffs if args.wavelength_coeffs else "")
    pipeline += " ! video/x-raw,format=GRAY16_LE" if args.tiff or args.hdf5 else " ! pngenc"
    files = []
    for pattern in args.inputs:
        matched = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
        if not matched:
            usage_error(f"{pattern}: no such file")
        files += matched
    names = {}
    for f in files:
        name = os.path.splitext(os.path.basename(f))[0]
        if name in names and names[name] != f:
            usage_error(f"{names[name]} and {f} would both be written to {name}: rename one")
        names[name] = f
    return [{"input": os.path.abspath(f), "name": name, "outdir": os.path.abspath(args.output),
             "pipeline": pipeline, "format": fmt, "width": width, "height": height,
             "bscans_per_volume": args.bscans_per_volume, "location": location, "tiff": args.tiff,
             "hdf5": args.hdf5, "compress": args.compress, "stack": stack,
             "wavelength_file": os.path.abspath(args.wavelength_file) if args.wavelength_file else None,
             "backend": args.backend, "settings": elements} for name, f in names.items()]


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


def main(argv):
    args = parse_args(argv)
    jobs = make_jobs(args)
    if args.print_pipeline:
        print(jobs[0]["pipeline"])
        return 0
    os.makedirs(args.output, exist_ok=True)
    results, todo = [], []
    for job in jobs:
        # an earlier run's dead attempts (this run's are the workers' to clear)
        for d in glob.glob(os.path.join(glob.escape(job["outdir"]), "." + glob.escape(job["name"]) + ".partial-*")):
            shutil.rmtree(d, ignore_errors=True)
        if complete(job["outdir"], job["name"]):
            results.append({"name": job["name"], "input": job["input"], "status": "skipped"})
        else:
            todo.append(job)
    if todo:
        use_gpu = args.backend == "cuda"
        # the workers import this module by name (a function of __main__
        # would be pickled with the gi modules it uses, which cannot be)
        here = os.path.dirname(os.path.abspath(__file__))
        path = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p)
        env = {"env_vars": {"PYTHONPATH": path}}
        if args.address:
            ray.init(address=args.address, runtime_env=env, logging_level="ERROR", log_to_driver=False)
        else:
            kw = {"num_cpus": args.workers or os.cpu_count()} if not use_gpu else \
                ({"num_gpus": args.workers} if args.workers else {})
            ray.init(include_dashboard=False, runtime_env=env, logging_level="ERROR",
                     log_to_driver=False, **kw)
        if args.backend == "auto":
            use_gpu = ray.cluster_resources().get("GPU", 0) >= 1
        res = {"num_gpus": 1, "num_cpus": 1} if use_gpu else {"num_cpus": 1}
        task = ray.remote(convert).options(max_retries=args.retries, **res)
        progress = Progress.remote()
        # what a file holds, in A-lines, for the bar
        total = sum(os.path.getsize(j["input"]) // (j["width"] * BYTES[j["format"]])
                    if os.path.isfile(j["input"]) else 0 for j in todo)
        pending = {task.remote(j, progress): j for j in todo}
        tty = sys.stderr.isatty()
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
            for ref in ready:
                job = pending.pop(ref)
                try:
                    r = ray.get(ref)
                except Exception as e:  # the worker died more often than --retries
                    r = {"name": job["name"], "input": job["input"], "status": "failed",
                         "error": f"{type(e).__name__}: {str(e).splitlines()[0]}"}
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
            print("skipped  %s (complete in %s)" % (r["input"], os.path.join(args.output, r["name"])))
        else:
            failed += 1
            print("FAILED   %s: %s" % (r["input"], r["error"]))
    print("aooct-batch: %d files: %d done, %d skipped (complete), %d failed" % (
        len(results), sum(r["status"] == "ok" for r in results),
        sum(r["status"] == "skipped" for r in results), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
