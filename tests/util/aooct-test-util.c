/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: helpers shared by the element tests. */
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <glib/gstdio.h>
#include <gst/video/video.h>

#include "aooct-test-util.h"
#include "aooct-app-util.h"

GstHarness *
aooct_test_harness_new (const gchar * launch)
{
  GstHarness *h = gst_harness_new_parse (launch);
  GstBus *bus = gst_bus_new ();

  gst_element_set_bus (h->element, bus);
  gst_object_unref (bus);
  return h;
}

void
aooct_test_set_caps_printf (GstHarness * h, const gchar * format, ...)
{
  va_list args;
  gchar *str;

  va_start (args, format);
  str = g_strdup_vprintf (format, args);
  va_end (args);
  gst_harness_set_src_caps_str (h, str);
  g_free (str);
}

static gchar *
pop_message (GstHarness * h, GstMessageType type)
{
  GstBus *bus = gst_element_get_bus (h->element);
  GstMessage *msg;
  gchar *text = NULL;

  if (bus == NULL)
    return NULL;
  msg = gst_bus_pop_filtered (bus, type);
  if (msg) {
    GError *err = NULL;
    if (type == GST_MESSAGE_ERROR)
      gst_message_parse_error (msg, &err, NULL);
    else if (type == GST_MESSAGE_WARNING)
      gst_message_parse_warning (msg, &err, NULL);
    else
      gst_message_parse_info (msg, &err, NULL);
    text = g_strdup (err->message);
    g_error_free (err);
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
  return text;
}

gchar *
aooct_test_pop_error (GstHarness * h)
{
  return pop_message (h, GST_MESSAGE_ERROR);
}

gchar *
aooct_test_pop_warning (GstHarness * h)
{
  return pop_message (h, GST_MESSAGE_WARNING);
}

gchar *
aooct_test_pop_info (GstHarness * h)
{
  return pop_message (h, GST_MESSAGE_INFO);
}

void
aooct_test_assert_warning (GstHarness * h, const gchar * first_substring, ...)
{
  gchar *text = aooct_test_pop_warning (h);
  const gchar *sub;
  va_list args;

  fail_unless (text != NULL, "expected an element warning containing '%s'",
      first_substring);
  va_start (args, first_substring);
  for (sub = first_substring; sub; sub = va_arg (args, const gchar *))
      fail_unless (strstr (text, sub) != NULL,
        "element warning '%s' does not mention '%s'", text, sub);
  va_end (args);
  GST_INFO ("got expected warning: %s", text);
  g_free (text);
}

static void
assert_error_valist (GstHarness * h, const gchar * first_substring,
    va_list args)
{
  gchar *text = aooct_test_pop_error (h);
  const gchar *sub;

  fail_unless (text != NULL, "expected an element error containing '%s'",
      first_substring);
  for (sub = first_substring; sub; sub = va_arg (args, const gchar *))
      fail_unless (strstr (text, sub) != NULL,
        "element error '%s' does not mention '%s'", text, sub);
  GST_INFO ("got expected error: %s", text);
  g_free (text);
}

void
aooct_test_assert_error (GstHarness * h, const gchar * first_substring, ...)
{
  va_list args;

  va_start (args, first_substring);
  assert_error_valist (h, first_substring, args);
  va_end (args);
}

gchar *
aooct_test_run_pipeline (const gchar * launch, gint timeout_s)
{
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (launch, &err);
  GstBus *bus;
  GstMessage *msg;
  gchar *text = NULL;

  fail_unless (pipeline != NULL, "cannot parse '%s': %s", launch,
      err ? err->message : "?");
  g_clear_error (&err);
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, (GstClockTime) timeout_s * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "pipeline '%s' neither finished nor failed in "
      "%d s", launch, timeout_s);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *dbg = NULL;
    gst_message_parse_error (msg, &err, &dbg);
    text = g_strdup_printf ("%s: %s", GST_OBJECT_NAME (msg->src), err->message);
    GST_INFO ("pipeline error: %s (%s)", text, dbg);
    g_free (dbg);
    g_clear_error (&err);
  }
  gst_message_unref (msg);
  /* an element that posted its reason is not followed by GStreamer's
   * generic "... failed to post a proper error message" (GstBaseSrc posts
   * it whenever start() returns FALSE: aooct_src_change_state) */
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR))) {
    gst_message_parse_error (msg, &err, NULL);
    fail_if (text && strstr (err->message, "failed to post a proper error "
            "message"), "'%s': %s is followed by %s: %s", launch, text,
        GST_OBJECT_NAME (msg->src), err->message);
    g_clear_error (&err);
    gst_message_unref (msg);
  }
  fail_unless (gst_element_set_state (pipeline, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  return text;
}

void
aooct_test_expect_pipeline_error (const gchar * launch,
    const gchar * first_substring, ...)
{
  gchar *text = aooct_test_run_pipeline (launch, 30);
  const gchar *want;
  va_list args;

  fail_unless (text != NULL, "'%s' did not fail", launch);
  va_start (args, first_substring);
  for (want = first_substring; want; want = va_arg (args, const gchar *))
      fail_unless (strstr (text, want) != NULL, "'%s' failed with '%s', which "
        "does not say '%s'", launch, text, want);
  va_end (args);
  g_free (text);
}

gchar *
aooct_test_write_temp (const gchar * text)
{
  gchar *path = NULL;
  GError *err = NULL;
  gint fd = g_file_open_tmp ("aooct-test-XXXXXX.txt", &path, &err);

  fail_unless (fd >= 0, "cannot create temp file: %s",
      err ? err->message : "?");
  close (fd);
  fail_unless (g_file_set_contents (path, text, -1, NULL));
  return path;
}

gchar *
aooct_test_write_background (GRand * rand, gint n)
{
  GString *text = g_string_new (NULL);
  gchar *path;
  gint i;

  for (i = 0; i < n; i++)
    g_string_append_printf (text, "%.9g\n", g_rand_double_range (rand, 100,
            3000));
  path = aooct_test_write_temp (text->str);
  g_string_free (text, TRUE);
  return path;
}

GstBuffer *
aooct_test_buffer_new (gconstpointer data, gsize n_bytes)
{
  return gst_buffer_new_memdup (data, n_bytes);
}

GRand *
aooct_test_rand_new (void)
{
  const gchar *env = g_getenv ("AOOCT_TEST_SEED");
  guint32 seed = env ? (guint32) strtoul (env, NULL, 0) :
      (guint32) g_get_real_time ();

  g_print ("random seed %u (set AOOCT_TEST_SEED=%u to replay)\n", seed, seed);
  return g_rand_new_with_seed (seed);
}

void
aooct_test_geometry (AooctGeometry * g, gint n, gint alines, gint bscans,
    gint size, gint factor)
{
  aooct_geometry_init_raw (g, n, alines, bscans, 10, 1);
  if (factor > 0) {
    gint p1 = n, p2 = n, o = 0;

    fail_unless (aooct_pad_sizes (n, size, factor, &p1, &p2, &o, NULL));
    g->samples = p2;
    g->pad_size = p1;
    g->pad_offset = o;
    g->pad_factor = factor;
  }
  fail_unless (aooct_geometry_validate (g, NULL));
}

void
aooct_test_geometry_grid (AooctGeometry * g, gint n, gint alines,
    gint bscans, gint p1, gint p2, gint o, gint f)
{
  aooct_geometry_init_raw (g, n, alines, bscans, 10, 1);
  g->samples = p2;
  g->pad_size = p1;
  g->pad_offset = o;
  g->pad_factor = f;
}

void
aooct_test_assert_caps (GstHarness * h, const AooctGeometry * expect)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  GString *diff = g_string_new (NULL);
  AooctGeometry got;
  GError *err = NULL;

  fail_unless (caps != NULL, "no output caps");
  fail_unless (aooct_caps_to_geometry (caps, &got, &err), "%s",
      err ? err->message : "?");
  gst_caps_unref (caps);
  fail_unless (aooct_geometry_equal (&got, expect, diff),
      "output caps differ (got vs expected): %s", diff->str);
  g_string_free (diff, TRUE);
}

gsize
aooct_test_total_samples (const AooctGeometry * g)
{
  return (gsize) g->samples * aooct_geometry_total_alines (g);
}

GstElement *
aooct_test_element (GstHarness * h, const gchar * factory_name)
{
  GstElement *e = gst_harness_find_element (h, factory_name);

  fail_unless (e != NULL, "no %s in the harness", factory_name);
  gst_object_unref (e);
  return e;
}

gpointer
aooct_test_push_pull (GstHarness * h, GstCaps * caps, gconstpointer in,
    gsize in_bytes, gsize out_bytes)
{
  GstBuffer *out;
  GstMapInfo map;
  gpointer res;

  if (caps)
    gst_harness_set_src_caps (h, caps);
  out = gst_harness_push_and_pull (h, aooct_test_buffer_new (in, in_bytes));
  fail_unless (out != NULL, "no output buffer");
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  fail_unless_equals_int (map.size, out_bytes);
  res = g_memdup2 (map.data, map.size);
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  return res;
}

static void
push_expect_error_valist (GstHarness * h, GstCaps * caps, gsize n_bytes,
    const gchar * first_substring, va_list args)
{
  gpointer zeros = g_malloc0 (n_bytes);

  gst_harness_set_src_caps (h, caps);
  fail_unless (gst_harness_push (h, aooct_test_buffer_new (zeros,
              n_bytes)) != GST_FLOW_OK, "accepted; expected an error "
      "mentioning '%s'", first_substring);
  assert_error_valist (h, first_substring, args);
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);
  g_free (zeros);
}

void
aooct_test_push_expect_error (GstHarness * h, GstCaps * caps, gsize n_bytes,
    const gchar * first_substring, ...)
{
  va_list args;

  va_start (args, first_substring);
  push_expect_error_valist (h, caps, n_bytes, first_substring, args);
  va_end (args);
}

void
aooct_test_expect_error (const gchar * launch, GstCaps * caps,
    const gchar * first_substring, ...)
{
  GstHarness *h = aooct_test_harness_new (launch);
  va_list args;

  fail_unless (caps != NULL);
  va_start (args, first_substring);
  push_expect_error_valist (h, caps, 64, first_substring, args);
  va_end (args);
  gst_harness_teardown (h);
}

gchar *
aooct_test_write_values (const gchar * header, const gdouble * v, gint n)
{
  GString *s = g_string_new (NULL);
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
  gchar *path;
  gint i;

  g_string_append_printf (s, "# %s\n", header);
  for (i = 0; i < n; i++)
    g_string_append_printf (s, "%s\n", g_ascii_dtostr (buf, sizeof (buf),
            v[i]));
  path = aooct_test_write_temp (s->str);
  g_string_free (s, TRUE);
  return path;
}

static const AooctTestBadFile bad_text_files[] = {
  {"", "", "empty"},
  {"   \n# only a comment\n", "", "no records"},
  {"1\n2\n3\n", ":3:", "too few"},
  {"1\n2\n3\n4\n5\n", ":5:", "too many"},
  {"1\n2\nthree\n4\n", ":3:", "not a number"},
  {"1\nnan\n3\n4\n", ":2:", "not finite"},
  {"1\n2\n-inf\n4\n", ":3:", "not finite"},
  {NULL, "", "cannot read"},
  /* beyond float32, where the pipeline computes: not an all-white image */
  {"1\n2\n1e39\n4\n", ":3:", "float32"},
  {"1\n2\n-4e38\n4\n", ":3:", "float32"},
  /* an invisible byte is shown, quoted */
  {"1\n2\n3\x01\n4\n", ":3:", "'3\\x01' is not a number"},
  /* a byte-order mark is skipped and old Mac line ends are lines: the
   * fault is the count, on the right line */
  {"\xef\xbb\xbf" "1\n2\n3\n", ":3:", "too few"},
  {"1\r2\r3\r", ":3:", "too few"},
  {"1\r\n2\r\n3\r\n4\r\n5\r\n", ":5:", "too many"},
};

/* Paths that are not regular files, refused before anything is read (no
 * blocking on a FIFO without a writer, no reading /dev/zero): made by
 * make_special_file(). */
typedef enum
{
  SPECIAL_FIFO,
  SPECIAL_SOCKET,
  SPECIAL_DEVICE,
  SPECIAL_DIRECTORY,
  N_SPECIAL
} SpecialFile;

static const AooctTestBadFile special_files[N_SPECIAL] = {
  {NULL, "", "a FIFO"},
  {NULL, "", "a socket"},
  {NULL, "", "a character device"},
  {NULL, "", "a directory"},
};

/* A new path in the temporary directory, nothing there yet. */
static gchar *
free_temp_path (void)
{
  gchar *path = g_build_filename (g_get_tmp_dir (), "aooct-test-XXXXXX",
      NULL);

  fail_unless (g_mkdtemp (path) != NULL);
  fail_unless (g_rmdir (path) == 0);
  return path;
}

/* Returns the path (g_free) and whether to remove it. */
static gchar *
make_special_file (SpecialFile kind, gboolean * remove)
{
  gchar *path;

  *remove = TRUE;
  switch (kind) {
    case SPECIAL_FIFO:
      path = free_temp_path ();
      fail_unless (mkfifo (path, 0600) == 0, "mkfifo %s", path);
      return path;
    case SPECIAL_SOCKET:{
      struct sockaddr_un addr = { 0 };
      gint fd = socket (AF_UNIX, SOCK_STREAM, 0);

      path = free_temp_path ();
      fail_unless (fd >= 0 && strlen (path) < sizeof (addr.sun_path));
      addr.sun_family = AF_UNIX;
      strcpy (addr.sun_path, path);
      fail_unless (bind (fd, (struct sockaddr *) &addr, sizeof (addr)) == 0,
          "bind %s", path);
      /* the socket's file stays after the socket is closed */
      close (fd);
      return path;
    }
    case SPECIAL_DEVICE:
      *remove = FALSE;
      return g_strdup ("/dev/zero");
    case SPECIAL_DIRECTORY:
      *remove = FALSE;
      return g_strdup (g_get_tmp_dir ());
    default:
      g_assert_not_reached ();
  }
  return NULL;
}

/* Larger than any calibration: refused before it is read (sparse: no disk
 * space). */
static const AooctTestBadFile huge_file =
    { NULL, "", "larger than any calibration" };

static gchar *
make_huge_file (void)
{
  gchar *path = aooct_test_write_temp ("1\n");
  gint fd = g_open (path, O_WRONLY, 0);

  fail_unless (fd >= 0);
  fail_unless (ftruncate (fd, (off_t) (1536u << 20)) == 0);
  close (fd);
  return path;
}

void
aooct_test_for_each_special_file (AooctTestBadFileFunc func, gpointer user_data)
{
  guint k;

  for (k = 0; k < N_SPECIAL; k++) {
    gboolean remove;
    gchar *path = make_special_file ((SpecialFile) k, &remove);

    GST_INFO ("special file case %u: %s", k, special_files[k].what);
    func (path, &special_files[k], user_data);
    if (remove)
      g_unlink (path);
    g_free (path);
  }
}

void
aooct_test_for_each_bad_file (const AooctTestBadFile * extra, guint n_extra,
    AooctTestBadFileFunc func, gpointer user_data)
{
  guint k, n = G_N_ELEMENTS (bad_text_files) + n_extra;
  gchar *huge;

  for (k = 0; k < n; k++) {
    const AooctTestBadFile *bad = k < G_N_ELEMENTS (bad_text_files) ?
        &bad_text_files[k] : &extra[k - G_N_ELEMENTS (bad_text_files)];
    gchar *path = bad->text ? aooct_test_write_temp (bad->text) :
        g_strdup ("/nonexistent/aooct-calibration.txt");

    GST_INFO ("bad file case %u: %s", k, bad->what);
    func (path, bad, user_data);
    if (bad->text)
      g_unlink (path);
    g_free (path);
  }
  huge = make_huge_file ();
  func (huge, &huge_file, user_data);
  g_unlink (huge);
  g_free (huge);
  aooct_test_for_each_special_file (func, user_data);
}

/* last: the rest of this file uses the macro */
#undef gst_harness_teardown
void
aooct_test_harness_teardown (GstHarness * h)
{
  GstBus *bus = gst_element_get_bus (h->element);

  if (bus) {
    gst_element_set_state (h->element, GST_STATE_NULL);
    gst_bus_set_flushing (bus, TRUE);
    gst_object_unref (bus);
  }
  gst_harness_teardown (h);
}

void
aooct_test_set_everywhere (GstElement * bin, const gchar * name, gboolean value)
{
  aooct_app_set_everywhere (bin, name, value);
}

gint
aooct_test_cuda_graphs (void)
{
  const gchar *v = g_getenv ("AOOCT_TEST_CUDA_GRAPHS");

  return g_strcmp0 (v, "1") == 0 ? 1 : g_strcmp0 (v, "0") == 0 ? 0 : -1;
}

/* The image of @buf (caps of @h's sink pad) as packed rows of @width
 * pixels of @bpp bytes (g_free). */
guint8 *
aooct_test_image_of (GstHarness * h, GstBuffer * buf, gint * width,
    gint * height, gint * bpp)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  GstVideoInfo info;
  GstVideoFrame frame;
  guint8 *img;
  gint r;

  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_caps_unref (caps);
  *width = GST_VIDEO_INFO_WIDTH (&info);
  *height = GST_VIDEO_INFO_HEIGHT (&info);
  *bpp = GST_VIDEO_INFO_COMP_PSTRIDE (&info, 0);
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_READ));
  img = g_malloc ((gsize) * width * *height * *bpp);
  for (r = 0; r < *height; r++)
    memcpy (img + (gsize) r * *width * *bpp,
        (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
        (gsize) r * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0),
        (gsize) * width * *bpp);
  gst_video_frame_unmap (&frame);
  return img;
}
