/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: float64 reference of spec section 13's layers (aooctenface
 * layer=brightest) and aooctorg, written from the spec alone,
 * independently of the elements' code.  Besides the results it says which
 * A-lines an uncertain decision touched (the spec's Accuracy paragraph),
 * which the tests leave out of the comparison. */
#ifndef __AOOCT_REF64_ORG_H__
#define __AOOCT_REF64_ORG_H__

#include <glib.h>
#include "aooct-ref64-views.h"

G_BEGIN_DECLS

/* the layer finder, its window resolved (signed bins) */
typedef struct
{
  int m, p2;
  gboolean full_range;
  int search_start, search_end;
  int range, smooth;
} AooctRefLayer;

/* aooctenface layer=brightest of one volume of @filled B-scans (@depth:
 * filled x M x P2 complex doubles): the image as
 * aooct_ref_views_enface_image () makes it; @uncertain (filled x M) set
 * for the A-lines whose layer was a near-tie (1e-5 relative); returns
 * TRUE when the image's range rests on such an A-line. */
gboolean aooct_ref_org_layer_enface (const AooctRefImage * img,
    const AooctRefLayer * l, gboolean max, int slab_start, int slab_end,
    const double *depth, int filled, int volume, guint8 * out,
    size_t out_stride, guint8 * uncertain);

typedef struct
{
  AooctRefLayer l;
  int crop_start, crop_end;
  int second_min, second_max;
  int depth_window;
  double threshold;
  int baseline;
  double scale;                 /* dOPL = scale * u */
  double opl_range;
  int history;
  int bits;                     /* 8 or 16 */
} AooctRefOrg;

typedef struct
{
  double mean, std;
  int valid;
} AooctRefOrgTrace;

/* aooctorg on @bscans B-scans since start (@depth as above): @trace per
 * B-scan, @kymo one image of history x M pixels per B-scan (stacked,
 * rows M pixels apart), @uncertain (bscans x M) set for the A-lines an
 * uncertain decision touched since their baseline began (compare neither
 * their kymograph pixels nor the trace of a B-scan that has one).
 * @new_baseline_at: a B-scan where a new baseline starts (baseline
 * changed while playing), or -1. */
void aooct_ref_org_run (const AooctRefOrg * p, const double *depth,
    int bscans, int new_baseline_at, AooctRefOrgTrace * trace, void *kymo,
    guint8 * uncertain);

G_END_DECLS
#endif /* __AOOCT_REF64_ORG_H__ */
