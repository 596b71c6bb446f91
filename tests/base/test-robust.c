/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: robustness of each backend (the "session cannot be
 * repeated" issue); tcases "cpu" and "cuda" (meson: robust,
 * robust-cuda; exit 77, meson: skipped, where no CUDA device is usable).  Bad caps at every element (zero, odd, huge sizes),
 * impossible property values, buffers of the wrong size, renegotiation
 * mid-stream to another geometry (output compared with a fresh chain's),
 * buffer accounting through the whole chain (count, order, PTS / DTS /
 * duration, EOS, a flushing seek on a filesrc ! rawvideoparse pipeline),
 * calibration changes while PLAYING, and the life cycle: NULL -> PLAYING ->
 * NULL cycles and a long run of small B-scans without growth in RSS.
 *
 * AOOCT_ROBUST_SCALE=k divides the cycle and B-scan counts by k and skips
 * the RSS and device-memory bounds (scripts/checks/check-sanitizers.sh,
 * check-valgrind.sh and the compute-sanitizer runs set it: there the leak
 * checkers do that job, and the tools' own bookkeeping grows host and
 * device memory: +700 MiB RSS and +216 MiB of device memory over 9,000
 * B-scans under memcheck). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"

#ifdef HAVE_CUDA
#include <cuda_runtime.h>
#endif

#define COEFFS "785,0.125,1e-05,-2e-09"
#define RAW_CAPS "video/x-raw,format=GRAY16_LE,width=%d,height=%d," \
  "framerate=10/1"
/* the whole chain, CPU aooct_test_backend, on raw frames of the synthetic camera's
 * calibration */
#define CHAIN "aooctdcsub backend=cpu ! aooctpad backend=cpu ! " \
  "aooctkmap backend=cpu wavelength-coeffs=" COEFFS " ! " \
  "aooctdisp backend=cpu a2=8 a3=-2 ! aooctfft backend=cpu window=hann ! " \
  "aooctnorm backend=cpu"

/* @launch (written with backend=cpu) on the backend under test; g_free */
static gchar *
on_backend (const gchar * launch)
{
  GRegex *re = g_regex_new ("backend=cpu", 0, 0, NULL);
  gchar *repl = g_strdup_printf ("backend=%s", aooct_test_backend);
  gchar *out = g_regex_replace_literal (re, launch, -1, 0, repl, 0, NULL);

  g_regex_unref (re);
  g_free (repl);
  return out;
}

static gboolean
on_cuda (void)
{
  return g_str_equal (aooct_test_backend, "cuda");
}

/* Free device memory in bytes (device 0, every process counted), or 0 on
 * the CPU backend: the CUDA life-cycle checks bound its decrease. */
static gint64
device_free_bytes (void)
{
#ifdef HAVE_CUDA
  size_t free_b = 0, total_b = 0;

  if (!on_cuda ())
    return 0;
  fail_unless_equals_int (cudaMemGetInfo (&free_b, &total_b), cudaSuccess);
  return (gint64) free_b;
#else
  return 0;
#endif
}

static GstHarness *
harness_parse (const gchar * launch)
{
  gchar *l = on_backend (launch);
  GstHarness *h = gst_harness_new_parse (l);

  g_free (l);
  return h;
}

/* with a bus for element errors (aooct_test_harness_new) */
static GstHarness *
harness_with_bus (const gchar * launch)
{
  gchar *l = on_backend (launch);
  GstHarness *h = aooct_test_harness_new (l);

  g_free (l);
  return h;
}

static GstElement *
parse_launch (const gchar * launch)
{
  gchar *l = on_backend (launch);
  GstElement *p = gst_parse_launch (l, NULL);

  g_free (l);
  return p;
}

static gint
scale (void)
{
  const gchar *s = g_getenv ("AOOCT_ROBUST_SCALE");
  gint k = s ? atoi (s) : 1;

  return MAX (k, 1);
}

/* Resident set size of this process in KiB (VmRSS). */
static gint64
rss_kib (void)
{
  gchar *status = NULL, *p;
  gint64 kib = -1;

  if (g_file_get_contents ("/proc/self/status", &status, NULL, NULL)
      && (p = strstr (status, "VmRSS:")))
    kib = g_ascii_strtoll (p + 6, NULL, 10);
  g_free (status);
  return kib;
}

/* Realistic raw spectra: a Gaussian source spectrum, a few reflectors
 * (fringes whose frequency changes across the B-scan), noise; 12 bit. */
static guint16 *
make_frame (GRand * rand, gint n, gint rows)
{
  guint16 *raw = g_new (guint16, (gsize) n * rows);
  gint m, i;

  for (m = 0; m < rows; m++)
    for (i = 0; i < n; i++) {
      gdouble x = (i - n / 2.0) / (n / 4.0), src = 2500.0 * exp (-x * x);
      gdouble v = 64 + src * (1.0 + 0.05 * cos (0.4 * i + 0.002 * m * i)
          + 0.02 * cos (1.3 * i - 0.01 * m));

      v += g_rand_double_range (rand, -6, 6);
      raw[(gsize) m * n + i] = (guint16) CLAMP (v, 0, 4095);
    }
  return raw;
}

/* Fails unless @msg (taken) is EOS; names the error otherwise. */
static void
assert_eos (GstMessage * msg)
{
  fail_unless (msg != NULL, "timeout");
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;

    gst_message_parse_error (msg, &err, NULL);
    fail ("%s: %s", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message);
  }
  fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
}

/* ---- bad caps ------------------------------------------------------------ */

/* application/x-aooct with every field given, real spectral */
#define AOOCT_CAPS(samples, alines, bscans, raw, off, fac, size) \
  "application/x-aooct,domain=spectral,sample-type=real,samples=" \
  G_STRINGIFY (samples) ",alines=" G_STRINGIFY (alines) ",bscans=" \
  G_STRINGIFY (bscans) ",raw-samples=" G_STRINGIFY (raw) ",pad-offset=" \
  G_STRINGIFY (off) ",pad-factor=" G_STRINGIFY (fac) ",pad-size=" \
  G_STRINGIFY (size) ",k-linear=false,framerate=10/1"

typedef struct
{
  const gchar *launch;
  const gchar *caps;
  /* the element error must contain this; NULL: the caps are outside the
   * pad template, so the pad refuses them and the push returns
   * not-negotiated (upstream then posts GStreamer's own error) */
  const gchar *what;
} BadCaps;

static const BadCaps bad_caps[] = {
  /* aooctdcsub: video/x-raw */
  {"aooctdcsub", "video/x-raw,format=GRAY16_LE,width=0,height=8,"
        "framerate=10/1", NULL},
  {"aooctdcsub", "video/x-raw,format=GRAY16_LE,width=1,height=8,"
        "framerate=10/1", NULL},
  {"aooctdcsub", "video/x-raw,format=GRAY16_LE,width=64,height=0,"
        "framerate=10/1", NULL},
  {"aooctdcsub", "video/x-raw,format=GRAY16_LE,width=1048577,height=8,"
        "framerate=10/1", NULL},
  {"aooctdcsub", "video/x-raw,format=GRAY16_LE,width=64,height=65537,"
        "framerate=10/1", "alines=65537"},
  /* 16384 x 65536 x 4 bytes of float: 4 GiB */
  {"aooctdcsub", "video/x-raw,format=GRAY16_LE,width=16384,height=65536,"
        "framerate=10/1", "2 GiB"},
  {"aooctdcsub alines-per-bscan=7", "video/x-raw,format=GRAY16_LE,"
        "width=64,height=64,framerate=10/1", "alines-per-bscan=7"},
  /* application/x-aooct at each later element */
  {"aooctpad", AOOCT_CAPS (0, 8, 1, 0, 0, 1, 0), "raw-samples=0"},
  {"aooctpad", AOOCT_CAPS (64, 0, 1, 64, 0, 1, 64), "alines=0"},
  {"aooctpad", AOOCT_CAPS (64, 8, 0, 64, 0, 1, 64), "bscans=0"},
  {"aooctpad", AOOCT_CAPS (64, 8, 4097, 64, 0, 1, 64), "bscans=4097"},
  {"aooctpad", AOOCT_CAPS (2097152, 8, 1, 2097152, 0, 1, 2097152),
      "raw-samples=2097152"},
  {"aooctpad", AOOCT_CAPS (1048576, 1024, 1, 1048576, 0, 1, 1048576),
      "2 GiB"},
  {"aooctpad size=1048576 factor=2", AOOCT_CAPS (1000, 8, 1, 1000, 0, 1,
          1000), "1048576"},
  {"aooctkmap wavelength-coeffs=800,1", AOOCT_CAPS (99, 8, 1, 64, 0, 1, 64),
      "samples=99"},
  {"aooctkmap wavelength-coeffs=800,1", AOOCT_CAPS (192, 8, 1, 64, 0, 3, 64),
      "pad-factor=3"},
  {"aooctkmap wavelength-coeffs=800,1", AOOCT_CAPS (128, 8, 1, 64, 40, 2,
          64), "pad-offset=40"},
  {"aooctdisp", AOOCT_CAPS (63, 8, 1, 63, -1, 1, 63), "pad-offset=-1"},
  {"aooctfft", AOOCT_CAPS (64, 8, 1, 65, 0, 1, 64), "pad-size=64"},
  {"aooctnorm", AOOCT_CAPS (64, 8, 1, 64, 0, 1, 64), "depth"},
  {"aooctnorm", "application/x-aooct,domain=depth,sample-type=complex,"
        "samples=64,alines=8,bscans=1,raw-samples=64,pad-offset=0,"
        "pad-factor=1,pad-size=64,k-linear=true,framerate=-1/1",
      "framerate"},
  {"aooctfft", "application/x-aooct,domain=spectral,sample-type=fancy,"
        "samples=64,alines=8,bscans=1,raw-samples=64,pad-offset=0,"
        "pad-factor=1,pad-size=64,k-linear=true,framerate=10/1",
      "sample-type"},
  {"aooctfft", "application/x-aooct,domain=spectral,sample-type=real,"
        "samples=64,alines=8,bscans=1,raw-samples=64,pad-offset=0,"
        "pad-factor=1,k-linear=true,framerate=10/1", "pad-size"},
};

GST_START_TEST (test_bad_caps)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad_caps); i++) {
    gchar *launch =
        g_strconcat (bad_caps[i].launch, " backend=", aooct_test_backend, NULL);
    GstHarness *h = aooct_test_harness_new (launch);
    GstCaps *caps = gst_caps_from_string (bad_caps[i].caps);
    gchar **words = g_strsplit (bad_caps[i].launch, " ", 2);
    GstPad *sink = gst_element_get_static_pad (aooct_test_element (h,
            words[0]), "sink");
    GstCaps *tmpl = gst_pad_get_pad_template_caps (sink);
    gboolean in_template = gst_caps_can_intersect (caps, tmpl);
    guint8 zeros[64] = { 0 };
    GstFlowReturn ret;
    gchar *err;

    if (g_getenv ("AOOCT_ROBUST_VERBOSE"))
      g_printerr ("case %u: %s with %s\n", i, launch, bad_caps[i].caps);
    fail_unless (caps != NULL);
    fail_unless_equals_int (in_template, bad_caps[i].what != NULL);
    gst_harness_set_src_caps (h, caps);
    ret = gst_harness_push (h, aooct_test_buffer_new (zeros, sizeof (zeros)));
    err = aooct_test_pop_error (h);
    if (bad_caps[i].what) {
      fail_unless (ret != GST_FLOW_OK);
      fail_unless (err != NULL && strstr (err, bad_caps[i].what),
          "%s with %s: error '%s' does not mention '%s'", launch,
          bad_caps[i].caps, err, bad_caps[i].what);
    } else {
      fail_unless_equals_int (ret, GST_FLOW_NOT_NEGOTIATED);
    }
    fail_unless_equals_int (gst_harness_buffers_received (h), 0);
    g_free (err);
    g_strfreev (words);
    gst_caps_unref (tmpl);
    gst_object_unref (sink);
    gst_harness_teardown (h);
    g_free (launch);
  }
}

GST_END_TEST;

/* Impossible property values: an element error naming the property. */
typedef struct
{
  const gchar *launch;
  const gchar *what;
  const gchar *caps;            /* NULL: a 64-sample A-line */
} BadProp;

GST_START_TEST (test_bad_properties)
{
  static const BadProp bad[] = {
    {"aooctpad factor=3", "factor"},
    {"aooctpad size=1000", "size"},
    {"aooctpad size=32", "size"},
    {"aooctkmap", "wavelength"},
    {"aooctkmap wavelength-coeffs=800,1 wavelength-file=/nonexistent",
        "both"},
    {"aooctkmap wavelength-coeffs=800,-20", "positive"},
    {"aooctkmap wavelength-coeffs=800,1,-0.1", "monotonic"},
    {"aooctkmap wavelength-coeffs=800,nan", "not finite"},
    {"aooctkmap wavelength-coeffs=800,1,2,3,4", "coefficients"},
    /* issue 40: metres, and numpy.polyval's order */
    {"aooctkmap wavelength-coeffs=8.68e-7,1.2e-10", "metres"},
    {"aooctkmap wavelength-coeffs=2e-9,-1e-5,0.1,800", "descending order"},
    /* found by fuzz/fuzz-coeffs.c: accepted analytically, but the k grid
     * cancels to inf (t = inf, NaN A-lines); lambda(0) = 7.85e-48 nm is
     * now refused before, as no light source's */
    {"aooctkmap wavelength-coeffs=785e-50,11,-2e-04", "coefficients are in nm",
        AOOCT_CAPS (4096, 8, 1, 833, 607, 2, 2048)},
    {"aooctdisp a2=1 phase-file=/nonexistent", "phase-file"},
    {"aooctnorm crop-start=40 crop-end=20", "crop"},
    {"aooctnorm crop-end=5000", "crop-end"},
    {"aooctnorm auto-range=false range-min=5 range-max=5", "range"},
  };
  const gchar *caps[] = {
    AOOCT_CAPS (64, 8, 1, 64, 0, 1, 64),
    "application/x-aooct,domain=depth,sample-type=complex,samples=64,"
        "alines=8,bscans=1,raw-samples=64,pad-offset=0,pad-factor=1,"
        "pad-size=64,k-linear=true,framerate=10/1",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    gchar *launch =
        g_strconcat (bad[i].launch, " backend=", aooct_test_backend, NULL);
    gboolean norm = g_str_has_prefix (bad[i].launch, "aooctnorm");

    GST_INFO ("case %u: %s", i, launch);
    aooct_test_expect_error (launch, gst_caps_from_string (bad[i].caps ?
            bad[i].caps : caps[norm]), bad[i].what, NULL);
    g_free (launch);
  }
}

GST_END_TEST;

/* ---- buffers of the wrong size ------------------------------------------ */

/* Largest allocation asked of the allocator proposed to the element: a
 * wrapper around the system allocator that records the size. */
typedef struct
{
  GstAllocator parent;
  gsize max_size;
} SizeAllocator;
typedef GstAllocatorClass SizeAllocatorClass;

GType size_allocator_get_type (void);
G_DEFINE_TYPE (SizeAllocator, size_allocator, GST_TYPE_ALLOCATOR);

static GstMemory *
size_allocator_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  SizeAllocator *self = (SizeAllocator *) allocator;

  self->max_size = MAX (self->max_size, size);
  return gst_allocator_alloc (NULL, size, params);
}

static void
size_allocator_free (GstAllocator * allocator, GstMemory * mem)
{
  g_assert_not_reached ();      /* memories belong to the system allocator */
}

static void
size_allocator_class_init (SizeAllocatorClass * klass)
{
  klass->alloc = size_allocator_alloc;
  klass->free = size_allocator_free;
}

static void
size_allocator_init (SizeAllocator * self)
{
  GST_ALLOCATOR (self)->mem_type = "aooct-test-size";
}

/* Short and long buffers at every element: an error that says which, no
 * output; and for caps whose buffers are huge (1 GiB out of aooctdcsub, 512
 * MiB out of aooctpad), a short buffer is refused before the output is
 * allocated. */
GST_START_TEST (test_wrong_buffer_sizes)
{
  static const struct
  {
    const gchar *launch;
    const gchar *caps;
    gsize bytes;
  } cases[] = {
    {"aooctdcsub", "video/x-raw,format=GRAY16_LE,width=64,height=8,"
          "framerate=10/1", 64 * 8 * 2},
    {"aooctpad", AOOCT_CAPS (64, 8, 1, 64, 0, 1, 64), 64 * 8 * 4},
    {"aooctkmap wavelength-coeffs=800,1", AOOCT_CAPS (64, 8, 1, 64, 0, 1,
            64), 64 * 8 * 4},
    {"aooctdisp a2=3", AOOCT_CAPS (64, 8, 1, 64, 0, 1, 64), 64 * 8 * 4},
    {"aooctfft", AOOCT_CAPS (64, 8, 1, 64, 0, 1, 64), 64 * 8 * 4},
    {"aooctnorm", "application/x-aooct,domain=depth,sample-type=complex,"
          "samples=64,alines=8,bscans=1,raw-samples=64,pad-offset=0,"
          "pad-factor=1,pad-size=64,k-linear=true,framerate=10/1",
        64 * 8 * 8},
    /* huge: 4096 x 65536 float out of aooctdcsub is 1 GiB */
    {"aooctdcsub", "video/x-raw,format=GRAY16_LE,width=4096,height=65536,"
          "framerate=10/1", 0},
    /* 64 -> 2048 x 2 samples x 16384 A-lines: 512 MiB out of aooctpad */
    {"aooctpad factor=2", AOOCT_CAPS (64, 16384, 1, 64, 0, 1, 64), 0},
  };
  guint i, k;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gsize sizes[2], n_sizes = cases[i].bytes ? 2 : 1;

    sizes[0] = cases[i].bytes ? cases[i].bytes - 4 : 64;
    sizes[1] = cases[i].bytes + 8;
    for (k = 0; k < n_sizes; k++) {
      gchar *launch =
          g_strconcat (cases[i].launch, " backend=", aooct_test_backend, NULL);
      GstHarness *h = aooct_test_harness_new (launch);
      SizeAllocator *alloc = g_object_new (size_allocator_get_type (), NULL);
      guint8 *zeros = g_malloc0 (sizes[k]);

      gst_object_ref_sink (alloc);
      gst_harness_set_propose_allocator (h, GST_ALLOCATOR (gst_object_ref
              (alloc)), NULL);
      gst_harness_set_src_caps_str (h, cases[i].caps);
      fail_unless_equals_int (gst_harness_push (h,
              aooct_test_buffer_new (zeros, sizes[k])), GST_FLOW_ERROR);
      aooct_test_assert_error (h, "bytes", k == 0 ? "too short" : "too long",
          NULL);
      fail_unless_equals_int (gst_harness_buffers_received (h), 0);
      /* nothing like the output size was asked for a refused buffer */
      fail_unless (alloc->max_size < 1024 * 1024,
          "%s: %" G_GSIZE_FORMAT " bytes allocated for a refused buffer",
          launch, alloc->max_size);
      gst_harness_teardown (h);
      gst_object_unref (alloc);
      g_free (zeros);
      g_free (launch);
    }
  }
}

GST_END_TEST;

/* ---- renegotiation -------------------------------------------------------- */

/* Output of CHAIN (harness) for one raw frame. */
static GstBuffer *
push_frame (GstHarness * h, const guint16 * raw, gint n, gint rows)
{
  GstBuffer *out = gst_harness_push_and_pull (h,
      aooct_test_buffer_new (raw, (gsize) n * rows * 2));

  fail_unless (out != NULL);
  return out;
}

/* Same GRAY8 image of @width x @height in @a and @b; the row padding of
 * an odd width (rows are 4-byte aligned) is not part of it. */
static void
assert_same_image (GstBuffer * a, GstBuffer * b, gint width, gint height,
    const gchar * what)
{
  GstMapInfo ma, mb;
  gsize stride = GST_ROUND_UP_4 (width);
  gint r, c, nd = 0, maxd = 0;

  fail_unless (gst_buffer_map (a, &ma, GST_MAP_READ));
  fail_unless (gst_buffer_map (b, &mb, GST_MAP_READ));
  fail_unless_equals_int (ma.size, stride * height);
  fail_unless_equals_int (mb.size, stride * height);
  for (r = 0; r < height; r++)
    for (c = 0; c < width; c++) {
      gint d = ABS ((gint) ma.data[r * stride + c] -
          (gint) mb.data[r * stride + c]);

      nd += d != 0;
      maxd = MAX (maxd, d);
    }
  fail_unless (nd == 0, "%s differs in %d of %d pixels (by up to %d)", what,
      nd, width * height, maxd);
  gst_buffer_unmap (a, &ma);
  gst_buffer_unmap (b, &mb);
}

/* The output of a fresh chain for @raw (n x rows). */
static GstBuffer *
fresh_output (const gchar * launch, const guint16 * raw, gint n, gint rows)
{
  GstHarness *h = harness_parse (launch);
  GstBuffer *out;

  aooct_test_set_caps_printf (h, RAW_CAPS, n, rows);
  out = push_frame (h, raw, n, rows);
  gst_harness_teardown (h);
  return out;
}

/* A -> B -> A -> C mid-stream: every element rebuilds its plans, tables and
 * buffers, and each output is byte for byte what a chain that only ever
 * saw that geometry makes. */
GST_START_TEST (test_renegotiate_geometry)
{
  static const gint geoms[][2] = { {256, 16}, {512, 24}, {256, 16}, {300, 5} };
  GRand *rand = aooct_test_rand_new ();
  GstHarness *h = harness_parse (CHAIN);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (geoms); i++) {
    gint n = geoms[i][0], rows = geoms[i][1];
    guint16 *raw = make_frame (rand, n, rows);
    GstBuffer *out, *ref;
    GstCaps *caps;
    gint w, ht;

    aooct_test_set_caps_printf (h, RAW_CAPS, n, rows);
    out = push_frame (h, raw, n, rows);
    /* and a second frame on the same caps */
    gst_buffer_unref (push_frame (h, raw, n, rows));
    ref = fresh_output (CHAIN, raw, n, rows);
    assert_same_image (out, ref, rows, 1024, "output after renegotiation");
    caps = gst_pad_get_current_caps (h->sinkpad);
    fail_unless (gst_structure_get_int (gst_caps_get_structure (caps, 0),
            "width", &w));
    fail_unless (gst_structure_get_int (gst_caps_get_structure (caps, 0),
            "height", &ht));
    fail_unless_equals_int (w, rows);
    fail_unless_equals_int (ht, 1024);  /* P1 = 2048: crop-end = P1 / 2 */
    gst_caps_unref (caps);
    gst_buffer_unref (out);
    gst_buffer_unref (ref);
    g_free (raw);
  }
  gst_harness_teardown (h);
  g_rand_free (rand);
}

GST_END_TEST;

/* ---- changes while PLAYING ---------------------------------------------- */

/* a2/a3, window, dynamic range changed between buffers apply to the next
 * buffer exactly as a fresh chain with the new values computes it; a bad
 * phase file set while playing is an error naming it, with no output, and
 * a good one afterwards works again. */
GST_START_TEST (test_change_while_playing)
{
  const gint n = 256, rows = 16;
  GRand *rand = aooct_test_rand_new ();
  guint16 *raw = make_frame (rand, n, rows);
  GstHarness *h = harness_with_bus (CHAIN);
  GstElement *disp = aooct_test_element (h, "aooctdisp");
  GstElement *fft = aooct_test_element (h, "aooctfft");
  GstElement *norm = aooct_test_element (h, "aooctnorm");
  GstBuffer *out, *ref;
  gchar *bad, *launch;
  GString *good = g_string_new ("# phase\n");
  gchar *good_path;
  gint i;

  aooct_test_set_caps_printf (h, RAW_CAPS, n, rows);
  gst_buffer_unref (push_frame (h, raw, n, rows));

  g_object_set (disp, "a2", 5.0, "a3", 1.0, NULL);
  g_object_set (norm, "dynamic-range", 40.0, NULL);
  gst_util_set_object_arg (G_OBJECT (fft), "window", "blackman");
  out = push_frame (h, raw, n, rows);
  launch = g_strdup (CHAIN);
  {
    GRegex *re = g_regex_new ("a2=8 a3=-2", 0, 0, NULL);
    gchar *tmp = g_regex_replace_literal (re, launch, -1, 0, "a2=5 a3=1", 0,
        NULL);
    g_regex_unref (re);
    g_free (launch);
    re = g_regex_new ("window=hann", 0, 0, NULL);
    launch = g_regex_replace_literal (re, tmp, -1, 0,
        "window=blackman", 0, NULL);
    g_regex_unref (re);
    g_free (tmp);
    tmp = g_strconcat (launch, " dynamic-range=40", NULL);
    g_free (launch);
    launch = tmp;
  }
  ref = fresh_output (launch, raw, n, rows);
  assert_same_image (out, ref, rows, 1024,
      "output after a2/a3/window/range change");
  gst_buffer_unref (out);
  gst_buffer_unref (ref);
  g_free (launch);

  /* a truncated phase file while playing: error, no output */
  bad = aooct_test_write_temp ("0.1\n0.2\n");
  g_object_set (disp, "a2", 0.0, "a3", 0.0, "phase-file", bad, NULL);
  fail_unless_equals_int (gst_harness_push (h, aooct_test_buffer_new (raw,
              (gsize) n * rows * 2)), GST_FLOW_ERROR);
  aooct_test_assert_error (h, "phase-file", bad, "too few", NULL);
  fail_unless (gst_harness_try_pull (h) == NULL);

  /* a good one (P2 = 4096 phases) afterwards: output again */
  for (i = 0; i < 4096; i++)
    g_string_append_printf (good, "%.17g\n", 1e-6 * (i - 2048.0) * (i -
            2048.0));
  good_path = aooct_test_write_temp (good->str);
  g_object_set (disp, "phase-file", good_path, NULL);
  out = push_frame (h, raw, n, rows);
  gst_buffer_unref (out);

  gst_harness_teardown (h);
  g_unlink (bad);
  g_unlink (good_path);
  g_free (bad);
  g_free (good_path);
  g_string_free (good, TRUE);
  g_free (raw);
  g_rand_free (rand);
}

GST_END_TEST;

/* ---- accounting --------------------------------------------------------- */

/* appsrc with PTS, DTS and duration set (some DTS unset, irregular
 * spacing) ! CHAIN ! appsink: one output per input, in order, with the
 * input's timestamps, then EOS. */
GST_START_TEST (test_accounting_appsrc)
{
  const gint n = 128, rows = 8, count = 40;
  GRand *rand = aooct_test_rand_new ();
  gchar *launch = g_strdup_printf ("appsrc name=src format=time caps=\""
      RAW_CAPS "\" ! " CHAIN " ! appsink name=sink sync=false", n, rows);
  GstElement *p = parse_launch (launch);
  GstElement *src = gst_bin_get_by_name (GST_BIN (p), "src");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  GstClockTime pts[40], dts[40], dur[40], t = 5 * GST_MSECOND;
  GstBus *bus = gst_element_get_bus (p);
  GstMessage *msg;
  gint i, got = 0;

  fail_unless (p != NULL);
  g_object_set (sink, "max-buffers", 0, NULL);
  fail_unless (gst_element_set_state (p, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  for (i = 0; i < count; i++) {
    guint16 *raw = make_frame (rand, n, rows);
    GstBuffer *buf = aooct_test_buffer_new (raw, (gsize) n * rows * 2);

    pts[i] = t;
    dts[i] = i % 3 == 0 ? GST_CLOCK_TIME_NONE : t - GST_MSECOND;
    dur[i] = (10 + g_rand_int_range (rand, 0, 90)) * GST_MSECOND;
    t += dur[i];
    GST_BUFFER_PTS (buf) = pts[i];
    GST_BUFFER_DTS (buf) = dts[i];
    GST_BUFFER_DURATION (buf) = dur[i];
    GST_BUFFER_OFFSET (buf) = i;
    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src), buf),
        GST_FLOW_OK);
    g_free (raw);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  /* appsink holds EOS back until its queue is drained: pull first */
  while (TRUE) {
    GstSample *s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        30 * GST_SECOND);
    GstBuffer *b;

    if (s == NULL)
      break;
    fail_unless (got < count, "more outputs than inputs");
    b = gst_sample_get_buffer (s);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (b), pts[got]);
    fail_unless_equals_uint64 (GST_BUFFER_DTS (b), dts[got]);
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (b), dur[got]);
    fail_unless_equals_int (gst_buffer_get_size (b), rows * 1024);
    gst_sample_unref (s);
    got++;
  }
  msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  assert_eos (msg);
  fail_unless_equals_int (got, count);
  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (sink)));

  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (p);
  g_free (launch);
  g_rand_free (rand);
}

GST_END_TEST;

/* Runs @p (with an appsink "sink") from PAUSED, optionally after a flushing
 * seek to @seek_to, to EOS; returns the samples in order. */
static GPtrArray *
run_file_pipeline (GstElement * p, GstClockTime seek_to)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  GstBus *bus = gst_element_get_bus (p);
  GPtrArray *samples = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_sample_unref);
  GstMessage *msg;
  GstSample *s;

  fail_unless (gst_element_set_state (p, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless_equals_int (gst_element_get_state (p, NULL, NULL,
          30 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
  if (GST_CLOCK_TIME_IS_VALID (seek_to)) {
    fail_unless (gst_element_seek_simple (p, GST_FORMAT_TIME,
            GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE, seek_to));
    fail_unless_equals_int (gst_element_get_state (p, NULL, NULL,
            30 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
  }
  gst_element_set_state (p, GST_STATE_PLAYING);
  /* appsink holds EOS back until its queue is drained: pull first */
  while ((s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
              30 * GST_SECOND)))
    g_ptr_array_add (samples, s);
  msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  assert_eos (msg);
  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (sink)));
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (sink);
  return samples;
}

/* aooctsrc frames to a raw file, then filesrc ! rawvideoparse ! CHAIN:
 * every frame once, in order, PTS = i / framerate; after a flushing seek
 * to frame 7, exactly frames 7.. come out, each the same image as in the
 * run without seek. */
GST_START_TEST (test_accounting_file_seek)
{
  const gint n = 256, rows = 16, frames = 20, seek_frame = 7;
  gchar *path = aooct_test_write_temp ("");
  gchar *launch = g_strdup_printf ("aooctsrc samples=%d alines=%d seed=5 "
      "center-wavelength=800 bandwidth=20 num-buffers=%d framerate=10/1 ! filesink location=%s",
      n, rows,
      frames, path);
  gchar *err = aooct_test_run_pipeline (launch, 60);
  GPtrArray *all, *after;
  GstElement *p;
  gint i;

  fail_unless (err == NULL, "%s", err);
  g_free (launch);
  launch = g_strdup_printf ("filesrc location=%s ! rawvideoparse "
      "format=gray16-le width=%d height=%d framerate=10/1 ! " CHAIN
      " ! appsink name=sink sync=false max-buffers=0", path, n, rows);

  p = parse_launch (launch);
  all = run_file_pipeline (p, GST_CLOCK_TIME_NONE);
  gst_object_unref (p);
  fail_unless_equals_int (all->len, frames);
  for (i = 0; i < frames; i++) {
    GstBuffer *b = gst_sample_get_buffer (g_ptr_array_index (all, i));

    fail_unless_equals_uint64 (GST_BUFFER_PTS (b), i * GST_SECOND / 10);
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (b), GST_SECOND / 10);
  }

  p = parse_launch (launch);
  after = run_file_pipeline (p, seek_frame * GST_SECOND / 10);
  gst_object_unref (p);
  fail_unless_equals_int (after->len, frames - seek_frame);
  for (i = 0; i < frames - seek_frame; i++) {
    GstBuffer *b = gst_sample_get_buffer (g_ptr_array_index (after, i));
    GstBuffer *ref = gst_sample_get_buffer (g_ptr_array_index (all,
            i + seek_frame));

    fail_unless_equals_uint64 (GST_BUFFER_PTS (b), GST_BUFFER_PTS (ref));
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (b),
        GST_BUFFER_DURATION (ref));
    assert_same_image (b, ref, rows, 1024, "frame after seek");
  }

  g_ptr_array_unref (all);
  g_ptr_array_unref (after);
  g_unlink (path);
  g_free (path);
  g_free (launch);
}

GST_END_TEST;

/* ---- life cycle --------------------------------------------------------- */

/* NULL -> PLAYING (first B-scan through the whole chain) -> NULL, 1000
 * times.  Each cycle allocates FFTW plans, tables and buffer pools (one
 * output buffer of aooctpad is 2048 x 2 x 16 x 4 = 256 KiB), so a leak of
 * any of them grows RSS by at least 100 MiB; the bound is 8 MiB after a
 * warm-up of 50 cycles (malloc arenas and GStreamer's caches settle). */
GST_START_TEST (test_state_cycles)
{
  const gint cycles = 1000 / scale (), warmup = MIN (50, cycles / 2);
  GstElement *p = parse_launch ("aooctsrc samples=256 alines=16 seed=1 "
      "phantom=mirror center-wavelength=800 bandwidth=20 ! " CHAIN
      " ! fakesink sync=false");
  gint64 rss0 = 0, rss1, dev0 = 0, dev1;
  gint64 t0 = g_get_monotonic_time ();
  gint i;

  /* the test's own CUDA context first: its creation is not a leak */
  device_free_bytes ();
  fail_unless (p != NULL);
  for (i = 0; i < cycles; i++) {
    if (i == warmup) {
      rss0 = rss_kib ();
      dev0 = device_free_bytes ();
    }
    fail_unless (gst_element_set_state (p, GST_STATE_PLAYING) !=
        GST_STATE_CHANGE_FAILURE);
    /* PLAYING reached: the sink has prerolled a B-scan */
    fail_unless_equals_int (gst_element_get_state (p, NULL, NULL,
            10 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
    fail_unless_equals_int (gst_element_set_state (p, GST_STATE_NULL),
        GST_STATE_CHANGE_SUCCESS);
  }
  rss1 = rss_kib ();
  dev1 = device_free_bytes ();
  g_print ("state cycles (%s): %d in %.1f s, RSS %" G_GINT64_FORMAT
      " KiB after %d, %" G_GINT64_FORMAT " KiB after %d (%+" G_GINT64_FORMAT
      " KiB)\n", aooct_test_backend, cycles,
      (g_get_monotonic_time () - t0) / 1e6, rss0, warmup, rss1, cycles,
      rss1 - rss0);
  if (on_cuda ())
    g_print ("state cycles (cuda): device memory free %" G_GINT64_FORMAT
        " MiB after %d, %" G_GINT64_FORMAT " MiB after %d\n", dev0 >> 20,
        warmup, dev1 >> 20, cycles);
  if (scale () == 1)
    fail_unless (rss1 - rss0 < 8 * 1024, "RSS grew by %" G_GINT64_FORMAT
        " KiB over %d cycles", rss1 - rss0, cycles - warmup);
  /* a leaked pool of aooctpad alone would be ~1 MiB per cycle; cuFFT work
   * areas more; cudaMemGetInfo moves in 2 MiB pages */
  if (scale () == 1)
    fail_unless (dev1 >= dev0 - (16 << 20), "device memory in use grew by %"
        G_GINT64_FORMAT " KiB over %d cycles", (dev0 - dev1) >> 10,
        cycles - warmup);
  gst_object_unref (p);
}

GST_END_TEST;

static void
count_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad,
    gpointer user_data)
{
  /* count, PTS errors, RSS and free device memory at the mark */
  gint64 *state = user_data;

  if (GST_BUFFER_PTS (buf) != (GstClockTime) state[0] * GST_SECOND / 1000)
    state[1]++;                 /* out of order or lost: counted, failed below */
  state[0]++;
  if (state[0] == 10000 / scale ()) {
    state[2] = rss_kib ();
    state[3] = device_free_bytes ();
  }
}

/* 100,000 small B-scans (64 samples x 4 A-lines, padded to 64) through the
 * whole chain: every one arrives, in order, and RSS after the first 10,000
 * does not grow by more than 2 MiB (a leak of one output image, 128 bytes,
 * per B-scan would add 11 MiB; of one buffer of aooctfft, 2 KiB, 176 MiB). */
GST_START_TEST (test_long_run)
{
  const gint total = 100000 / scale ();
  gchar *launch = g_strdup_printf ("aooctsrc samples=64 alines=4 seed=2 "
      "phantom=mirror center-wavelength=789 bandwidth=5 framerate=1000/1 num-buffers=%d ! aooctdcsub "
      "backend=cpu ! aooctpad backend=cpu size=64 ! aooctkmap backend=cpu "
      "wavelength-coeffs=" COEFFS " ! aooctdisp backend=cpu a2=8 a3=-2 ! "
      "aooctfft backend=cpu ! aooctnorm backend=cpu ! fakesink name=sink "
      "sync=false signal-handoffs=true", total);
  GstElement *p = parse_launch (launch);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  GstBus *bus = gst_element_get_bus (p);
  gint64 state[4] = { 0, 0, 0, 0 }, rss1, dev1;
  GstMessage *msg;
  gint64 t0 = g_get_monotonic_time ();

  device_free_bytes ();         /* the test's own CUDA context first */
  g_signal_connect (sink, "handoff", G_CALLBACK (count_handoff), state);
  gst_element_set_state (p, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 280 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  assert_eos (msg);
  rss1 = rss_kib ();
  dev1 = device_free_bytes ();
  gst_element_set_state (p, GST_STATE_NULL);
  g_print ("long run (%s): %" G_GINT64_FORMAT " B-scans in %.1f s, RSS %"
      G_GINT64_FORMAT " KiB after %d, %" G_GINT64_FORMAT " KiB at the end "
      "(%+" G_GINT64_FORMAT " KiB)\n", aooct_test_backend, state[0],
      (g_get_monotonic_time () - t0) / 1e6, state[2], 10000 / scale (), rss1,
      rss1 - state[2]);
  fail_unless_equals_int (state[0], total);
  fail_unless_equals_int (state[1], 0);
  if (scale () == 1)
    fail_unless (rss1 - state[2] < 2 * 1024, "RSS grew by %" G_GINT64_FORMAT
        " KiB", rss1 - state[2]);
  if (on_cuda ())
    g_print ("long run (cuda): device memory free %" G_GINT64_FORMAT " MiB "
        "after %d, %" G_GINT64_FORMAT " MiB at the end\n", state[3] >> 20,
        10000 / scale (), dev1 >> 20);
  /* a leak of one device buffer of aooctfft (2 KiB) per B-scan: 176 MiB */
  if (scale () == 1)
    fail_unless (dev1 >= state[3] - (8 << 20), "device memory in use grew by %"
        G_GINT64_FORMAT " KiB", (state[3] - dev1) >> 10);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (p);
  g_free (launch);
}

GST_END_TEST;

static void
add_robust_tests (TCase * tc, gboolean cuda)
{
  /* on CUDA every state cycle makes a CUDA context and cuFFT plans */
  tcase_set_timeout (tc, cuda ? 560 : 300);
  tcase_add_test (tc, test_bad_caps);
  tcase_add_test (tc, test_bad_properties);
  tcase_add_test (tc, test_wrong_buffer_sizes);
  tcase_add_test (tc, test_renegotiate_geometry);
  tcase_add_test (tc, test_change_while_playing);
  tcase_add_test (tc, test_accounting_appsrc);
  tcase_add_test (tc, test_accounting_file_seek);
  tcase_add_test (tc, test_state_cycles);
  tcase_add_test (tc, test_long_run);
}

static Suite *
robust_suite (void)
{
  return aooct_test_suite_per_backend ("aooct-robust", add_robust_tests);
}

GST_CHECK_MAIN (robust);
