/* aooct: spectral window tables (spec section 6).
 *
 * A window spans the data region j0..j1 of an A-line, t = (i - j0) /
 * (j1 - j0) in [0, 1], and is 0 in the margins, so that it tapers the
 * measured spectrum whatever the padding.  The table is computed in double
 * and stored as float; the CPU core multiplies by it and the CUDA path
 * uploads the same table, so both paths apply identical weights. */
#ifndef __AOOCT_WINDOW_H__
#define __AOOCT_WINDOW_H__

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  AOOCT_WINDOW_NONE,
  AOOCT_WINDOW_HANN,
  AOOCT_WINDOW_HAMMING,
  AOOCT_WINDOW_BLACKMAN,
  AOOCT_WINDOW_GAUSSIAN
} AooctWindow;

/* The window at t in [0, 1] (1 for AOOCT_WINDOW_NONE). */
gdouble aooct_window_value (AooctWindow window, gdouble t);

/* A new table of @samples floats (g_free): the window over j0..j1
 * (0 <= j0 < j1 < samples), 0 elsewhere.  NULL for AOOCT_WINDOW_NONE:
 * no window means the samples are used as they are, margins included. */
gfloat *aooct_window_table_new (AooctWindow window, gint samples, gint j0,
    gint j1);

G_END_DECLS

#endif /* __AOOCT_WINDOW_H__ */
