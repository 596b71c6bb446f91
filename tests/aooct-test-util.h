/* aooct tests: helpers shared by the element tests. */
#ifndef __AOOCT_TEST_UTIL_H__
#define __AOOCT_TEST_UTIL_H__

#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>

G_BEGIN_DECLS

/* A harness around @launch (a gst_harness_new_parse() description) whose
 * element posts to a bus we can inspect with aooct_test_pop_error(). */
GstHarness *aooct_test_harness_new (const gchar * launch);

/* Pops the first ERROR message posted by the harnessed element(s); returns
 * its text (g_free) or NULL when there is none. */
gchar *aooct_test_pop_error (GstHarness * h);

/* Asserts that an ERROR message whose text contains every NULL-terminated
 * @substring was posted. */
void aooct_test_assert_error (GstHarness * h, const gchar * first_substring,
    ...) G_GNUC_NULL_TERMINATED;

/* Runs @launch (gst_parse_launch) to EOS or ERROR with a timeout of
 * @timeout_s seconds; returns the ERROR text (g_free), or NULL on EOS.
 * Fails the test on timeout.  The pipeline ends in NULL. */
gchar *aooct_test_run_pipeline (const gchar * launch, gint timeout_s);

/* Writes @text to a new temporary file; returns its path (g_free, and
 * unlink when done). */
gchar *aooct_test_write_temp (const gchar * text);

/* Buffer of @n_bytes wrapping a copy of @data. */
GstBuffer *aooct_test_buffer_new (gconstpointer data, gsize n_bytes);

/* Deterministic per-test random generator (seed printed for replay; set
 * AOOCT_TEST_SEED to replay a failure). */
GRand *aooct_test_rand_new (void);

G_END_DECLS

#endif /* __AOOCT_TEST_UTIL_H__ */
