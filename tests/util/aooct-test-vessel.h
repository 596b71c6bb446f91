/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: where the synthetic camera's vessels are and what it
 * looks like without a sample, for the flow tests (test-synth-vessel on the
 * float64 reconstruction, test-flow-physics through the elements). */
#ifndef __AOOCT_TEST_VESSEL_H__
#define __AOOCT_TEST_VESSEL_H__

#include <glib.h>
#include "aooct-synth.h"

G_BEGIN_DECLS

/* The mean raw spectrum (N values) of the camera of @p without a sample
 * and without noise: what aooctdcsub mode=background subtracts (g_free). */
gdouble *aooct_test_synth_background (const AooctSynthParams * p);

/* The same written as an aooctdcsub background-file (a temporary file:
 * g_unlink and g_free the path). */
gchar *aooct_test_synth_background_file (const AooctSynthParams * p);

/* Whether pixel (@aline, depth bin @bin of an FFT with @bins_per_um bins
 * per um of path) of B-scan @frame lies within @scale times the radii of
 * vessel @j (depth-offset included). */
gboolean aooct_test_in_vessel (const AooctSynthParams * p, gint j,
    guint64 frame, gdouble bins_per_um, gint aline, gint bin, gdouble scale);

/* Whether it lies within @scale times the radii of any vessel, also seen
 * from @margin A-lines either side (the lateral reach of speckle-width). */
gboolean aooct_test_near_vessel (const AooctSynthParams * p, guint64 frame,
    gdouble bins_per_um, gint aline, gint bin, gdouble scale, gint margin);

G_END_DECLS

#endif /* __AOOCT_TEST_VESSEL_H__ */
