#!/usr/bin/env python3
"""Fails when GST_PTR_FORMAT or GST_SEGMENT_FORMAT is handed to a printf
that is not GStreamer's (issue 33, item 12).

Only GStreamer's printf (its logging macros, GST_ELEMENT_ERROR and the
like, gst_info_strdup_printf, gst_print...) knows these two formats;
g_set_error, g_strdup_printf, g_printerr, check's fail_unless (the C
library's vsnprintf) print the pointer and a BEL instead ("caps
0x7f...\\aA").  For every use in a tracked C/C++/CUDA file this finds the
innermost named call around it and fails unless that call is GStreamer's.
With file arguments it checks those files instead; --self-test checks
tests/printf-formats/: no finding in good.c.txt, one per use in bad.c.txt.
"""
import os
import re
import subprocess
import sys

FORMATS = re.compile(r"\bGST_(PTR|SEGMENT)_FORMAT\b")
# Calls whose format goes through GStreamer's printf (gst/gstinfo.h,
# gst/gstelement.h) and this project's wrapper of it (gst/support/aooct-caps.h).
GST_PRINTF = re.compile(
    r"^(GST_(CAT_)?(ERROR|WARNING|FIXME|INFO|DEBUG|LOG|TRACE|MEMDUMP)"
    r"(_OBJECT|_ID)?"
    r"|GST_CAT_LEVEL_LOG(_ID)?"
    r"|GST_ELEMENT_(ERROR|WARNING|INFO)(_WITH_DETAILS)?"
    r"|gst_info_strdup_printf|gst_info_vasprintf|gst_info_strdup_vprintf"
    r"|gst_print(ln)?|gst_printerr(ln)?|gst_debug_log(_id)?"
    r"|aooct_set_error)$")


def calls_at_uses(text):
    """Yields (line, call name or None) for each use of the formats outside
    comments and string literals."""
    stack = []  # names of the open parentheses ('' for unnamed ones)
    i, n, line = 0, len(text), 1
    ident = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
    last_ident = None
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += text.count("\n", i, j)
            i = j
            last_ident = None
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            line += text.count("\n", i, j)
            i = j + 1
            last_ident = None
            continue
        m = ident.match(text, i)
        if m:
            word = m.group(0)
            if FORMATS.fullmatch(word):
                named = [s for s in stack if s]
                yield line, named[-1] if named else None
            last_ident = word
            i = m.end()
            continue
        if c == "(":
            stack.append(last_ident or "")
        elif c == ")":
            if stack:
                stack.pop()
        elif c == ";" or c == "{" or c == "}":
            stack.clear()
        if not c.isspace():
            last_ident = None
        i += 1


def findings(path, root):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    if not FORMATS.search(text):
        return []
    return [f"{os.path.relpath(path, root)}:{line}: "
            f"GST_PTR_FORMAT/GST_SEGMENT_FORMAT in {call or 'no call'}, "
            f"which is not GStreamer's printf: format the caps with "
            f"gst_caps_to_string, or use gst_info_strdup_printf / "
            f"aooct_set_error"
            for line, call in calls_at_uses(text)
            if call is None or not GST_PRINTF.match(call)]


def self_test(root):
    fixtures = os.path.join(root, "tests", "printf-formats")
    good = findings(os.path.join(fixtures, "good.c.txt"), root)
    bad_path = os.path.join(fixtures, "bad.c.txt")
    bad = findings(bad_path, root)
    with open(bad_path, encoding="utf-8") as f:
        uses = sum(1 for ln in f if FORMATS.search(ln) and '%"' in ln)
    print("\n".join(good + bad))
    if good or len(bad) != uses or uses == 0:
        print(f"self-test failed: {len(good)} findings in good.c.txt "
              f"(want 0), {len(bad)} in bad.c.txt (want {uses})")
        return 1
    print(f"self-test: {len(bad)} of {uses} bad uses found, none in good")
    return 0


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    if sys.argv[1:] == ["--self-test"]:
        return self_test(root)
    files = sys.argv[1:]
    if not files:
        files = subprocess.run(
            ["git", "-C", root, "ls-files", "*.c", "*.h", "*.cu", "*.cpp"],
            capture_output=True, text=True, check=True).stdout.split()
        files = [os.path.join(root, f) for f in files]
    bad = 0
    for path in files:
        for line in findings(path, root):
            print(line)
            bad += 1
    if bad:
        return 1
    print("GST_PTR_FORMAT and GST_SEGMENT_FORMAT only in GStreamer's printf")
    return 0


if __name__ == "__main__":
    sys.exit(main())
