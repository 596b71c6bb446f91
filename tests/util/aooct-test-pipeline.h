/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: whole pipelines from a gst_parse_launch description, run to
 * EOS on a chosen backend and drained from their appsinks (test-chain,
 * test-kspace, test-fullrange). */
#ifndef __AOOCT_TEST_PIPELINE_H__
#define __AOOCT_TEST_PIPELINE_H__

#include <gst/gst.h>

G_BEGIN_DECLS
/* @launch with "backend=@backend" after every aooct processing element
 * (g_free); on cuda also "cuda-graphs=true" or "=false" when the test run
 * asks for it (aooct_test_cuda_graphs()). */
    gchar * aooct_test_with_backend (const gchar * launch,
    const gchar * backend);

/* Runs @launch (on @backend; NULL: as @launch says, e.g. a branch per
 * backend) to EOS, failing the test on an error or after @timeout_s;
 * returns the pipeline, still PLAYING, for its appsinks to be
 * drained (set it to NULL and unref it when done). */
GstElement *aooct_test_run_to_eos (const gchar * launch,
    const gchar * backend, gint timeout_s);

/* Plays @pipeline to EOS, from a flushing seek to @seek_ms where
 * @seek_ms >= 0 (from PAUSED, as a user's seek comes), pulling appsink
 * @sink as it goes; fails the test on an error.  The images in order
 * (GBytes list: g_list_free_full with g_bytes_unref); @pipeline is left
 * in NULL. */
GList *aooct_test_play_images (GstElement * pipeline, const gchar * sink,
    gint seek_ms);

/* Every sample queued in appsink @name of @pipeline (GstSample list). */
GList *aooct_test_pull_all (GstElement * pipeline, const gchar * name);

/* Dense copy (g_free) of the GRAY16 frame of @sample, @n wide and @rows
 * high (its rows may be padded). */
guint16 *aooct_test_raw_frame (GstSample * sample, gint n, gint rows);

G_END_DECLS
#endif /* __AOOCT_TEST_PIPELINE_H__ */
