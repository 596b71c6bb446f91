/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the display properties of spec section 7 (log, dynamic-range,
 * auto-range, range-min, range-max), shared by aooctnorm (per B-scan) and
 * the volume views (per volume, gstaooctview.c): one definition of their
 * names, ranges, defaults and blurbs.  Changeable while playing. */
#ifndef __AOOCT_NORM_PROPS_H__
#define __AOOCT_NORM_PROPS_H__

#include <gst/gst.h>
#include "aooct-norm.h"

G_BEGIN_DECLS

#define AOOCT_NORM_DEFAULT_LOG TRUE
#define AOOCT_NORM_DEFAULT_DYNAMIC_RANGE 60.0
#define AOOCT_NORM_DEFAULT_AUTO_RANGE TRUE
#define AOOCT_NORM_DEFAULT_RANGE_MIN 0.0
#define AOOCT_NORM_DEFAULT_RANGE_MAX 100.0

/* The property group (docs/architecture.md, "Property groups"): the five
 * get ids @first_prop_id .. @first_prop_id + AOOCT_NORM_N_PROPS - 1; their
 * values are the core's AooctNormSettings (aooct-norm.h), which own no
 * memory (no _clear). */
#define AOOCT_NORM_N_PROPS 5

/* @unit: what the automatic range is taken over ("B-scan", "volume"). */
void aooct_norm_props_install (GObjectClass * klass, guint first_prop_id,
    const gchar * unit);
void aooct_norm_props_init (AooctNormSettings * s);
/* FALSE when @prop_id is not one of the five (under the caller's lock) */
gboolean aooct_norm_props_set (AooctNormSettings * s, guint first_prop_id,
    guint prop_id, const GValue * value);
gboolean aooct_norm_props_get (const AooctNormSettings * s, guint first_prop_id,
    guint prop_id, GValue * value);

G_END_DECLS

#endif /* __AOOCT_NORM_PROPS_H__ */
