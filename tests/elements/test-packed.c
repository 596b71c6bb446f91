/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: packed 12- and 10-bit camera samples (Mono12p,
 * Mono12Packed, Mono10p; docs/caps.md, "Packed 10/12-bit input") on each
 * backend: the unpacking against bytes packed by hand from the bit orders
 * of docs/caps.md, aooctdcsub on packed frames bit for bit against the
 * same samples as GRAY16_LE on the CPU (widths whose packed rows take
 * every load width of the CUDA kernels and leave a partial group, several
 * B-scans, flyback, every mode), a raw file of packed B-scans through
 * aooctfilesrc, and the errors of widths and buffers a layout does not
 * allow.  The "cuda" tcase is skipped without a CUDA device. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"
#include "aooct-test-frames.h"
#include "aooct-test-pipeline.h"
#include "aooct-test-backends.h"
#include "aooct-raw-format.h"

#define PACKED_CAPS "video/x-aooct-packed,format=%s,width=%d,height=%d," \
  "framerate=10/1"
#define RAW16_CAPS "video/x-raw,format=GRAY16_LE,width=%d,height=%d," \
  "framerate=10/1"

/* ---- bytes packed by hand: two A-lines of four samples ----------------
 *
 * Mono12p (LSB first): samples a, b -> the 24-bit word a | b << 12, its
 * bytes low first: 0xABC, 0x123 -> 0x123ABC -> BC 3A 12.
 * Mono12Packed: a >> 4, (a & 0xF) | (b & 0xF) << 4, b >> 4:
 * 0xABC, 0x123 -> AB 3C 12.
 * Mono10p (LSB first): four samples -> the 40-bit word a | b << 10 |
 * c << 20 | d << 30: 1023, 1, 682, 341 -> 0x556AA007FF -> FF 07 A0 6A 55. */
static const guint16 hand_samples12[8] = {
  0xabc, 0x123, 0x000, 0xfff,
  0x001, 0x800, 0x7ff, 0x010
};

static const guint8 hand_mono12p[12] = {
  0xbc, 0x3a, 0x12, 0x00, 0xf0, 0xff,
  0x01, 0x00, 0x80, 0xff, 0x07, 0x01
};

static const guint8 hand_mono12packed[12] = {
  0xab, 0x3c, 0x12, 0x00, 0xf0, 0xff,
  0x00, 0x01, 0x80, 0x7f, 0x0f, 0x01
};

static const guint16 hand_samples10[8] = {
  1023, 1, 682, 341,
  512, 255, 1022, 0
};

static const guint8 hand_mono10p[10] = {
  0xff, 0x07, 0xa0, 0x6a, 0x55,
  0x00, 0xfe, 0xe3, 0x3f, 0x00
};

/* fixed caps from a printf format (taken by the helpers) */
static GstCaps *
caps_printf (const gchar * format, ...)
{
  va_list args;
  gchar *str;
  GstCaps *caps;

  va_start (args, format);
  str = g_strdup_vprintf (format, args);
  va_end (args);
  caps = gst_caps_from_string (str);
  fail_unless (caps != NULL, "%s", str);
  g_free (str);
  return caps;
}

typedef struct
{
  const gchar *format;
  AooctRawFormat f;
  const guint8 *bytes;
  gsize size;
  const guint16 *samples;
} HandFrame;

static const HandFrame hand_frames[] = {
  {"mono12p", AOOCT_RAW_MONO12P, hand_mono12p, sizeof (hand_mono12p),
      hand_samples12},
  {"mono12packed", AOOCT_RAW_MONO12PACKED, hand_mono12packed,
      sizeof (hand_mono12packed), hand_samples12},
  {"mono10p", AOOCT_RAW_MONO10P, hand_mono10p, sizeof (hand_mono10p),
      hand_samples10},
};

/* the unpacking every core and tool uses */
GST_START_TEST (test_unpack_by_hand)
{
  guint i, r, k;

  for (i = 0; i < G_N_ELEMENTS (hand_frames); i++) {
    const HandFrame *h = &hand_frames[i];
    gsize row = h->size / 2;
    guint16 out[4];

    fail_unless_equals_int (aooct_raw_row_bytes (h->f, 4), row);
    for (r = 0; r < 2; r++) {
      aooct_raw_unpack_row (h->f, h->bytes + r * row, 4, out);
      for (k = 0; k < 4; k++)
        fail_unless (out[k] == h->samples[r * 4 + k], "%s row %u sample %u: "
            "%u, expected %u", h->format, r, k, out[k], h->samples[r * 4 + k]);
    }
  }
}

GST_END_TEST;

static gfloat *
dcsub_packed (const gchar * format, gint n, gint rows, const gchar * props,
    gconstpointer bytes, gsize size)
{
  gchar *launch = g_strdup_printf ("aooctdcsub backend=%s %s",
      aooct_test_backend, props);
  GstHarness *h = aooct_test_harness_new (launch);
  gfloat *out = aooct_test_push_pull (h, caps_printf (PACKED_CAPS, format, n,
          rows), bytes, size,
      (gsize) n * rows * sizeof (gfloat));

  gst_harness_teardown (h);
  g_free (launch);
  return out;
}

/* aooctdcsub on the hand-packed frames: mode=none gives the samples,
 * bscan-mean the samples minus the mean of their column (two A-lines: the
 * mean is exact in float) */
GST_START_TEST (test_dcsub_hand_packed)
{
  guint i, k;

  for (i = 0; i < G_N_ELEMENTS (hand_frames); i++) {
    const HandFrame *h = &hand_frames[i];
    gfloat *none = dcsub_packed (h->format, 4, 2, "mode=none", h->bytes,
        h->size);
    gfloat *mean = dcsub_packed (h->format, 4, 2, "", h->bytes, h->size);

    for (k = 0; k < 8; k++) {
      gfloat dc = (gfloat) ((h->samples[k % 4] + h->samples[4 + k % 4]) / 2.0);

      fail_unless (none[k] == (gfloat) h->samples[k], "%s sample %u: %g, "
          "expected %u", h->format, k, none[k], h->samples[k]);
      fail_unless (mean[k] == (gfloat) h->samples[k] - dc, "%s sample %u "
          "minus the mean: %g, expected %g", h->format, k, mean[k],
          (gfloat) h->samples[k] - dc);
    }
    g_free (none);
    g_free (mean);
  }
}

GST_END_TEST;

/* ---- realistic frames, packed by the test's own bit writer ---------- */

/* @rows rows of @n samples packed as @f, rows one after the other
 * (g_free): a bit writer, LSB first, for Mono12p and Mono10p; the
 * GigE Vision nibble layout for Mono12Packed */
static guint8 *
pack_frame (AooctRawFormat f, const guint16 * s, gint n, gsize rows,
    gsize * size)
{
  gint bits = aooct_raw_format_bits (f);
  gsize row = (gsize) n * bits / 8, r;
  guint8 *out = g_malloc0 (row * rows);
  gint i, b;

  for (r = 0; r < rows; r++) {
    guint8 *o = out + r * row;
    const guint16 *v = s + r * n;

    if (f == AOOCT_RAW_MONO12PACKED) {
      for (i = 0; i < n; i += 2, o += 3) {
        o[0] = v[i] >> 4;
        o[1] = (v[i] & 0xf) | (v[i + 1] & 0xf) << 4;
        o[2] = v[i + 1] >> 4;
      }
      continue;
    }
    for (i = 0; i < n; i++)
      for (b = 0; b < bits; b++)
        if (v[i] >> b & 1) {
          gsize pos = (gsize) i * bits + b;

          o[pos / 8] |= 1 << (pos % 8);
        }
  }
  *size = row * rows;
  return out;
}

/* @raw through aooctdcsub on the CPU as GRAY16_LE, the reference */
static gfloat *
dcsub_gray16_cpu (const guint16 * raw, gint n, gsize rows,
    const gchar * props, gsize out_count)
{
  gchar *launch = g_strdup_printf ("aooctdcsub backend=cpu %s", props);
  GstHarness *h = aooct_test_harness_new (launch);
  gsize stride = aooct_test_frame_stride (n, 2);
  GstBuffer *frame = aooct_test_make_frame (raw, n, rows, 2, stride);
  GstMapInfo map;
  gfloat *out;

  fail_unless (gst_buffer_map (frame, &map, GST_MAP_READ));
  out =
      aooct_test_push_pull (h, caps_printf (RAW16_CAPS, n, (gint) rows),
      map.data, map.size, out_count * sizeof (gfloat));
  gst_buffer_unmap (frame, &map);
  gst_buffer_unref (frame);
  gst_harness_teardown (h);
  g_free (launch);
  return out;
}

static void
compare_with_gray16 (AooctRawFormat f, gint n, gint alines, gint bscans,
    const gchar * props)
{
  GRand *rand = aooct_test_rand_new ();
  gint max = (1 << aooct_raw_format_bits (f)) - 1, kept;
  gsize rows = (gsize) alines * bscans, size, count;
  guint16 *raw = aooct_test_make_spectra (rand, n, alines, bscans, max);
  guint8 *packed = pack_frame (f, raw, n, rows, &size);
  gchar *p = g_strdup_printf ("alines-per-bscan=%d %s", alines, props);
  gfloat *ref, *got;
  gint skip_s = 0, skip_e = 0;
  const gchar *s;
  gsize i;

  /* the output has the kept A-lines only */
  if ((s = strstr (props, "skip-alines-start=")))
    skip_s = atoi (s + strlen ("skip-alines-start="));
  if ((s = strstr (props, "skip-alines-end=")))
    skip_e = atoi (s + strlen ("skip-alines-end="));
  kept = alines - skip_s - skip_e;
  count = (gsize) n *kept * bscans;
  ref = dcsub_gray16_cpu (raw, n, rows, p, count);
  g_print ("%s %s %dx%d x%d %s\n", aooct_test_backend,
      aooct_raw_format_name (f), n, alines, bscans, props);
  {
    gchar *launch = g_strdup_printf ("aooctdcsub backend=%s %s",
        aooct_test_backend, p);
    GstHarness *h = aooct_test_harness_new (launch);

    got =
        aooct_test_push_pull (h, caps_printf (PACKED_CAPS,
            aooct_raw_format_name (f), n, (gint) rows), packed, size,
        count * sizeof (gfloat));
    gst_harness_teardown (h);
    g_free (launch);
  }
  if (memcmp (got, ref, count * sizeof (gfloat)) != 0)
    for (i = 0; i < count; i++)
      if (memcmp (&got[i], &ref[i], sizeof (gfloat)) != 0)
        fail ("%s %s %dx%d x%d %s: A-line %" G_GSIZE_FORMAT " sample %"
            G_GSIZE_FORMAT ": %.9g, as GRAY16_LE on the CPU %.9g",
            aooct_test_backend, aooct_raw_format_name (f), n, alines, bscans,
            props, i / n, i % n, got[i], ref[i]);
  g_free (got);
  g_free (ref);
  g_free (p);
  g_free (packed);
  g_free (raw);
  g_rand_free (rand);
}

/* Packed rows of 1536 bytes (8-byte aligned: 4-byte loads for 12-bit,
 * 2-byte for 10-bit), 1542 (2-byte aligned), 1251 and 1275 (odd: single
 * bytes), widths that leave 2 or 4 samples in the last group of 8, several
 * B-scans per buffer */
GST_START_TEST (test_dcsub_packed_as_gray16)
{
  static const AooctRawFormat twelve[] = { AOOCT_RAW_MONO12P,
    AOOCT_RAW_MONO12PACKED
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (twelve); i++) {
    compare_with_gray16 (twelve[i], 1024, 100, 4, "");
    compare_with_gray16 (twelve[i], 1028, 70, 2, "");
    compare_with_gray16 (twelve[i], 834, 65, 3, "");
    compare_with_gray16 (twelve[i], 2, 9, 2, "");
  }
  compare_with_gray16 (AOOCT_RAW_MONO10P, 1024, 100, 4, "");
  compare_with_gray16 (AOOCT_RAW_MONO10P, 1032, 70, 2, "");
  compare_with_gray16 (AOOCT_RAW_MONO10P, 1020, 65, 3, "");
  compare_with_gray16 (AOOCT_RAW_MONO10P, 4, 9, 2, "");
}

GST_END_TEST;

/* every mode, and flyback (each B-scan's rows start at another byte) */
GST_START_TEST (test_dcsub_packed_modes)
{
  gint n = 834;
  GRand *rand = aooct_test_rand_new ();
  gchar *path = aooct_test_write_background (rand, n), *props;

  props = g_strdup_printf ("mode=background background-file=%s", path);
  compare_with_gray16 (AOOCT_RAW_MONO12P, n, 40, 2, props);
  compare_with_gray16 (AOOCT_RAW_MONO12PACKED, n, 40, 2, "mode=none");
  compare_with_gray16 (AOOCT_RAW_MONO12P, n, 40, 3,
      "skip-alines-start=3 skip-alines-end=2");
  compare_with_gray16 (AOOCT_RAW_MONO10P, 1020, 40, 3, "skip-alines-start=1");
  compare_with_gray16 (AOOCT_RAW_MONO12P, n, 40, 3,
      "mode=rolling-mean rolling-bscans=2");
  g_unlink (path);
  g_free (path);
  g_free (props);
  g_rand_free (rand);
}

GST_END_TEST;

/* ---- a raw file of packed B-scans through aooctfilesrc -------------- */

static gchar *
write_temp_bytes (gconstpointer data, gsize size)
{
  gchar *path = NULL;
  gint fd = g_file_open_tmp ("aooct-packed-XXXXXX.raw", &path, NULL);

  fail_unless (fd >= 0);
  fail_unless (g_file_set_contents (path, data, size, NULL));
  close (fd);
  return path;
}

static GstPadProbeReturn
count_read_only (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstBuffer *b = GST_PAD_PROBE_INFO_BUFFER (info);

  /* the file's own pages, page-locked, read by the GPU in place */
  if (GST_MEMORY_IS_READONLY (gst_buffer_peek_memory (b, 0)))
    g_atomic_int_inc ((gint *) user_data);
  return GST_PAD_PROBE_OK;
}

/* every buffer of appsink "sink" of @launch run on @backend, one after
 * the other (g_free); with @in_place, how many buffers the element named
 * "src" pushed as the file's own pages */
static gfloat *
run_file (const gchar * launch, const gchar * backend, gsize * bytes,
    gint * in_place)
{
  gchar *full = aooct_test_with_backend (launch, backend);
  GError *err = NULL;
  GstElement *p = gst_parse_launch (full, &err), *src;
  GList *samples, *l;
  GByteArray *all = g_byte_array_new ();
  GstBus *bus;
  GstMessage *msg;

  fail_unless (p != NULL && err == NULL, "%s: %s", full,
      err ? err->message : "");
  src = gst_bin_get_by_name (GST_BIN (p), "src");
  if (in_place) {
    GstPad *pad = gst_element_get_static_pad (src, "src");

    *in_place = 0;
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_read_only,
        in_place, NULL);
    gst_object_unref (pad);
  }
  gst_clear_object (&src);
  bus = gst_element_get_bus (p);
  gst_element_set_state (p, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "timeout: %s", full);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, NULL);
    fail ("%s: %s", full, err->message);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  samples = aooct_test_pull_all (p, "sink");
  for (l = samples; l; l = l->next) {
    GstBuffer *b = gst_sample_get_buffer (l->data);
    GstMapInfo map;

    fail_unless (gst_buffer_map (b, &map, GST_MAP_READ));
    g_byte_array_append (all, map.data, map.size);
    gst_buffer_unmap (b, &map);
  }
  g_list_free_full (samples, (GDestroyNotify) gst_sample_unref);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  g_free (full);
  *bytes = all->len;
  return (gfloat *) g_byte_array_free (all, FALSE);
}

/* On CUDA (aooctdcsub proposes its page-locked pool) the packed file, just
 * written and so in the page cache, is page-locked at start and its pages
 * uploaded in place: all buffers but the two the reader threads may have
 * fetched before */
GST_START_TEST (test_filesrc_packed_file)
{
  const gint n = 1024, alines = 50, bscans = 12;
  static const AooctRawFormat formats[] = { AOOCT_RAW_MONO12P,
    AOOCT_RAW_MONO12PACKED, AOOCT_RAW_MONO10P
  };
  GRand *rand = aooct_test_rand_new ();
  guint i;

  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    AooctRawFormat f = formats[i];
    gsize rows = (gsize) alines * bscans, size, ref_bytes, got_bytes;
    guint16 *raw = aooct_test_make_spectra (rand, n, alines, bscans,
        (1 << aooct_raw_format_bits (f)) - 1);
    guint8 *packed = pack_frame (f, raw, n, rows, &size);
    gchar *ppath = write_temp_bytes (packed, size);
    gchar *rpath = write_temp_bytes (raw, rows * n * 2);
    gchar *lp = g_strdup_printf ("aooctfilesrc name=src location=%s format=%s "
        "width=%d height=%d bscans-per-buffer=2 ! aooctdcsub "
        "alines-per-bscan=%d ! appsink name=sink sync=false wait-on-eos=false",
        ppath,
        aooct_raw_format_name (f), n, alines, alines);
    gchar *lr = g_strdup_printf ("aooctfilesrc location=%s format=gray16-le "
        "width=%d height=%d bscans-per-buffer=2 ! aooctdcsub "
        "alines-per-bscan=%d ! appsink name=sink sync=false wait-on-eos=false",
        rpath, n,
        alines, alines);
    gint in_place;
    gfloat *ref = run_file (lr, "cpu", &ref_bytes, NULL);
    gfloat *got = run_file (lp, aooct_test_backend, &got_bytes, &in_place);

    g_print ("%s: aooctfilesrc format=%s, %" G_GSIZE_FORMAT " bytes, %d of "
        "%d buffers in place\n", aooct_test_backend,
        aooct_raw_format_name (f), size, in_place, bscans / 2);
    if (g_str_equal (aooct_test_backend, "cuda") && !aooct_test_fake_gpu ())
      fail_unless (in_place >= bscans / 2 - 2, "%s: %d of %d buffers read "
          "in place", aooct_raw_format_name (f), in_place, bscans / 2);
    else
      fail_unless_equals_int (in_place, 0);
    fail_unless_equals_int (ref_bytes, rows * n * sizeof (gfloat));
    fail_unless_equals_int (got_bytes, ref_bytes);
    fail_unless (memcmp (got, ref, ref_bytes) == 0, "%s: the packed file's "
        "spectra differ from the 16-bit file's", aooct_raw_format_name (f));
    g_unlink (ppath);
    g_unlink (rpath);
    g_free (ppath);
    g_free (rpath);
    g_free (lp);
    g_free (lr);
    g_free (ref);
    g_free (got);
    g_free (packed);
    g_free (raw);
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* aravissrc's packed frames come under GRAY16_LE caps with bpp=12: the
 * way docs/caps.md gives relabels them with capssetter (a filesrc with
 * those caps stands in for the camera) */
GST_START_TEST (test_aravis_caps_relabelled)
{
  const gint n = 1024, alines = 40;
  GRand *rand;
  guint16 *raw;
  guint8 *packed;
  gsize size, ref_bytes, got_bytes;
  gchar *ppath, *rpath, *lp, *lr;
  gfloat *ref, *got;
  GstElementFactory *f = gst_element_factory_find ("capssetter");

  if (f == NULL) {
    g_print ("no capssetter (gst-plugins-good): skipped\n");
    return;
  }
  gst_object_unref (f);
  rand = aooct_test_rand_new ();
  raw = aooct_test_make_spectra (rand, n, alines, 2, 4095);
  packed = pack_frame (AOOCT_RAW_MONO12P, raw, n, alines * 2, &size);
  ppath = write_temp_bytes (packed, size);
  rpath = write_temp_bytes (raw, (gsize) n * alines * 2 * 2);
  lp = g_strdup_printf ("filesrc location=%s blocksize=%" G_GSIZE_FORMAT
      " ! video/x-raw,format=GRAY16_LE,bpp=12,depth=12,width=%d,height=%d ! "
      "capssetter join=false replace=true caps=\"video/x-aooct-packed,"
      "format=mono12p,width=%d,height=%d,framerate=0/1\" ! aooctdcsub ! "
      "appsink name=sink sync=false wait-on-eos=false", ppath, size / 2, n,
      alines, n, alines);
  lr = g_strdup_printf ("aooctfilesrc location=%s width=%d height=%d ! "
      "aooctdcsub ! appsink name=sink sync=false wait-on-eos=false", rpath,
      n, alines);
  ref = run_file (lr, "cpu", &ref_bytes, NULL);
  got = run_file (lp, aooct_test_backend, &got_bytes, NULL);
  fail_unless_equals_int (ref_bytes, (gsize) n * alines * 2 * 4);
  fail_unless_equals_int (got_bytes, ref_bytes);
  fail_unless (memcmp (got, ref, ref_bytes) == 0);
  g_unlink (ppath);
  g_unlink (rpath);
  g_free (ppath);
  g_free (rpath);
  g_free (lp);
  g_free (lr);
  g_free (ref);
  g_free (got);
  g_free (packed);
  g_free (raw);
  g_rand_free (rand);
}

GST_END_TEST;

/* ---- what a layout does not allow ----------------------------------- */

GST_START_TEST (test_bad_packed_input)
{
  gchar *launch = g_strdup_printf ("aooctdcsub backend=%s",
      aooct_test_backend);
  GstHarness *h;
  GstBuffer *buf;

  /* widths whose rows would end inside a pack unit */
  aooct_test_expect_error (launch, caps_printf (PACKED_CAPS, "mono12p", 1023,
          10), "width 1023", "mono12p", "multiple of 2", NULL);
  aooct_test_expect_error (launch, caps_printf (PACKED_CAPS, "mono10p", 1022,
          10), "width 1022", "mono10p", "multiple of 4", NULL);
  /* another bit depth */
  aooct_test_expect_error (launch, caps_printf (PACKED_CAPS, "mono14p", 1024,
          10), "mono14p", "mono12p", NULL);
  /* aravissrc's packed samples under 16-bit caps */
  aooct_test_expect_error (launch, gst_caps_from_string
      ("video/x-raw,format=GRAY16_LE,bpp=12,depth=12,width=1024,height=10,"
          "framerate=10/1"), "bpp=12", "capssetter", "mono12p", NULL);
  /* a buffer of 16-bit rows (or of a quarter too many bytes) under packed
   * caps: 1536 bytes per row of 1024 12-bit samples */
  h = aooct_test_harness_new (launch);
  aooct_test_push_expect_error (h, caps_printf (PACKED_CAPS, "mono12p", 1024,
          10), 2048 * 10, "15360", "too long", NULL);
  gst_harness_teardown (h);
  h = aooct_test_harness_new (launch);
  aooct_test_push_expect_error (h, caps_printf (PACKED_CAPS, "mono10p", 1024,
          10), 1280 * 10 - 5, "12800", "too short", NULL);
  gst_harness_teardown (h);
  /* a GstVideoMeta cannot describe packed rows */
  h = aooct_test_harness_new (launch);
  aooct_test_set_caps_printf (h, PACKED_CAPS, "mono12p", 8, 2);
  buf = gst_buffer_new_allocate (NULL, 24, NULL);
  gst_buffer_memset (buf, 0, 0, 24);
  gst_buffer_add_video_meta (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_GRAY8, 12, 2);
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_ERROR);
  aooct_test_assert_error (h, "GstVideoMeta", "packed", NULL);
  gst_harness_teardown (h);
  g_free (launch);
}

GST_END_TEST;

static void
add_tests (TCase * tc, gboolean cuda)
{
  if (!cuda)
    tcase_add_test (tc, test_unpack_by_hand);
  tcase_add_test (tc, test_dcsub_hand_packed);
  tcase_add_test (tc, test_dcsub_packed_as_gray16);
  tcase_add_test (tc, test_dcsub_packed_modes);
  tcase_add_test (tc, test_filesrc_packed_file);
  tcase_add_test (tc, test_aravis_caps_relabelled);
  tcase_add_test (tc, test_bad_packed_input);
}

static Suite *
packed_suite (void)
{
  return aooct_test_suite_per_backend ("packed", add_tests);
}

GST_CHECK_MAIN (packed);
