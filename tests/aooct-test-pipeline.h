/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: whole pipelines built with gst_parse_launch, run to EOS and
 * drained from their appsinks (for tests of chains; test-chain.c and
 * test-cuda-steps.c have their own older copies of these three). */
#ifndef __AOOCT_TEST_PIPELINE_H__
#define __AOOCT_TEST_PIPELINE_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* @launch with " backend=@backend" after every aooct processing element
 * (aooctdcsub, aooctfullrange, aooctpad, aooctkmap, aooctdisp, aooctfft,
 * aooctnorm); g_free. */
gchar *aooct_test_with_backend (const gchar * launch, const gchar * backend);

/* Runs @launch to EOS, failing the test on an error or after 120 s; the
 * pipeline stays PAUSED so that its appsinks can be drained (set it to
 * NULL and unref it when done). */
GstElement *aooct_test_run_to_eos (const gchar * launch);

/* Every sample queued in appsink @name of @pipeline (GstSample list). */
GList *aooct_test_pull_all (GstElement * pipeline, const gchar * name);

G_END_DECLS

#endif /* __AOOCT_TEST_PIPELINE_H__ */
