/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctdcsub's modes (spec sections 2 and 11), what the CPU core
 * (cpu/aooct-cpu-dcsub.h), the CUDA core (cuda/aooct-cuda-dcsub.h) and the
 * element share. */
#ifndef __AOOCT_DC_H__
#define __AOOCT_DC_H__

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  AOOCT_DC_BSCAN_MEAN,          /* subtract the mean A-line of each B-scan */
  AOOCT_DC_BACKGROUND,          /* subtract a background spectrum */
  AOOCT_DC_NONE,
  AOOCT_DC_ROLLING_MEAN         /* mean A-line of the last K B-scans
                                 * (aooct-rolling.h; the dcsub cores
                                 * then only convert) */
} AooctDcMode;

/* Float32 input (spec section 0): the first sample of a buffer that is not
 * finite, which the cores report instead of converting it (the element
 * names the B-scan in its error).  @row: the A-line of the buffer (B-scans
 * stacked, as the core was given them), @col: the sample. */
typedef struct
{
  gboolean found;
  gsize row;
  gint col;
  gfloat value;
} AooctDcNonFinite;

G_END_DECLS

#endif /* __AOOCT_DC_H__ */
