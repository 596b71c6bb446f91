/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: aooctfilesrc feeding aooctdcsub on CUDA, where the GPU reads
 * the file in place (map-file: the file page-locked at start;
 * aooct-file-prefetch.h).  Skips without a CUDA device. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <glib/gstdio.h>
#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"
#include "aooct-test-pipeline.h"

/* 2048 x 500 GRAY16 B-scans: 2 MB each, 80 MB in all */
#define W 2048
#define H 500
#define N_BSCANS 40

/* B-scan i: sample j of A-line r is (i * 97 + r * 13 + j * 7) % 4096, a
 * pattern whose first and last samples name the B-scan */
static gchar *
write_pattern (void)
{
  gchar *path = NULL;
  gint fd = g_file_open_tmp ("aooct-filesrc-cuda-XXXXXX.raw", &path, NULL);
  guint16 *row = g_new (guint16, W);
  FILE *f;
  gint i, r, j;

  fail_unless (fd >= 0);
  f = fdopen (fd, "wb");
  for (i = 0; i < N_BSCANS; i++)
    for (r = 0; r < H; r++) {
      for (j = 0; j < W; j++)
        row[j] = GUINT16_TO_LE ((i * 97 + r * 13 + j * 7) % 4096);
      fail_unless (fwrite (row, sizeof (guint16), W, f) == W);
    }
  fclose (f);
  g_free (row);
  return path;
}

static guint16
expected (gint i, gint r, gint j)
{
  return (i * 97 + r * 13 + j * 7) % 4096;
}

typedef struct
{
  gint n;                       /* buffers seen */
  gint prev;                    /* B-scan of the last one */
  gint first, run;              /* the last run of consecutive B-scans:
                                 * where it starts, how long it is */
  gint in_place;                /* of them read-only (the file itself) */
  gint bad;                     /* with samples not those of the file */
} Seen;

static GstPadProbeReturn
check_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Seen *seen = user_data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  gint i = (gint) GST_BUFFER_OFFSET (buf);
  GstMapInfo map;

  if (seen->n == 0 || i != seen->prev + 1) {
    seen->first = i;
    seen->run = 0;
  }
  seen->prev = i;
  seen->run++;
  seen->n++;
  if (GST_MEMORY_IS_READONLY (gst_buffer_peek_memory (buf, 0)))
    seen->in_place++;
  if (!gst_buffer_map (buf, &map, GST_MAP_READ)) {
    seen->bad++;
    return GST_PAD_PROBE_OK;
  }
  {
    const guint16 *s = (const guint16 *) map.data;

    if (map.size < (gsize) W * H * 2 || s[0] != expected (i, 0, 0)
        || s[W * H / 2 + 5] != expected (i, H / 2, 5)
        || s[W * H - 1] != expected (i, H - 1, W - 1))
      seen->bad++;
  }
  gst_buffer_unmap (buf, &map);
  return GST_PAD_PROBE_OK;
}

/* Runs @launch (an aooctfilesrc named src, an appsink named sink) from
 * @seek_ms to the end, checking every buffer the source pushes; returns
 * the images' bytes. */
static GByteArray *
run (const gchar * launch, gint seek_ms, Seen * seen)
{
  GstElement *p = gst_parse_launch (launch, NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (p), "src");
  GstPad *pad = gst_element_get_static_pad (src, "src");
  GByteArray *img = g_byte_array_new ();
  GList *images, *l;

  memset (seen, 0, sizeof (*seen));
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, check_buffer, seen, NULL);
  images = aooct_test_play_images (p, "sink", seek_ms > 0 ? seek_ms : -1);
  for (l = images; l; l = l->next) {
    gsize size;
    gconstpointer data = g_bytes_get_data (l->data, &size);

    g_byte_array_append (img, data, size);
  }
  g_list_free_full (images, (GDestroyNotify) g_bytes_unref);
  gst_object_unref (pad);
  gst_object_unref (src);
  gst_object_unref (p);
  return img;
}

#define CHAIN "aooctdcsub backend=cuda ! aooctpad backend=cuda ! " \
  "aooctkmap backend=cuda wavelength-coeffs=\"785,0.054\" ! " \
  "aooctdisp backend=cuda a2=8 a3=-2 ! aooctfft backend=cuda ! " \
  "aooctnorm backend=cuda ! appsink name=sink sync=false"

/* With map-file (the default) the file, small and just written, so in the
 * page cache, is page-locked at start and read by the GPU in place; with
 * map-file-max=0 it is not.  Of N_BSCANS buffers, how many must come in
 * place at least and at most. */
static const struct
{
  const gchar *props;
  gint min_in_place, max_in_place;
} modes[] = {
  /* all but those the reader threads fetched before the file was locked
   * (at most the two they work ahead) */
  {"", N_BSCANS - 2, N_BSCANS},
  {"map-file-max=0", 0, 0},
};

/* Every B-scan reaches the chain with the file's samples, in order, all but
 * the first ones as the file itself; the images are those of the reader
 * threads alone, byte for byte. */
GST_START_TEST (test_in_place_same_images)
{
  gchar *path = write_pattern ();
  gchar *without = g_strdup_printf ("aooctfilesrc name=src location=%s "
      "width=%d height=%d map-file=false ! " CHAIN, path, W, H);
  Seen b;
  GByteArray *y = run (without, 0, &b);
  guint m;

  fail_unless_equals_int (b.n, N_BSCANS);
  fail_unless_equals_int (b.run, N_BSCANS);
  fail_unless_equals_int (b.bad, 0);
  fail_unless_equals_int (b.in_place, 0);
  fail_unless (y->len > 0);
  for (m = 0; m < G_N_ELEMENTS (modes); m++) {
    gchar *with = g_strdup_printf ("aooctfilesrc name=src location=%s "
        "width=%d height=%d %s ! " CHAIN, path, W, H, modes[m].props);
    Seen a;
    GByteArray *x = run (with, 0, &a);

    GST_INFO ("%s: %d of %d buffers in place", modes[m].props, a.in_place, a.n);
    fail_unless_equals_int (a.n, N_BSCANS);
    fail_unless_equals_int (a.run, N_BSCANS);
    fail_unless_equals_int (a.bad, 0);
    fail_unless (a.in_place >= modes[m].min_in_place
        && a.in_place <= modes[m].max_in_place,
        "'%s': %d of %d buffers read in place, expected %d to %d",
        modes[m].props, a.in_place, a.n, modes[m].min_in_place,
        modes[m].max_in_place);
    fail_unless (x->len == y->len && memcmp (x->data, y->data, x->len) == 0,
        "'%s': the images differ from the reader threads'", modes[m].props);
    g_byte_array_unref (x);
    g_free (with);
  }
  g_byte_array_unref (y);
  g_unlink (path);
  g_free (path);
  g_free (without);
}

GST_END_TEST;

/* A seek forgets the buffers the readers fetched ahead (the file stays
 * page-locked): the first buffer after it is the B-scan asked for, and the
 * rest follow in order, with the file's samples, in place or not. */
GST_START_TEST (test_in_place_seek)
{
  gchar *path = write_pattern ();
  guint m;

  for (m = 0; m < G_N_ELEMENTS (modes); m++) {
    gchar *launch = g_strdup_printf ("aooctfilesrc name=src location=%s "
        "width=%d height=%d framerate=100/1 %s ! aooctdcsub backend=cuda ! "
        "appsink name=sink sync=false", path, W, H, modes[m].props);
    Seen a;
    GByteArray *x = run (launch, 250, &a);

    fail_unless_equals_int (a.first, 25);
    fail_unless_equals_int (a.run, N_BSCANS - 25);
    fail_unless_equals_int (a.bad, 0);
    fail_unless (a.in_place >= MIN (modes[m].min_in_place, a.run - 2)
        && a.in_place <= modes[m].max_in_place,
        "'%s': %d of %d buffers read in place after the seek",
        modes[m].props, a.in_place, a.run);
    g_byte_array_unref (x);
    g_free (launch);
  }
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

#define BIN "aooctbin backend=cuda wavelength-coeffs=\"785,0.054\" a2=8 " \
  "a3=-2 %s ! appsink name=sink sync=false"

/* aooctbin with two branches (gpus=0,0, both on the device there is): the
 * page-locked pool is asked of the branches through aooctsplit, so the
 * file is read in place on each; the images are those of one chain, byte
 * for byte, in order, from the start and after a seek. */
GST_START_TEST (test_in_place_branches)
{
  gchar *path = write_pattern ();
  gint seek_ms[] = { 0, 250 }, k;

  for (k = 0; k < (gint) G_N_ELEMENTS (seek_ms); k++) {
    gchar *one = g_strdup_printf ("aooctfilesrc name=src location=%s "
        "width=%d height=%d framerate=100/1 ! " BIN, path, W, H, "");
    gchar *two = g_strdup_printf ("aooctfilesrc name=src location=%s "
        "width=%d height=%d framerate=100/1 ! " BIN, path, W, H, "gpus=0,0");
    Seen a, b;
    GByteArray *x = run (one, seek_ms[k], &a), *y = run (two, seek_ms[k], &b);

    fail_unless_equals_int (b.bad, 0);
    fail_unless_equals_int (b.run, a.run);
    fail_unless_equals_int (b.run, k == 0 ? N_BSCANS : N_BSCANS - 25);
    fail_unless (b.in_place >= b.run - 2, "seek %d ms: %d of %d buffers "
        "read in place through two branches", seek_ms[k], b.in_place, b.run);
    fail_unless (x->len > 0 && x->len == y->len
        && memcmp (x->data, y->data, x->len) == 0, "seek %d ms: the images of "
        "two branches differ from one chain's", seek_ms[k]);
    g_byte_array_unref (x);
    g_byte_array_unref (y);
    g_free (one);
    g_free (two);
  }
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

void
aooct_test_add_cuda_tests (TCase * tc)
{
  tcase_add_test (tc, test_in_place_same_images);
  tcase_add_test (tc, test_in_place_seek);
  tcase_add_test (tc, test_in_place_branches);
}
