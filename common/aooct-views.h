/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: what the volume views (aooctenface, aooctrender; spec section
 * 11) of both backends share: their modes and the shape of a view.  The
 * cores are cpu/aooct-cpu-views.h and cuda/aooct-cuda-views.h, the camera
 * aooct-render-camera.h. */
#ifndef __AOOCT_VIEWS_H__
#define __AOOCT_VIEWS_H__

#include <glib.h>
#include "aooct-norm.h"
#include "aooct-render-camera.h"
#include "aooct-layers.h"

G_BEGIN_DECLS typedef enum
{
  AOOCT_ENFACE_MEAN,
  AOOCT_ENFACE_MAX
} AooctEnfaceProjection;

/* aooctenface's depth range: section 11's fixed crop, or a slab that
 * follows the brightest layer (section 13, "Layers") */
typedef enum
{
  AOOCT_ENFACE_LAYER_NONE,
  AOOCT_ENFACE_LAYER_BRIGHTEST
} AooctEnfaceLayer;

typedef enum
{
  AOOCT_RENDER_MIP,
  AOOCT_RENDER_COMPOSITE
} AooctRenderMode;

/* What a view's image is made of and how it is written. */
typedef struct
{
  gint alines;                  /* M */
  gint samples;                 /* P2, complex samples per input A-line */
  gint crop_start, rows;        /* depth crop [crop_start, crop_start + rows) */
  gint volume;                  /* V, B-scans per volume */
  gboolean rgba;                /* RGBA (grey, opaque) instead of GRAY8 */
  AooctEnfaceProjection projection;     /* aooctenface's, read at setup */
  /* aooctenface layer=brightest: the finder and the slab
   * [z_l + slab_start, z_l + slab_end) */
  AooctEnfaceLayer layer;
  AooctLayerParams lp;
  gint slab_start, slab_end;
} AooctViewParams;

G_END_DECLS
#endif /* __AOOCT_VIEWS_H__ */
