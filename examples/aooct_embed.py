#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""aooct_embed.py: the aooct chain from Python, B-scans as NumPy arrays.

Builds

    aooctsrc ! aooctdcsub ! aooctpad ! aooctkmap ! aooctdisp ! aooctfft ! tee
      tee. ! queue ! aooctnorm ! appsink name=image     (GRAY8 B-scans)
      tee. ! queue ! appsink name=depth                 (complex depth data)

pulls every B-scan from both appsinks into NumPy arrays:

    image  uint8      (rows, A-lines)                 what aooctnorm displays
    depth  complex64  (B-scans, A-lines, samples)     aooctfft's output, its
                                                      geometry read from the caps

and while the pipeline is PLAYING changes what a user tunes by hand:

    phase 1  no dispersion compensation
    phase 2  aooctdisp a2=8 a3=-2 (cancels the synthetic camera's mismatch)
    phase 3  aooctfft window=hann (lower side lobes, a wider main lobe)

The sample is a mirror, so each change shows on the arrays: the mirror's
peak in the depth data gets narrower in phase 2 and wider again in phase 3;
the GRAY8 image shows the narrowing too. With --check the program exits 1
when a change has not had its effect (the test suite runs it that way).

Needs python3-gi, gir1.2-gstreamer-1.0, python3-numpy (scripts/bootstrap.sh
installs them) and the aooct plugin on GST_PLUGIN_PATH (or installed).
Debian's python3-gi is in the system's Python, /usr/bin/python3, not in a
pyenv or venv one (see docs/howto.md, "From Python"):

    GST_PLUGIN_PATH=build/gst /usr/bin/python3 examples/aooct_embed.py
"""
import argparse
import sys

try:
    import gi
except ImportError:
    # a pyenv or venv python3 first on PATH: say which Python has gi
    sys.exit(
        f"aooct_embed.py: this Python ({sys.executable}) has no gi (PyGObject). "
        "Run it with the system's /usr/bin/python3 (Debian's python3-gi), "
        "or in a venv made with --system-site-packages, or pip install "
        "PyGObject into it (docs/howto.md, 'From Python')."
    )

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

import numpy as np  # noqa: E402

PIPELINE = (
    # a live camera looking at a mirror, 64 A-lines per B-scan
    "aooctsrc phantom=mirror alines=64 seed=1 is-live=true framerate=200/1 "
    "! aooctdcsub ! aooctpad "
    # aooctsrc's spectrometer calibration (its default)
    '! aooctkmap wavelength-coeffs="785,0.125,1e-05,-2e-09" '
    "! aooctdisp name=disp ! aooctfft name=fft ! tee name=t "
    # at most two B-scans waiting in each branch, so that a change made now
    # shows up a few B-scans later
    "t. ! queue max-size-buffers=2 ! aooctnorm name=norm log=false "
    "! video/x-raw,format=GRAY8 ! appsink name=image max-buffers=2 sync=false "
    "t. ! queue max-size-buffers=2 "
    "! appsink name=depth caps=application/x-aooct max-buffers=2 sync=false"
)


def pull(pipeline, sink):
    """The next sample of @sink, or exit with the pipeline's error."""
    sample = sink.emit("try-pull-sample", 10 * Gst.SECOND)
    if sample is None:
        msg = pipeline.get_bus().pop_filtered(Gst.MessageType.ERROR)
        if msg:
            err, _ = msg.parse_error()
            sys.exit(f"aooct_embed: {msg.src.get_name()}: {err.message}")
        sys.exit("aooct_embed: no B-scan within 10 s")
    return sample


def gray8_array(sample):
    """The GRAY8 B-scan as a (rows, A-lines) uint8 array (a copy)."""
    s = sample.get_caps().get_structure(0)
    width, height = s.get_value("width"), s.get_value("height")
    buf = sample.get_buffer()
    ok, info = buf.map(Gst.MapFlags.READ)
    try:
        # GRAY8 rows are padded to 4 bytes (GStreamer's default stride)
        stride = (width + 3) & ~3
        rows = np.frombuffer(info.data, np.uint8, count=stride * height)
        return rows.reshape(height, stride)[:, :width].copy()
    finally:
        buf.unmap(info)


def depth_array(sample):
    """aooctfft's output as a (B-scans, A-lines, samples) complex64 array.

    The geometry comes from the application/x-aooct caps (docs/caps.md):
    `samples` per A-line (P2), `alines` per B-scan, `bscans` per buffer;
    complex samples are interleaved float32 re, im, i.e. NumPy complex64.
    """
    s = sample.get_caps().get_structure(0)
    assert s.get_value("domain") == "depth"
    assert s.get_value("sample-type") == "complex"
    shape = (s.get_value("bscans"), s.get_value("alines"),
             s.get_value("samples"))
    buf = sample.get_buffer()
    ok, info = buf.map(Gst.MapFlags.READ)
    try:
        data = np.frombuffer(info.data, np.complex64)
        if data.size != shape[0] * shape[1] * shape[2]:
            sys.exit(f"aooct_embed: depth buffer of {data.size} samples, "
                     f"caps say {shape}")
        return data.reshape(shape).copy()
    finally:
        buf.unmap(info)


def peak_width(depth, pad_size):
    """Mean number of depth bins at or above half the maximum intensity per
    A-line, over the bins up to P1/2 (the mirror's peak width)."""
    intensity = np.abs(depth[..., : pad_size // 2]) ** 2
    peak = intensity.max(axis=-1, keepdims=True)
    return float(np.mean(np.sum(intensity >= 0.5 * peak, axis=-1)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frames-per-phase", type=int, default=8,
                    help="B-scans per phase (>= 4, default 8)")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 unless each change had its expected effect")
    args = ap.parse_args()
    if args.frames_per_phase < 4:
        ap.error("--frames-per-phase must be >= 4")

    Gst.init(None)
    try:
        pipeline = Gst.parse_launch(PIPELINE)
    except gi.repository.GLib.Error as e:
        sys.exit(f"aooct_embed: {e.message} (is the aooct plugin on "
                 "GST_PLUGIN_PATH?)")
    disp, fft = pipeline.get_by_name("disp"), pipeline.get_by_name("fft")
    norm = pipeline.get_by_name("norm")
    image_sink = pipeline.get_by_name("image")
    depth_sink = pipeline.get_by_name("depth")
    if pipeline.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
        sys.exit("aooct_embed: cannot start the pipeline")

    widths, rows_bright = [], []
    for phase in range(3):
        # the changes, made from the application's thread while the pipeline
        # plays; each applies from the next buffer the element gets
        if phase == 1:
            disp.set_property("a2", 8.0)
            disp.set_property("a3", -2.0)
        elif phase == 2:
            Gst.util_set_object_arg(fft, "window", "hann")
        w = b = 0.0
        for i in range(args.frames_per_phase):
            image = gray8_array(pull(pipeline, image_sink))
            depth_sample = pull(pipeline, depth_sink)
            depth = depth_array(depth_sample)
            pad_size = depth_sample.get_caps().get_structure(0).get_value(
                "pad-size")
            # measure only the last B-scans of a phase: the first ones may
            # have been computed before the change
            if i >= args.frames_per_phase - 2:
                w += peak_width(depth, pad_size) / 2
                b += float(np.mean(np.sum(image >= 128, axis=0))) / 2
        widths.append(w)
        rows_bright.append(b)
        print(f"phase {phase + 1}: image {image.shape[0]} x {image.shape[1]} "
              f"GRAY8, depth data {depth.shape} complex64; mirror peak "
              f"{w:.2f} bins wide at half maximum, {b:.2f} image rows above "
              "half grey")
    # the depth scale: micrometres in air per image row (and per depth bin of
    # the complex data), from aooctkmap's calibration
    um_per_row = norm.get_property("depth-per-row")
    print(f"depth scale: {um_per_row:.4f} um per row; image row r is at "
          f"{um_per_row:.4f} * r um (crop-start 0)")
    pipeline.set_state(Gst.State.NULL)

    if args.check:
        failures = []
        if not um_per_row > 0:
            failures.append("no depth scale (depth-per-row is 0)")
        if not widths[1] < 0.7 * widths[0]:
            failures.append("a2/a3 did not narrow the peak in the depth data")
        if not rows_bright[1] < 0.7 * rows_bright[0]:
            failures.append("a2/a3 did not narrow the peak in the image")
        if not widths[2] > 1.2 * widths[1]:
            failures.append("window=hann did not widen the main lobe")
        for f in failures:
            print(f"aooct_embed: FAILED: {f}", file=sys.stderr)
        return 1 if failures else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
