/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: GstAooctView, base class of the volume views (aooctenface,
 * aooctrender; spec section 11).
 *
 * A view takes depth-domain complex B-scans (aooctfft's output) and emits
 * one image per volume of bscans-per-volume (V) B-scans: a GstAooctGroup
 * (gstaooctgroup.h) whose groups are volumes, which hands the B-scans of
 * each input to collect and, once V have come, the image to emit.
 *
 * What it shares: bscans-per-volume, the depth crop and the display
 * settings of aooctnorm (log, dynamic-range, auto-range, range-min,
 * range-max: the range is taken per volume), the output formats (GRAY8 or
 * RGBA in system memory; on CUDA also RGBA in GstCudaMemory, for
 * cudadownload to OpenGL or for nvcodec), the counting of volumes (from
 * the first B-scan after start, a flush or new caps), the timestamp of the
 * volume's first B-scan, and the partial volume: at EOS and before new
 * caps the B-scans collected come out as one more image (of the same size,
 * rows or voxels of missing B-scans black); a flush drops them; while a
 * volume is pending, a GAP event at its image's timestamp after every
 * input, so that downstream prerolls (aooct-gap.h: a view behind a tee
 * beside the B-scans).
 *
 * A subclass says how large its image is (image_size) and names the
 * core of its step on each backend (GstAooctFilterClass's cpu_ops /
 * cuda_ops, aooct-step.h), made with the view's AooctViewParams as its
 * settings: execute() gets an AooctViewLive as the live part of the run
 * and either an input plane (collect: keep what the image needs of
 * B-scans @first .. of the volume) or an output plane (emit: the image of
 * the first @filled B-scans). */
#ifndef __GST_AOOCT_VIEW_H__
#define __GST_AOOCT_VIEW_H__

#include "gstaooctgroup.h"
#include "aooct-step.h"
#include "aooct-views.h"

G_BEGIN_DECLS
/* The live part of a view's run (AooctStepRun's @live). */
    typedef struct
{
  const AooctViewParams *p;
  gboolean log_mode;            /* log setting at the volume's first B-scan */
  /* collect: the input's rows from @in_row on (A-line @in_row of the
   * buffer) hold B-scans @first .. @first + @count - 1 of the volume */
  gint first, count;
  gint in_row;
  /* emit: the image of the first @filled B-scans, with these settings */
  gint filled;
  const AooctNormSettings *s;
  gconstpointer own;            /* emit: own_live()'s, else NULL */
} AooctViewLive;

#define GST_TYPE_AOOCT_VIEW (gst_aooct_view_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstAooctView, gst_aooct_view, GST, AOOCT_VIEW,
    GstAooctGroup);

struct _GstAooctViewClass
{
  GstAooctGroupClass parent_class;

  /* The image for a volume of @v B-scans of @in with the depth crop
   * [crop_start, crop_end). */
    gboolean (*image_size) (GstAooctView * self, const AooctGeometry * in,
      gint v, gint crop_start, gint crop_end, gint * width, gint * height,
      GError ** error);

  /* Optional: what the subclass's emit reads of its own live properties
   * (aooctrender: the camera), for AooctViewLive's @own.  The pointer
   * stays valid until the next call. */
    gconstpointer (*own_live) (GstAooctView * self, const AooctViewParams * p);

  /* Optional: fills what @p holds of the subclass's start-time
   * properties (aooctenface: the projection, the layer), at setup, after
   * the crop; FALSE with @error naming the property when they do not fit
   * it. */
    gboolean (*own_params) (GstAooctView * self, AooctViewParams * p,
      GError ** error);
};


/* Adds the pad templates; call at the end of a subclass's class_init. */
void gst_aooct_view_class_add_pad_templates (GstAooctViewClass * klass);

G_END_DECLS
#endif /* __GST_AOOCT_VIEW_H__ */
