/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: helpers shared by the element tests. */
#ifndef __AOOCT_TEST_UTIL_H__
#define __AOOCT_TEST_UTIL_H__

#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>

#include "aooct-caps.h"

G_BEGIN_DECLS
/* A harness around @launch (a gst_harness_new_parse() description) whose
 * element posts to a bus we can inspect with aooct_test_pop_error(). */
    GstHarness * aooct_test_harness_new (const gchar * launch);

/* gst_harness_teardown() that first flushes the bus that
 * aooct_test_harness_new() gave the element.  The harness's element is a
 * bin, not a pipeline: nothing flushes its bus, and the messages queued
 * there keep the element and the harness alive after teardown (found by
 * LeakSanitizer: every harness leaked).  The macro makes every test use it. */
void aooct_test_harness_teardown (GstHarness * h);
#define gst_harness_teardown(h) aooct_test_harness_teardown (h)

/* GObject refusing an invalid property value (out of the GParamSpec's
 * range, NaN): GLib 2.74 (Debian 12) says so with a g_warning, GLib 2.84
 * (Debian 13) with a g_critical; either counts. */
#define AOOCT_ASSERT_REFUSED(code)                                     \
G_STMT_START {                                                         \
  _gst_check_expecting_log = TRUE;                                     \
  _gst_check_raised_warning = FALSE;                                   \
  _gst_check_raised_critical = FALSE;                                  \
  code;                                                                \
  if (!_gst_check_raised_warning && !_gst_check_raised_critical)       \
    _ck_assert_failed (__FILE__, __LINE__,                             \
        "Expected GObject's warning or critical, got nothing", NULL);  \
  _gst_check_expecting_log = FALSE;                                    \
} G_STMT_END

/* gst_harness_set_src_caps_str() with a printf-style caps string. */
void
aooct_test_set_caps_printf (GstHarness * h, const gchar * format, ...)
G_GNUC_PRINTF (2, 3);

/* Pops the first ERROR message posted by the harnessed element(s); returns
 * its text (g_free) or NULL when there is none. */
     gchar *aooct_test_pop_error (GstHarness * h);

/* The same for WARNING and INFO messages. */
     gchar *aooct_test_pop_warning (GstHarness * h);
     gchar *aooct_test_pop_info (GstHarness * h);

/* Asserts that a WARNING message whose text contains every NULL-terminated
 * @substring was posted. */
     void aooct_test_assert_warning (GstHarness * h,
    const gchar * first_substring, ...) G_GNUC_NULL_TERMINATED;

/* Asserts that an ERROR message whose text contains every NULL-terminated
 * @substring was posted. */
     void aooct_test_assert_error (GstHarness * h,
    const gchar * first_substring, ...) G_GNUC_NULL_TERMINATED;

/* Runs @launch (gst_parse_launch) to EOS or ERROR with a timeout of
 * @timeout_s seconds; returns the ERROR text (g_free), or NULL on EOS.
 * Fails the test on timeout.  The pipeline ends in NULL. */
     gchar *aooct_test_run_pipeline (const gchar * launch, gint timeout_s);

/* Sets the boolean property @name to @value on every element of @bin (at
 * any depth) that has it: the base class's defer-steps and cuda-graphs on
 * each aooct processing element of a parsed pipeline
 * (aooct_app_set_everywhere, gst/support/aooct-app-util.h). */
     void aooct_test_set_everywhere (GstElement * bin, const gchar * name,
    gboolean value);

/* What the test run asks of cuda-graphs on every element: 1 (true:
 * AOOCT_TEST_CUDA_GRAPHS=1 in its environment, tests/meson.build's
 * *-graphs tests), 0 (false: AOOCT_TEST_CUDA_GRAPHS=0), -1 (the default,
 * unset). */
     gint aooct_test_cuda_graphs (void);

/* Runs @launch with aooct_test_run_pipeline() (30 s) and asserts that it
 * ended in an ERROR whose text contains every NULL-terminated substring. */
     void aooct_test_expect_pipeline_error (const gchar * launch,
    const gchar * first_substring, ...) G_GNUC_NULL_TERMINATED;

/* Writes @text to a new temporary file; returns its path (g_free, and
 * unlink when done). */
     gchar *aooct_test_write_temp (const gchar * text);

/* A background file for aooctdcsub mode=background: @n random values of
 * 100 .. 3000 from @rand, one per line; its path as aooct_test_write_temp. */
     gchar *aooct_test_write_background (GRand * rand, gint n);

/* Buffer of @n_bytes wrapping a copy of @data. */
     GstBuffer *aooct_test_buffer_new (gconstpointer data, gsize n_bytes);

/* Deterministic per-test random generator (seed printed for replay; set
 * AOOCT_TEST_SEED to replay a failure). */
     GRand *aooct_test_rand_new (void);

/* A valid real spectral geometry of @n raw samples, @alines x @bscans
 * (framerate 10/1, k-linear=false): the raw grid when @factor is 0, else
 * the grid aooctpad size=@size factor=@factor makes (aooct_pad_sizes()). */
     void aooct_test_geometry (AooctGeometry * g, gint n, gint alines,
    gint bscans, gint size, gint factor);

/* A real spectral geometry whose grid is given field by field, for
 * expected values that must not come from the code under test: @p2
 * samples, pad-size @p1, pad-offset @o, pad-factor @f (framerate 10/1,
 * k-linear=false). */
     void aooct_test_geometry_grid (AooctGeometry * g, gint n, gint alines,
    gint bscans, gint p1, gint p2, gint o, gint f);

/* Samples (real or complex) of one buffer of @g. */
     gsize aooct_test_total_samples (const AooctGeometry * g);

/* The element of factory @factory_name inside @h (the harness keeps it
 * alive; no reference is returned). */
     GstElement *aooct_test_element (GstHarness * h,
    const gchar * factory_name);

/* Sets @caps (taken; NULL keeps the current ones), pushes a copy of @in
 * (@in_bytes), pulls the output, checks that it has @out_bytes and
 * returns a copy of its data (g_free). */
     gpointer aooct_test_push_pull (GstHarness * h, GstCaps * caps,
    gconstpointer in, gsize in_bytes, gsize out_bytes);

/* Sets @caps (taken) on @h, pushes @n_bytes of zeros and asserts that the
 * push fails with an element error that mentions every NULL-terminated
 * substring, and that no buffer came out. */
     void aooct_test_push_expect_error (GstHarness * h, GstCaps * caps,
    gsize n_bytes, const gchar * first_substring, ...) G_GNUC_NULL_TERMINATED;

/* The same with a new harness around @launch and a 64-byte buffer: for
 * errors that the caps (taken) or the properties cause before any data is
 * looked at. */
     void aooct_test_expect_error (const gchar * launch, GstCaps * caps,
    const gchar * first_substring, ...) G_GNUC_NULL_TERMINATED;

/* Asserts that the caps @h's element negotiated on its source pad describe
 * @expect (the framerate aside). */
     void aooct_test_assert_caps (GstHarness * h, const AooctGeometry * expect);

/* The image of @buf (plane 0, in the format of the caps of @h's sink pad)
 * as packed rows of @width pixels of @bpp bytes (g_free). */
     guint8 *aooct_test_image_of (GstHarness * h, GstBuffer * buf, gint * width,
    gint * height, gint * bpp);

/* Writes @n values (round-trip precision, C locale, one per line) after a
 * '#' comment line @header to a new temporary file; returns its path. */
     gchar *aooct_test_write_values (const gchar * header, const gdouble * v,
    gint n);

/* A defective calibration text file: @text (NULL: a file that does not
 * exist), and what the error must say: @line (":3:", or "" when no line is
 * at fault) and @what. */
     typedef struct
     {
       const gchar *text;
       const gchar *line;
       const gchar *what;
     } AooctTestBadFile;

/* Checks the error for one defective file at @path (already written). */
     typedef void (*AooctTestBadFileFunc) (const gchar * path,
    const AooctTestBadFile * bad, gpointer user_data);

/* Calls @func for every defect of the spec's text format that any
 * calibration file of four records of one value can have (empty, no
 * records, too few, too many, not a number, not finite, missing file),
 * then for the @n_extra element-specific @extra cases; writes and removes
 * the temporary files. */
     void aooct_test_for_each_bad_file (const AooctTestBadFile * extra,
    guint n_extra, AooctTestBadFileFunc func, gpointer user_data);

/* Calls @func for every kind of path that is not a regular file: a FIFO
 * without a writer (opening it blocking would never return), a UNIX
 * socket, a character device (/dev/zero), a directory; @bad->what is what
 * the error must call it ("a FIFO", "a socket"...).  Every element that
 * reads a user's file refuses each of them at once. */
     void aooct_test_for_each_special_file (AooctTestBadFileFunc func,
    gpointer user_data);

G_END_DECLS
#endif /* __AOOCT_TEST_UTIL_H__ */
