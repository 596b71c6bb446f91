/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench: the --views rows (spec section 11) (see aooct-bench.h). */
#include <stdio.h>
#include <gst/gst.h>

#include "aooct-bench.h"

#define JIAN_VOLUME 200

/* Spec section 11's views on the volume of Jian et al. (see the top). */
void
aooct_bench_views_rows (GString * table, FILE * out, gint volumes)
{
  const Shape jian = { "jian", 1024, 256, FALSE, 20 };
  const gint per_volume = JIAN_VOLUME / jian.per_buffer;
  const gint n = volumes * per_volume;
  const Feed feed = on_cuda ()? FEED_PINNED : FEED_SYSTEM;
  const gchar *bk = backend ? backend : "auto";
  const gchar *depth_caps = on_cuda ()?
      "application/x-aooct(memory:CUDAMemory)" : NULL;
  /* queues between the branches: a few buffers, whatever their size; the
   * views' sinks get their first image after a volume, so they must not
   * hold the pipeline in preroll (async=false) */
  const gchar *q = "queue max-size-buffers=4 max-size-bytes=0 "
      "max-size-time=0";
  GstSample *raw = capture_input (&jian, 0);
  gchar *chain = chain_desc (&jian, 0, N_STAGES - 2);
  gchar *enface = g_strdup_printf ("aooctenface bscans-per-volume=%d "
      "backend=%s", JIAN_VOLUME, bk);
  gchar *mip = g_strdup_printf ("aooctrender bscans-per-volume=%d mode=mip "
      "backend=%s", JIAN_VOLUME, bk);
  gchar *bscan = g_strdup_printf ("aooctnorm backend=%s", bk);
  struct
  {
    const gchar *label;
    gchar *desc;
    const gchar *sink_caps;
  } rows[5];
  gdouble base = 0;
  guint i;

  rows[0].label = "chain to the depth domain (aooctfft), no view";
  rows[0].desc = g_strdup (chain);
  rows[0].sink_caps = depth_caps;
  rows[1].label = "+ B-scan view of every B-scan (aooctnorm, GRAY8)";
  rows[1].desc = g_strdup_printf ("%s ! %s", chain, bscan);
  rows[1].sink_caps = "video/x-raw,format=GRAY8";
  rows[2].label = "+ en-face of every volume (aooctenface mean, GRAY8)";
  rows[2].desc = g_strdup_printf ("%s ! tee name=t t. ! %s ! %s ! fakesink "
      "sync=false async=false t. ! %s", chain, q, enface, q);
  rows[2].sink_caps = depth_caps;
  rows[3].label = "+ MIP of every volume (aooctrender mip, 256 x 512 GRAY8)";
  rows[3].desc = g_strdup_printf ("%s ! tee name=t t. ! %s ! %s ! fakesink "
      "sync=false async=false t. ! %s", chain, q, mip, q);
  rows[3].sink_caps = depth_caps;
  rows[4].label = "**all three views: B-scan + en-face + MIP**";
  rows[4].desc = g_strdup_printf ("%s ! tee name=t t. ! %s ! %s ! fakesink "
      "sync=false async=false t. ! %s ! %s ! fakesink sync=false async=false t. ! %s ! %s",
      chain, q, enface, q, mip, q, bscan);
  rows[4].sink_caps = "video/x-raw,format=GRAY8";

  emit (table, out, "## views: the volume of Jian et al. (1024 samples x "
      "256 A-lines x %d B-scans, no padding, linear resampling), %d B-scans "
      "per buffer, raw B-scans in %s memory, %d volumes per figure\n\n",
      JIAN_VOLUME, jian.per_buffer, feed == FEED_PINNED ? "page-locked" :
      "ordinary system", volumes);
  emit (table, out, "| pipeline | ms per volume | volumes/s | cost of the "
      "view, ms per volume |\n|---|---:|---:|---:|\n");
  for (i = 0; i < G_N_ELEMENTS (rows); i++) {
    Timing t = time_chain (rows[i].desc, rows[i].sink_caps, raw, n, feed,
        FALSE);
    gdouble ms = t.ms * per_volume;

    if (i == 0)
      base = ms;
    if (t.ms < 0)
      emit (table, out, "| %s | failed | | |\n", rows[i].label);
    else if (i == 0)
      emit (table, out, "| %s | %.3f | %.1f | |\n", rows[i].label, ms,
          1e3 / ms);
    else
      emit (table, out, "| %s | %.3f | %.1f | %.3f |\n", rows[i].label, ms,
          1e3 / ms, ms - base);
    g_free (t.host);
    g_free (rows[i].desc);
  }
  emit (table, out, "\n");
  g_free (chain);
  g_free (enface);
  g_free (mip);
  g_free (bscan);
  gst_sample_unref (raw);
}
