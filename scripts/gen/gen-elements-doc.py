#!/usr/bin/env python3
"""Writes docs/elements.md, the element reference, from gst-inspect-1.0.

    GST_PLUGIN_PATH=build/gst scripts/gen/gen-elements-doc.py > docs/elements.md

Every element of the aooct plugin gets a section with its description and
a table of all its properties as gst-inspect-1.0 reports them: type,
range, default, when it may be changed, and the blurb (which states the
unit).  tests/pipelines/test-docs.sh regenerates it and fails when the committed file
is out of date or misses an element or a property.  Only what does not
depend on the build (CUDA or not) is written: pad templates are in
docs/caps.md.
"""
import re
import subprocess
import sys

# GstObject's own: every element has them.  GstBaseSrc's automatic-eos is a
# property only from GStreamer 1.24 on: left out, so that the file is the
# same whichever GStreamer (1.22, 1.24, 1.26) it is generated with
# (tests/pipelines/test-docs.sh skips the same names).
SKIP = {"name", "parent", "automatic-eos"}


def inspect(*args):
    return subprocess.run(["gst-inspect-1.0", *args], check=True,
                          capture_output=True, text=True).stdout


def elements():
    # gst-inspect-1.0 PLUGIN lists its features as "  name: long name"
    names = re.findall(r"^  (aooct[a-z0-9]*): ", inspect("aooct"), re.M)
    if not names:
        sys.exit("gen-elements-doc: no aooct elements found "
                 "(is GST_PLUGIN_PATH set to the build's gst folder?)")
    return sorted(set(names), key=order)


def order(name):
    chain = ["aooctsrc", "aooctdcsub", "aooctpad", "aooctkmap", "aooctdisp",
             "aooctfft", "aooctnorm", "aooctbin"]
    return (chain.index(name) if name in chain else len(chain), name)


def parse(name):
    """(details dict, [property dicts]) from gst-inspect-1.0 NAME."""
    out = inspect(name).splitlines()
    details = {}
    props = []
    section = None
    for line in out:
        if line and not line.startswith(" "):
            section = line.rstrip(":")
            continue
        if section == "Factory Details":
            m = re.match(r"^  (Long-name|Klass|Description)\s+(.*)$", line)
            if m:
                details[m.group(1)] = m.group(2).strip()
        elif section == "Element Properties":
            m = re.match(r"^  (\S+)\s*: (.*)$", line)
            if m and not line.startswith("    "):
                props.append({"name": m.group(1), "blurb": m.group(2).strip(),
                              "flags": "", "type": "", "values": []})
                continue
            s = line.strip()
            if not props or not s:
                continue
            p = props[-1]
            if s.startswith("flags:"):
                p["flags"] = s[len("flags:"):].strip()
            elif re.match(r"^\(-?\d+\): ", s):
                m = re.match(r"^\((-?\d+)\): (\S+)\s+- (.*)$", s)
                if m:
                    p["values"].append((m.group(1), m.group(2), m.group(3)))
            elif not p["type"]:
                p["type"] = s
    return details, [p for p in props if p["name"] not in SKIP]


def when(flags):
    if "changeable in NULL, READY, PAUSED or PLAYING state" in flags:
        return "while PLAYING"
    if "changeable only in NULL or READY state" in flags:
        return "in NULL or READY"
    if "changeable only in NULL state" in flags:
        return "in NULL"
    if "writable" not in flags:
        return "read-only"
    return "any time"


def split_type(t):
    """'Double. Range: a - b Default: c' -> ('Double', 'a .. b', 'c')."""
    kind, rng, default = t, "", ""
    m = re.match(r"^(.*?)\. (.*)$", t)
    if m:
        kind, rest = m.group(1), m.group(2)
        md = re.search(r"Default: (.*)$", rest)
        if md:
            default = md.group(1).strip()
            rest = rest[:md.start()]
        mr = re.search(r"Range:\s*(.*?)\s*-\s+(\S.*?)\s*$", rest)
        if mr:
            rng = f"{mr.group(1).strip()} .. {mr.group(2).strip()}"
    else:
        # Enum "GstX" Default: 0, "off"
        md = re.search(r"^(.*?) Default: (.*)$", t)
        if md:
            kind, default = md.group(1), md.group(2).strip()
            me = re.fullmatch(r'-?\d+, "(.*)"', default)
            if me:
                default = f"`{me.group(1)}`"
    return kind.strip(), rng, default


def cell(s):
    return s.replace("|", "\\|")


def main():
    w = sys.stdout.write
    w("# Element reference\n\n")
    w("Generated from `gst-inspect-1.0` by `scripts/gen/gen-elements-doc.py`; "
      "do not edit by hand (tests/pipelines/test-docs.sh fails when this file is out "
      "of date).  Units are in each description.  *Changeable*: "
      "\"while PLAYING\" properties apply at the next buffer; the others "
      "apply at the next start or negotiation (changed while PLAYING, "
      "they give a warning).  A value outside a property's range is not "
      "an error under `gst-launch-1.0`: GLib prints a warning and keeps "
      "the default, and the pipeline runs (docs/howto.md, \"Property "
      "values\").  Caps: "
      "[caps.md](caps.md); calibration files: "
      "[calibration-files.md](calibration-files.md).\n\n")
    names = elements()
    for n in names:
        w(f"- [`{n}`](#{n})\n")
    for n in names:
        d, props = parse(n)
        w(f"\n## {n}\n\n")
        w(f"**{d.get('Long-name', n)}** ({d.get('Klass', '')}). "
          f"{d.get('Description', '')}\n\n")
        w("| property | type | range | default | changeable | description |\n")
        w("|---|---|---|---|---|---|\n")
        for p in props:
            kind, rng, default = split_type(p["type"])
            if p["values"] and '"GstVideoFormat"' in kind:
                # GStreamer's own video format list grows with its version
                # (1.22 vs 1.26): the file must not depend on it; the
                # blurb says which formats the element takes
                rng = "a GstVideoFormat name, e.g. `gray16-le`, `gray8`"
            elif p["values"]:
                rng = ", ".join(f"`{v[1]}` ({v[2]})" for v in p["values"])
            w(f"| `{p['name']}` | {cell(kind)} | {cell(rng)} | "
              f"{cell(default)} | {when(p['flags'])} | {cell(p['blurb'])} |\n")


if __name__ == "__main__":
    main()
