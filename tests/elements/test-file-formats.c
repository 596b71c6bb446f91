/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: aooctfilesrc on files as labs keep them (issue 40), on
 * each backend:
 *  - the real recording tests/data/pdms-sdoct/pdms_LP01.raw (a 552-byte
 *    header, 1049 A-lines of 1024 uint16 samples, an 8192-byte trailer):
 *    header-bytes=552 gives the file's bytes without header and trailer,
 *    byte for byte (the stripped file is made here and read too), with
 *    height=1049 and with height=1024 plus frame-stride; the trailer is a
 *    warning naming its bytes;
 *  - the same B-scan as NumPy .npy arrays (uint16, and float32 of the same
 *    integers; written by our writer and, where the project's .venv has
 *    NumPy, by numpy.save): the same image as the raw file, bit for bit;
 *  - a synthetic volume with a file header and a header and a trailer
 *    around every B-scan: every B-scan, several per buffer, after a seek;
 *    a 4-D .npy array of B-scans; on CUDA the page-locked file read in
 *    place despite header and gaps (bscans-per-buffer=1);
 *  - the errors: a malformed .npy header, a Fortran array, an unsupported
 *    dtype, a 1-D array, a truncated array, geometry properties that
 *    contradict the array, frame-stride smaller than a B-scan,
 *    header-bytes past the end.
 * The "cuda" tcase is skipped without a CUDA device. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gst/app/gstappsink.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"
#include "aooct-test-frames.h"
#include "aooct-test-pipeline.h"
#include "aooct-test-backends.h"
#include "aooct-npy.h"

#define PDMS_HEADER 552
#define PDMS_N 1024
#define PDMS_ROWS 1049
#define PDMS_TRAILER 8192

static gchar *
pdms_path (void)
{
  const gchar *dir = g_getenv ("AOOCT_TEST_DATA");

  fail_unless (dir != NULL, "AOOCT_TEST_DATA is not set (tests/meson.build)");
  return g_build_filename (dir, "pdms-sdoct", "pdms_LP01.raw", NULL);
}

static guint8 *
read_all (const gchar * path, gsize * len)
{
  gchar *data = NULL;
  GError *err = NULL;

  fail_unless (g_file_get_contents (path, &data, len, &err), "%s",
      err ? err->message : "");
  return (guint8 *) data;
}

static gchar *
write_temp (const gchar * suffix, gconstpointer a, gsize alen,
    gconstpointer b, gsize blen)
{
  gchar *tmpl = g_strdup_printf ("aooct-files-XXXXXX%s", suffix);
  gchar *path = NULL;
  gint fd = g_file_open_tmp (tmpl, &path, NULL);
  FILE *f;

  fail_unless (fd >= 0);
  close (fd);
  f = fopen (path, "wb");
  fail_unless (f != NULL);
  fail_unless (fwrite (a, 1, alen, f) == alen);
  if (blen)
    fail_unless (fwrite (b, 1, blen, f) == blen);
  fail_unless (fclose (f) == 0);
  g_free (tmpl);
  return path;
}

typedef struct
{
  GByteArray *bytes;            /* every buffer of appsink "sink" */
  guint buffers;
  gchar *warnings;              /* every warning's text, joined */
  gint in_place;                /* buffers that were the file's own pages */
} Run;

static void
run_clear (Run * r)
{
  g_byte_array_unref (r->bytes);
  g_free (r->warnings);
}

static GstPadProbeReturn
count_read_only (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstBuffer *b = GST_PAD_PROBE_INFO_BUFFER (info);

  if (GST_MEMORY_IS_READONLY (gst_buffer_peek_memory (b, 0)))
    g_atomic_int_inc ((gint *) user_data);
  return GST_PAD_PROBE_OK;
}

/* Runs @launch (aooctfilesrc name=src ... ! appsink name=sink) on
 * @backend to EOS, failing on an error */
static Run
run (const gchar * launch, const gchar * backend)
{
  gchar *full = aooct_test_with_backend (launch, backend);
  GError *err = NULL;
  GstElement *p = gst_parse_launch (full, &err), *src;
  GString *warnings = g_string_new (NULL);
  GstBus *bus;
  GstMessage *msg;
  GList *samples, *l;
  GstPad *pad;
  Run r = { g_byte_array_new (), 0, NULL, 0 };

  fail_unless (p != NULL && err == NULL, "%s: %s", full,
      err ? err->message : "");
  src = gst_bin_get_by_name (GST_BIN (p), "src");
  pad = gst_element_get_static_pad (src, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_read_only,
      &r.in_place, NULL);
  gst_object_unref (pad);
  gst_object_unref (src);
  bus = gst_element_get_bus (p);
  gst_element_set_state (p, GST_STATE_PLAYING);
  /* (a filtered pop drops what it does not ask for: the warnings too) */
  while ((msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
              GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING))) {
    GstMessageType type = GST_MESSAGE_TYPE (msg);

    if (type == GST_MESSAGE_ERROR) {
      gst_message_parse_error (msg, &err, NULL);
      fail ("%s: %s", full, err->message);
    } else if (type == GST_MESSAGE_WARNING) {
      gst_message_parse_warning (msg, &err, NULL);
      g_string_append_printf (warnings, "%s\n", err->message);
      g_clear_error (&err);
    }
    gst_message_unref (msg);
    if (type == GST_MESSAGE_EOS)
      break;
  }
  fail_unless (msg != NULL, "timeout: %s", full);
  gst_object_unref (bus);
  samples = aooct_test_pull_all (p, "sink");
  for (l = samples; l; l = l->next) {
    GstBuffer *b = gst_sample_get_buffer (l->data);
    GstMapInfo map;

    fail_unless (gst_buffer_map (b, &map, GST_MAP_READ));
    g_byte_array_append (r.bytes, map.data, map.size);
    gst_buffer_unmap (b, &map);
    r.buffers++;
  }
  g_list_free_full (samples, (GDestroyNotify) gst_sample_unref);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  g_free (full);
  r.warnings = g_string_free (warnings, FALSE);
  return r;
}

#define SINK "appsink name=sink sync=false wait-on-eos=false"

static void
assert_bytes (const Run * r, const guint8 * expect, gsize len,
    const gchar * what)
{
  gsize i;

  fail_unless (r->bytes->len == len, "%s: %u bytes, expected %"
      G_GSIZE_FORMAT, what, r->bytes->len, len);
  if (memcmp (r->bytes->data, expect, len) != 0)
    for (i = 0; i < len; i++)
      if (r->bytes->data[i] != expect[i])
        fail ("%s: byte %" G_GSIZE_FORMAT " is %u, expected %u", what, i,
            r->bytes->data[i], expect[i]);
}

/* ---- the real recording ---------------------------------------------- */

GST_START_TEST (test_pdms_header)
{
  gchar *path = pdms_path (), *stripped, *l;
  gsize len, frame = (gsize) PDMS_N * PDMS_ROWS * 2;
  guint8 *file = read_all (path, &len);
  const guint8 *data = file + PDMS_HEADER;
  Run r;

  /* the layout its README gives */
  fail_unless_equals_int (len, PDMS_HEADER + frame + PDMS_TRAILER);
  fail_unless (memcmp (file, "SD01RAW", 7) == 0);
  /* the stripped file (what dd bs=1 skip=552 count=... gives) */
  stripped = write_temp (".raw", data, frame, NULL, 0);

  /* all 1049 A-lines */
  l = g_strdup_printf ("aooctfilesrc name=src location=%s header-bytes=%d "
      "width=%d height=%d ! " SINK, path, PDMS_HEADER, PDMS_N, PDMS_ROWS);
  r = run (l, "cpu");
  assert_bytes (&r, data, frame, "header-bytes=552 height=1049");
  g_print ("pdms_LP01.raw header-bytes=552: %u bytes as the stripped file; "
      "warning: %s", r.bytes->len, r.warnings);
  fail_unless (strstr (r.warnings, "the last 8192 bytes") != NULL
      && strstr (r.warnings, "from byte 2148904") != NULL, "no trailer "
      "warning: '%s'", r.warnings);
  run_clear (&r);
  g_free (l);

  /* the stripped file, no header: the same bytes, no warning */
  l = g_strdup_printf ("aooctfilesrc name=src location=%s width=%d "
      "height=%d ! " SINK, stripped, PDMS_N, PDMS_ROWS);
  r = run (l, "cpu");
  assert_bytes (&r, data, frame, "the stripped file");
  fail_unless (r.warnings[0] == '\0', "%s", r.warnings);
  run_clear (&r);
  g_free (l);

  /* the owners' B-scan: 1024 A-lines, the other 25 skipped as the
   * B-scan's own trailer by the stride; the file's trailer warned about */
  l = g_strdup_printf ("aooctfilesrc name=src location=%s header-bytes=%d "
      "width=%d height=1024 frame-stride=%" G_GSIZE_FORMAT " ! " SINK, path,
      PDMS_HEADER, PDMS_N, frame);
  r = run (l, "cpu");
  assert_bytes (&r, data, (gsize) PDMS_N * 1024 * 2, "height=1024 "
      "frame-stride");
  fail_unless (strstr (r.warnings, "the last 8192 bytes") != NULL, "%s",
      r.warnings);
  run_clear (&r);
  g_free (l);

  g_unlink (stripped);
  g_free (stripped);
  g_free (file);
  g_free (path);
}

GST_END_TEST;

/* the image of @location (with @props) through a short chain on the test's
 * backend: dcsub, pad, fft, norm (16-bit) */
static Run
pdms_image (const gchar * location, const gchar * props)
{
  gchar *l = g_strdup_printf ("aooctfilesrc name=src location=%s %s ! "
      "aooctdcsub ! aooctpad ! aooctfft ! aooctnorm ! "
      "video/x-raw,format=GRAY16_LE ! " SINK,
      location, props);
  Run r = run (l, aooct_test_backend);

  g_free (l);
  return r;
}

/* a .npy file of the B-scan's samples: @dtype '<u2' or '<f4' */
static gchar *
write_npy (const guint16 * samples, gint rows, const gchar * dtype)
{
  const guint64 shape[2] = { rows, PDMS_N };
  gsize hlen, n = (gsize) rows * PDMS_N, i;
  guint8 *header = aooct_npy_make_header (dtype, shape, 2, &hlen);
  gchar *path;

  if (dtype[1] == 'f') {
    gfloat *f = g_new (gfloat, n);

    for (i = 0; i < n; i++)
      f[i] = GUINT16_FROM_LE (samples[i]);
    path = write_temp (".npy", header, hlen, f, n * 4);
    g_free (f);
  } else {
    path = write_temp (".npy", header, hlen, samples, n * 2);
  }
  g_free (header);
  return path;
}

/* the same arrays written by numpy.save (the project's .venv), or NULL */
static gchar *
numpy_save (const gchar * raw, const gchar * dtype)
{
  gchar *py = g_build_filename (g_getenv ("AOOCT_TEST_DATA"), "..", "..",
      ".venv", "bin", "python", NULL);
  gchar *path = NULL, *cmd, *out = NULL;
  gint fd = g_file_open_tmp ("aooct-numpy-XXXXXX.npy", &path, NULL);
  gint status = -1;

  close (fd);
  cmd = g_strdup_printf ("%s -c \"import numpy as n, sys; a = n.fromfile("
      "sys.argv[1], '<u2', offset=%d, count=%d).reshape(%d, %d); "
      "n.save(sys.argv[2], a.astype('%s'))\" %s %s", py, PDMS_HEADER,
      PDMS_N * 1024, 1024, PDMS_N, dtype, raw, path);
  if (!g_file_test (py, G_FILE_TEST_IS_EXECUTABLE)
      || !g_spawn_command_line_sync (cmd, &out, NULL, &status, NULL)
      || status != 0) {
    g_print ("no numpy in %s: numpy.save's files not tried\n", py);
    g_unlink (path);
    g_clear_pointer (&path, g_free);
  }
  g_free (out);
  g_free (cmd);
  g_free (py);
  return path;
}

GST_START_TEST (test_pdms_npy)
{
  gchar *path = pdms_path (), *u16, *f32, *npy[2];
  gsize len;
  guint8 *file = read_all (path, &len);
  const guint16 *samples = (const guint16 *) (file + PDMS_HEADER);
  gchar *props = g_strdup_printf ("header-bytes=%d width=%d height=1024 "
      "frame-stride=%d", PDMS_HEADER, PDMS_N, PDMS_N * PDMS_ROWS * 2);
  Run ref = pdms_image (path, props), r;
  guint i;

  fail_unless_equals_int (ref.bytes->len, 1024 * 1024 * 2);
  u16 = write_npy (samples, 1024, "<u2");
  f32 = write_npy (samples, 1024, "<f4");
  r = pdms_image (u16, "");
  assert_bytes (&r, ref.bytes->data, ref.bytes->len, ".npy uint16");
  fail_unless (r.warnings[0] == '\0', "%s", r.warnings);
  run_clear (&r);
  r = pdms_image (f32, "");
  assert_bytes (&r, ref.bytes->data, ref.bytes->len, ".npy float32");
  run_clear (&r);
  g_print ("%s: pdms_LP01 as .npy uint16 and float32: the raw file's image "
      "bit for bit\n", aooct_test_backend);
  /* numpy's own files */
  npy[0] = numpy_save (path, "<u2");
  npy[1] = numpy_save (path, "<f4");
  for (i = 0; i < 2; i++) {
    if (!npy[i])
      continue;
    r = pdms_image (npy[i], "");
    assert_bytes (&r, ref.bytes->data, ref.bytes->len, "numpy.save");
    run_clear (&r);
    g_print ("%s: numpy.save %s: the same image\n", aooct_test_backend,
        i ? "float32" : "uint16");
    g_unlink (npy[i]);
    g_free (npy[i]);
  }
  run_clear (&ref);
  g_unlink (u16);
  g_unlink (f32);
  g_free (u16);
  g_free (f32);
  g_free (props);
  g_free (file);
  g_free (path);
}

GST_END_TEST;

/* ---- a synthetic volume with gaps ------------------------------------ */

#define VOL_N 256
#define VOL_M 40
#define VOL_B 12
#define VOL_HEADER 100
#define VOL_PRE 16
#define VOL_POST 24

/* VOL_B B-scans of random samples (returned, dense) in a file (*@path) of
 * a VOL_HEADER-byte header, each B-scan between VOL_PRE and VOL_POST
 * bytes of 0xEE, and 100 bytes of trailer */
static guint16 *
write_volume (GRand * rand, gchar ** path)
{
  gsize frame = (gsize) VOL_N * VOL_M * 2, stride = VOL_PRE + frame + VOL_POST;
  gsize size = VOL_HEADER + VOL_B * stride + 100, b;
  guint16 *raw = aooct_test_make_spectra (rand, VOL_N, VOL_M, VOL_B, 4095);
  guint8 *bytes = g_malloc (size);

  memset (bytes, 0xee, size);
  for (b = 0; b < VOL_B; b++)
    memcpy (bytes + VOL_HEADER + b * stride + VOL_PRE,
        (guint8 *) raw + b * frame, frame);
  *path = write_temp (".raw", bytes, size, NULL, 0);
  g_free (bytes);
  return raw;
}

static gchar *
volume_props (void)
{
  return g_strdup_printf ("header-bytes=%d frame-stride=%d width=%d "
      "height=%d", VOL_HEADER + VOL_PRE, VOL_PRE + VOL_N * VOL_M * 2 +
      VOL_POST, VOL_N, VOL_M);
}

GST_START_TEST (test_volume_with_gaps)
{
  GRand *rand = aooct_test_rand_new ();
  gchar *path, *props = volume_props (), *l;
  guint16 *raw = write_volume (rand, &path);
  gsize frame = (gsize) VOL_N * VOL_M * 2;
  guint k;

  for (k = 1; k <= 4; k *= 2) {
    Run r;

    /* the raw frames; several B-scans per buffer gathered from the gaps */
    l = g_strdup_printf ("aooctfilesrc name=src location=%s %s "
        "bscans-per-buffer=%u ! " SINK, path, props, k);
    r = run (l, "cpu");
    assert_bytes (&r, (guint8 *) raw, frame * VOL_B, l);
    fail_unless_equals_int (r.buffers, VOL_B / k);
    /* the file's 100 bytes after the last B-scan's trailer, less the
     * first B-scan's own header that header-bytes took */
    fail_unless (strstr (r.warnings, "the last 84 bytes") != NULL, "%s",
        r.warnings);
    run_clear (&r);
    g_free (l);
  }
  g_unlink (path);
  g_free (path);
  g_free (props);
  g_free (raw);
  g_rand_free (rand);
}

GST_END_TEST;

/* a seek lands on the right B-scan of the strided file */
GST_START_TEST (test_volume_seek)
{
  GRand *rand = aooct_test_rand_new ();
  gchar *path, *props = volume_props (), *l;
  guint16 *raw = write_volume (rand, &path);
  gsize frame = (gsize) VOL_N * VOL_M * 2;
  GstElement *p;
  GList *images, *i;
  guint b = 7;

  /* 10 B-scans per second: 700 ms is B-scan 7 */
  l = g_strdup_printf ("aooctfilesrc location=%s %s framerate=10/1 ! " SINK,
      path, props);
  p = gst_parse_launch (l, NULL);
  fail_unless (p != NULL);
  images = aooct_test_play_images (p, "sink", 700);
  fail_unless_equals_int (g_list_length (images), VOL_B - b);
  for (i = images; i; i = i->next, b++) {
    gsize size;
    const guint8 *d = g_bytes_get_data (i->data, &size);

    fail_unless_equals_int (size, frame);
    fail_unless (memcmp (d, (guint8 *) raw + b * frame, frame) == 0,
        "after the seek: B-scan %u differs", b);
  }
  g_list_free_full (images, (GDestroyNotify) g_bytes_unref);
  gst_object_unref (p);
  g_free (l);
  g_unlink (path);
  g_free (path);
  g_free (props);
  g_free (raw);
  g_rand_free (rand);
}

GST_END_TEST;

/* Through aooctdcsub: on CUDA (its page-locked pool) the file, just
 * written and so in the page cache, is page-locked and every B-scan
 * uploaded from its own pages, header and gaps skipped, with the spectra
 * of the dense frames on the CPU */
GST_START_TEST (test_volume_in_place)
{
  GRand *rand = aooct_test_rand_new ();
  gchar *path, *props = volume_props (), *l, *dense;
  guint16 *raw = write_volume (rand, &path);
  Run r, ref;

  dense = write_temp (".raw", raw, (gsize) VOL_N * VOL_M * 2 * VOL_B, NULL, 0);
  l = g_strdup_printf ("aooctfilesrc name=src location=%s width=%d "
      "height=%d ! aooctdcsub ! " SINK, dense, VOL_N, VOL_M);
  ref = run (l, "cpu");
  g_free (l);
  l = g_strdup_printf ("aooctfilesrc name=src location=%s %s ! aooctdcsub ! "
      SINK, path, props);
  r = run (l, aooct_test_backend);
  assert_bytes (&r, ref.bytes->data, ref.bytes->len, l);
  g_print ("%s: %d of %d B-scans read in place\n", aooct_test_backend,
      r.in_place, VOL_B);
  if (g_str_equal (aooct_test_backend, "cuda") && !aooct_test_fake_gpu ())
    fail_unless (r.in_place >= VOL_B - 2, "%d of %d B-scans in place",
        r.in_place, VOL_B);
  else
    fail_unless_equals_int (r.in_place, 0);
  run_clear (&r);
  run_clear (&ref);
  g_free (l);
  g_unlink (dense);
  g_unlink (path);
  g_free (dense);
  g_free (path);
  g_free (props);
  g_free (raw);
  g_rand_free (rand);
}

GST_END_TEST;

/* shape (3, 4, M, N): 12 B-scans, the axes before the last two */
GST_START_TEST (test_npy_4d)
{
  GRand *rand = aooct_test_rand_new ();
  const guint64 shape[4] = { 3, 4, VOL_M, VOL_N };
  gsize hlen, size = (gsize) VOL_N * VOL_M * VOL_B * 2;
  guint16 *raw = aooct_test_make_spectra (rand, VOL_N, VOL_M, VOL_B, 4095);
  guint8 *header = aooct_npy_make_header ("<u2", shape, 4, &hlen);
  gchar *path = write_temp (".npy", header, hlen, raw, size), *l;
  Run r;

  l = g_strdup_printf ("aooctfilesrc name=src location=%s "
      "bscans-per-buffer=3 ! " SINK, path);
  r = run (l, "cpu");
  assert_bytes (&r, (guint8 *) raw, size, l);
  fail_unless_equals_int (r.buffers, 4);
  run_clear (&r);
  g_free (l);
  g_unlink (path);
  g_free (path);
  g_free (header);
  g_free (raw);
  g_rand_free (rand);
}

GST_END_TEST;

/* ---- errors ------------------------------------------------------------ */

/* a .npy file of @header_text as its dict (padded as numpy does) and
 * @data_bytes of zeros */
static gchar *
npy_with_dict (const gchar * dict, gsize data_bytes)
{
  GString *h = g_string_new (NULL);
  guint8 *zeros = g_malloc0 (data_bytes + 1);
  gchar *path;
  gsize len;

  g_string_append_len (h, AOOCT_NPY_MAGIC "\x01\x00", 8);
  len = strlen (dict);
  g_string_append_c (h, (gchar) (len + 1));
  g_string_append_c (h, 0);
  g_string_append (h, dict);
  g_string_append_c (h, '\n');
  path = write_temp (".npy", h->str, h->len, zeros, data_bytes);
  g_string_free (h, TRUE);
  g_free (zeros);
  return path;
}

static void
expect_npy_error (const gchar * dict, gsize data_bytes, const gchar * props,
    const gchar * s1, const gchar * s2)
{
  gchar *path = npy_with_dict (dict, data_bytes);
  gchar *l = g_strdup_printf ("aooctfilesrc location=%s %s ! fakesink", path,
      props);

  aooct_test_expect_pipeline_error (l, path, s1, s2, NULL);
  g_unlink (path);
  g_free (path);
  g_free (l);
}

GST_START_TEST (test_errors)
{
  gchar *path = pdms_path (), *l, *notnpy;

  /* .npy headers */
  expect_npy_error ("{'descr': '<u2', 'fortran_order': False, 'shape': "
      "(4, 64, }", 512, "", "malformed", "shape");
  expect_npy_error ("{'descr': '<u2', 'fortran_order': True, 'shape': "
      "(4, 64), }", 512, "", "Fortran", "ascontiguousarray");
  expect_npy_error ("{'descr': '<f8', 'fortran_order': False, 'shape': "
      "(4, 64), }", 2048, "", "'<f8' (float64)", "float32");
  expect_npy_error ("{'descr': '>u2', 'fortran_order': False, 'shape': "
      "(4, 64), }", 512, "", "'>u2'", "big-endian");
  expect_npy_error ("{'descr': '<u2', 'fortran_order': False, 'shape': "
      "(64,), }", 128, "", "1 axis", "at least 2");
  expect_npy_error ("{'descr': '<u2', 'fortran_order': False, 'shape': "
      "(4, 64), }", 500, "", "truncated", "512 bytes");
  expect_npy_error ("{'descr': '<u2', 'fortran_order': False, 'shape': "
      "(4, 64), }", 512, "width=32", "width=32", "64 samples");
  expect_npy_error ("{'descr': '<u2', 'fortran_order': False, 'shape': "
      "(4, 64), }", 512, "header-bytes=10", "header-bytes", ".npy");
  /* named .npy but not one */
  notnpy = write_temp (".npy", "not numpy", 9, NULL, 0);
  l = g_strdup_printf ("aooctfilesrc location=%s ! fakesink", notnpy);
  aooct_test_expect_pipeline_error (l, notnpy, "not a NumPy", NULL);
  g_free (l);
  g_unlink (notnpy);
  g_free (notnpy);

  /* raw files */
  l = g_strdup_printf ("aooctfilesrc location=%s header-bytes=552 width=1024 "
      "height=1049 frame-stride=2000000 ! fakesink", path);
  aooct_test_expect_pipeline_error (l, "frame-stride=2000000", "smaller",
      "2148352 bytes", NULL);
  g_free (l);
  l = g_strdup_printf ("aooctfilesrc location=%s header-bytes=2157096 "
      "width=1024 height=1049 ! fakesink", path);
  aooct_test_expect_pipeline_error (l, "header-bytes=2157096", "whole file",
      "2157096 bytes", NULL);
  g_free (l);
  l = g_strdup_printf ("aooctfilesrc location=%s header-bytes=10000 "
      "width=1024 height=1049 ! fakesink", path);
  aooct_test_expect_pipeline_error (l, "header-bytes=10000", "less than one "
      "B-scan", NULL);
  g_free (l);
  g_free (path);
}

GST_END_TEST;

static void
add_tests (TCase * tc, gboolean cuda)
{
  if (!cuda) {
    tcase_add_test (tc, test_pdms_header);
    tcase_add_test (tc, test_volume_with_gaps);
    tcase_add_test (tc, test_volume_seek);
    tcase_add_test (tc, test_npy_4d);
    tcase_add_test (tc, test_errors);
  }
  tcase_add_test (tc, test_pdms_npy);
  tcase_add_test (tc, test_volume_in_place);
}

static Suite *
file_formats_suite (void)
{
  return aooct_test_suite_per_backend ("file-formats", add_tests);
}

GST_CHECK_MAIN (file_formats);
