/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: what aooctdoppler and aooctangio share as elements (see
 * aooct-flow-props.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-flow-props.h"
#include "aooct-caps.h"
#include "aooct-error.h"
#include "aooct-norm.h"

enum
{
  CROP_START,
  CROP_END,
  ALINE_WINDOW,
  DEPTH_WINDOW,
  THRESHOLD,
};

const gchar *const aooct_flow_cuda_video_formats[] = { "NV12", "I420",
  "RGBA", NULL
};

void
aooct_flow_props_install (GObjectClass * klass, guint first,
    gint aline_window, const gchar * image)
{
  const GParamFlags ready = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;
  const GParamFlags live = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE;
  gchar *blurb;

  g_object_class_install_property (klass, first + CROP_START,
      g_param_spec_int ("crop-start", "Crop start",
          "First depth bin shown (image row 0), as aooctnorm's: 0 .. "
          "crop-end - 1, default 0; signed on full-range input "
          "(crop-start = crop-end = 0 shows -pad-size/2 .. pad-size/2 - 1)",
          -AOOCT_MAX_SAMPLES, AOOCT_MAX_SAMPLES, 0, ready));
  g_object_class_install_property (klass, first + CROP_END,
      g_param_spec_int ("crop-end", "Crop end",
          "Depth bin after the last one shown, at most the samples per "
          "A-line; 0 (default) = half the first FFT size (pad-size / 2)",
          0, AOOCT_MAX_SAMPLES, 0, ready));
  blurb = g_strdup_printf ("Wm: A-lines of the window a pixel's sums run "
      "over, m - floor (Wm/2) .. m - floor (Wm/2) + Wm - 1; 1 .. 65536, "
      "default %d", aline_window);
  g_object_class_install_property (klass, first + ALINE_WINDOW,
      g_param_spec_int ("aline-window", "A-line window", g_intern_string
          (blurb), 1, AOOCT_MAX_ALINES, aline_window, live));
  g_free (blurb);
  g_object_class_install_property (klass, first + DEPTH_WINDOW,
      g_param_spec_int ("depth-window", "Depth window",
          "Wz: depth bins of the window, centred on the pixel's bin; odd, "
          "1 .. 1048575, default 3", 1, AOOCT_MAX_SAMPLES - 1,
          AOOCT_FLOW_DEFAULT_DEPTH_WINDOW, live));
  blurb = g_strdup_printf ("T in dB: pixels whose window-mean intensity "
      "lies more than T dB below the brightest pixel of the %s show no "
      "flow; 0 = no mask; 0 .. 1000, default 20", image);
  g_object_class_install_property (klass, first + THRESHOLD,
      g_param_spec_double ("threshold", "Threshold", g_intern_string (blurb),
          0.0, 1000.0, AOOCT_FLOW_DEFAULT_THRESHOLD, live));
  g_free (blurb);
}

void
aooct_flow_props_init (AooctFlowProps * p, gint aline_window)
{
  p->crop_start = 0;
  p->crop_end = 0;
  p->aline_window = aline_window;
  p->depth_window = AOOCT_FLOW_DEFAULT_DEPTH_WINDOW;
  p->threshold = AOOCT_FLOW_DEFAULT_THRESHOLD;
}

gboolean
aooct_flow_props_set (AooctFlowProps * p, guint first, guint prop_id,
    const GValue * value)
{
  if (prop_id < first || prop_id >= first + AOOCT_FLOW_PROPS)
    return FALSE;
  switch (prop_id - first) {
    case CROP_START:
      p->crop_start = g_value_get_int (value);
      break;
    case CROP_END:
      p->crop_end = g_value_get_int (value);
      break;
    case ALINE_WINDOW:
      p->aline_window = g_value_get_int (value);
      break;
    case DEPTH_WINDOW:
      p->depth_window = g_value_get_int (value);
      break;
    default:
      p->threshold = g_value_get_double (value);
      break;
  }
  return TRUE;
}

gboolean
aooct_flow_props_get (const AooctFlowProps * p, guint first, guint prop_id,
    GValue * value)
{
  if (prop_id < first || prop_id >= first + AOOCT_FLOW_PROPS)
    return FALSE;
  switch (prop_id - first) {
    case CROP_START:
      g_value_set_int (value, p->crop_start);
      break;
    case CROP_END:
      g_value_set_int (value, p->crop_end);
      break;
    case ALINE_WINDOW:
      g_value_set_int (value, p->aline_window);
      break;
    case DEPTH_WINDOW:
      g_value_set_int (value, p->depth_window);
      break;
    default:
      g_value_set_double (value, p->threshold);
      break;
  }
  return TRUE;
}

gboolean
aooct_flow_derive_output (const gchar * element, const AooctFlowProps * p,
    const AooctGeometry * in, AooctGeometry * out, gint * start, gint * end,
    GError ** error)
{
  if (in->domain != AOOCT_DOMAIN_DEPTH
      || in->sample_type != AOOCT_SAMPLE_COMPLEX) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "%s needs depth-domain complex input (the output of aooctfft or "
        "aooctcs), got domain=%s sample-type=%s", element,
        aooct_domain_to_string (in->domain),
        aooct_sample_type_to_string (in->sample_type));
    return FALSE;
  }
  if (!aooct_norm_resolve_crop (in, p->crop_start, p->crop_end, start, end,
          error))
    return FALSE;
  /* the src pad carries video: samples = image rows per B-scan */
  *out = *in;
  out->sample_type = AOOCT_SAMPLE_REAL;
  out->full_range = FALSE;
  out->samples = *end - *start;
  return TRUE;
}

gboolean
aooct_flow_output_format (GstAooctFilter * filter, const gchar * element,
    gboolean rgba_map, AooctFlowFormat * format, GError ** error)
{
  const gboolean cuda = filter->active_backend == GST_AOOCT_BACKEND_CUDA
      && filter->out_cuda_memory;

  switch (GST_VIDEO_INFO_FORMAT (&filter->out_vinfo)) {
    case GST_VIDEO_FORMAT_GRAY8:
      *format = AOOCT_FLOW_GRAY8;
      if (!filter->out_cuda_memory)
        return TRUE;
      break;
    case GST_VIDEO_FORMAT_GRAY16_LE:
      *format = AOOCT_FLOW_GRAY16;
      if (!filter->out_cuda_memory)
        return TRUE;
      break;
    case GST_VIDEO_FORMAT_RGBA:
      *format = AOOCT_FLOW_RGBA;
      if (cuda || (rgba_map && !filter->out_cuda_memory))
        return TRUE;
      break;
    case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_I420:
      /* the luma plane, written as GRAY8 */
      *format = AOOCT_FLOW_GRAY8;
      if (cuda)
        return TRUE;
      break;
    default:
      break;
  }
  g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
      "%s produces GRAY8%s (and, on CUDA, NV12, I420 or RGBA in CUDA "
      "memory), not %s%s", element, rgba_map ? ", GRAY16_LE or RGBA" :
      " or GRAY16_LE", GST_VIDEO_INFO_NAME (&filter->out_vinfo),
      filter->out_cuda_memory ? " in CUDA memory" : "");
  return FALSE;
}
