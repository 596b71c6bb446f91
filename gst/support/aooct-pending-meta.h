/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: steps deferred to the next element (CUDA fusion).
 *
 * Three of the chain's steps are pointwise on each real spectrum:
 * lambda-to-k resampling (aooctkmap), the complex dispersion weights
 * (aooctdisp) and the window of aooctfft; and so are the last two
 * operations of aooctpad (the 1/P1 scale, zero margins).  Run by three elements they make
 * three passes over the data; run together, one (docs/cuda-memory.md,
 * "Deferred steps").  So on the CUDA backend aooctkmap and aooctdisp may,
 * instead of running their step, hand it to the next element: the output
 * buffer shares the input's memory (the real spectra as they came) and
 * carries an AooctPendingMeta saying which steps are still to be applied,
 * with their tables.  aooctdisp and aooctfft apply pending steps fused
 * with their own.  aooctpad runs its FFTs but leaves the scale and the
 * margins to aooctkmap (or whoever applies its pending steps), which saves
 * its placing pass where the A-line is P1 samples long already.
 *
 * It is negotiated like GstVideoCropMeta: an element that can apply
 * pending steps announces the meta API in the ALLOCATION query it answers
 * (tee keeps it only if every branch does), and an element defers only
 * when its downstream announced it.  Anything else (an appsink tapping
 * aooctkmap, a CPU element) gets the step done.  The meta's tag keeps
 * GstBaseTransform from copying it onto the output of an element that
 * does not know it; a copy of the buffer itself (gst_buffer_make_writable,
 * tee, queue) keeps it.
 *
 * The tables are host data (small: 8 bytes per sample for the linear
 * resampling, 4 (1 + taps) for the FIR modes, 8 for the dispersion
 * weights): each consumer
 * keeps its own device copy, uploaded on its own stream when the table's
 * serial changes.  So no device memory crosses elements and there is no
 * lifetime or ordering to agree on beyond the buffer's own. */
#ifndef __AOOCT_PENDING_META_H__
#define __AOOCT_PENDING_META_H__

#include <gst/gst.h>

#include "aooct-kspace.h"

G_BEGIN_DECLS

#define AOOCT_PENDING_META_API_TYPE (aooct_pending_meta_api_get_type ())
#define AOOCT_PENDING_META_INFO (aooct_pending_meta_get_info ())
/* the one tag of the meta API */
#define AOOCT_PENDING_META_TAG "aooct-pending"

typedef struct _AooctPendingMeta AooctPendingMeta;

/* One deferred table: immutable host data, identified by @serial (unique
 * in the process, aooct_pending_serial_next) so that a consumer uploads it
 * only when it changed. */
typedef struct
{
  GBytes *data;                 /* NULL: the step is not pending */
  guint serial;
} AooctPendingTable;

struct _AooctPendingMeta
{
  GstMeta meta;

  /* aooctpad's last two operations: the samples of the data region
   * pad_j0..pad_j1 times @pad_scale (1/P1, a power of two, so it commutes
   * exactly with the FFTs and the resampling), the margins zero.  Applied
   * first. */
  gboolean pad;
  gfloat pad_scale;
  gint pad_j0, pad_j1;

  /* lambda-to-k resampling on the data region j0..j1, one of two kinds:
   * - @kmap_taps 0 (linear): P2 int32 bracket indices, then P2 float
   *   fractions (AooctKmapTable's index and frac);
   * - @kmap_taps > 0 (cubic, bspline, lanczos): P2 int32 first indices,
   *   then @kmap_taps x P2 float weights, tap-major (AooctKmapFir's first
   *   and weight), at most AOOCT_KMAP_FIR_MAX_TAPS */
  AooctPendingTable kmap;
  gint kmap_j0, kmap_j1;
  gint kmap_taps;

  /* dispersion: 2 x P2 floats, re/im interleaved; applied after kmap.  The
   * buffer then holds real spectra although its caps say complex */
  AooctPendingTable disp;
};

GType aooct_pending_meta_api_get_type (void);
const GstMetaInfo *aooct_pending_meta_get_info (void);

/* The meta of @buffer, or NULL. */
AooctPendingMeta *aooct_buffer_get_pending_meta (GstBuffer * buffer);

/* The meta of @buffer (writable), added when absent. */
AooctPendingMeta *aooct_buffer_ensure_pending_meta (GstBuffer * buffer);

/* Sets @table to @data (a reference is taken) identified by @serial. */
void aooct_pending_table_set (AooctPendingTable * table, GBytes * data,
    guint serial);

/* A serial for a new table. */
guint aooct_pending_serial_next (void);

/* The pending FIR resampling of @meta (kmap_taps > 0) as an AooctKmapFir
 * for A-lines of @samples: pointers into the meta's table, valid while
 * the meta is; FALSE with a message when the table does not fit. */
gboolean aooct_pending_meta_kmap_fir (const AooctPendingMeta * meta,
    gint samples, AooctKmapFir * fir, GError ** error);

/* The same for the pending linear resampling (kmap_taps 0) as an
 * AooctKmapTable (index and frac; no frac_d). */
gboolean aooct_pending_meta_kmap_table (const AooctPendingMeta * meta,
    gint samples, AooctKmapTable * table, GError ** error);

/* TRUE when the buffer's data are real spectra although a pending
 * dispersion step makes the caps say complex: its size is half. */
static inline gboolean
aooct_pending_meta_data_is_real (const AooctPendingMeta * meta)
{
  return meta != NULL && meta->disp.data != NULL;
}

#ifdef HAVE_CUDA
#include "aooct-cuda-prep.h"

/* The steps of @meta for aooct_cuda_prep_execute (after
 * aooct_pending_meta_load); @meta may be NULL (nothing pending). */
void aooct_pending_meta_steps (const AooctPendingMeta * meta,
    AooctCudaPrepSteps * steps);

/* Loads the tables of @meta's pending steps into @prep for P2 @samples
 * (uploads ordered on @stream, only for tables @prep does not hold yet);
 * FALSE with a message for a table of the wrong size. */
gboolean aooct_pending_meta_load (const AooctPendingMeta * meta,
    AooctCudaPrepPlan * prep, gint samples, AooctCudaStream stream,
    GError ** error);
#endif

G_END_DECLS

#endif /* __AOOCT_PENDING_META_H__ */
