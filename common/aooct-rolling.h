/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the ring of aooctdcsub mode=rolling-mean (spec section 11), what
 * both backends keep per stream: the column sums of the last K B-scans
 * (K slots; the CPU core fills ring, the CUDA core a device copy of it)
 * and how many slots are filled.  The cores are
 * cpu/aooct-cpu-rolling.h and cuda/aooct-cuda-rolling.h. */
#ifndef __AOOCT_ROLLING_H__
#define __AOOCT_ROLLING_H__

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gint samples;                 /* N */
  gint k;                       /* K, slots */
  gint pos;                     /* slot of the next B-scan */
  gint count;                   /* K': slots filled */
  gdouble *ring;                /* K x N column sums */
} AooctRolling;

AooctRolling *aooct_rolling_new (gint samples, gint k);
void aooct_rolling_free (AooctRolling * r);
/* Counting starts over (flush, new caps). */
void aooct_rolling_reset (AooctRolling * r);

G_END_DECLS

#endif /* __AOOCT_ROLLING_H__ */
