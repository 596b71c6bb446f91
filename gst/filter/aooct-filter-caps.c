/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: GstAooctFilter's caps helpers, on caps alone (no filter; see
 * aooct-filter-caps.h): the memory features of pad templates and
 * transformed caps (application/x-aooct in CUDA memory where the element
 * runs on CUDA, video in libgstcuda memory for nvcodec), square pixels,
 * the k-positions passed on, and which field downstream refused.  The
 * caps vfuncs that read the element's state are in gstaooctfilter.c. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/video/video.h>

#include "aooct-filter-caps.h"
#include "aooct-caps.h"

#ifdef HAVE_CUDA
#include "aooct-cuda-memory.h"
#else
/* only to name it in caps: see sink_video_cuda_memory */
#define AOOCT_CAPS_FEATURE_CUDA_MEMORY "memory:CUDAMemory"
#endif

#ifdef HAVE_CUDA
static gboolean
structure_is_aooct (GstCaps * caps, guint i)
{
  return gst_structure_has_name (gst_caps_get_structure (caps, i),
      AOOCT_CAPS_NAME);
}
#endif

static gboolean
structure_is_cuda (GstCaps * caps, guint i)
{
  GstCapsFeatures *f = gst_caps_get_features (caps, i);

  return f && gst_caps_features_contains (f, AOOCT_CAPS_FEATURE_CUDA_MEMORY);
}

gboolean
aooct_filter_caps_are_cuda (GstCaps * caps)
{
  return caps && gst_caps_get_size (caps) > 0 && structure_is_cuda (caps, 0);
}

#ifdef HAVE_CUDA
/* @s (a video/x-raw structure) in GstCudaMemory with those of @formats
 * whose YUV-ness is @yuv.  The grey image is the luma with neutral chroma,
 * so YUV says full range: grey level g shows as R = G = B = g, not
 * stretched from 16..235. */
static void
append_cuda_video_group (GstCaps * res, const GstStructure * s,
    const gchar * const *formats, gboolean yuv)
{
  GstStructure *c;
  GValue list = G_VALUE_INIT, v = G_VALUE_INIT;
  guint i, n = 0;

  g_value_init (&list, GST_TYPE_LIST);
  g_value_init (&v, G_TYPE_STRING);
  for (i = 0; formats[i]; i++) {
    const GstVideoFormatInfo *finfo =
        gst_video_format_get_info (gst_video_format_from_string (formats[i]));

    if (finfo && !!GST_VIDEO_FORMAT_INFO_IS_YUV (finfo) == yuv) {
      g_value_set_static_string (&v, formats[i]);
      gst_value_list_append_value (&list, &v);
      n++;
    }
  }
  if (n > 0) {
    c = gst_structure_copy (s);
    if (n == 1)
      gst_structure_set_value (c, "format", &v);
    else
      gst_structure_set_value (c, "format", &list);
    if (yuv) {
      GstVideoColorimetry full = { GST_VIDEO_COLOR_RANGE_0_255,
        GST_VIDEO_COLOR_MATRIX_BT709, GST_VIDEO_TRANSFER_BT709,
        GST_VIDEO_COLOR_PRIMARIES_BT709
      };
      gchar *str = gst_video_colorimetry_to_string (&full);

      gst_structure_set (c, "colorimetry", G_TYPE_STRING, str, NULL);
      g_free (str);
    }
    gst_caps_append_structure_full (res, c,
        gst_caps_features_new (AOOCT_CAPS_FEATURE_CUDA_MEMORY, NULL));
  }
  g_value_unset (&v);
  g_value_unset (&list);
}

static void
append_cuda_video (GstCaps * res, const GstStructure * s,
    const gchar * const *formats)
{
  append_cuda_video_group (res, s, formats, TRUE);
  append_cuda_video_group (res, s, formats, FALSE);
}
#endif

/* @caps (transfer full) with the memory variants this element can take or
 * give now: each application/x-aooct structure in CUDA memory first, then
 * in system memory, when @cuda; in system memory only otherwise.  Other
 * structures (video/x-raw) stay in system memory; with @cuda and
 * @video_formats (the src side of an element with cuda_video_formats),
 * each is followed by its GstCudaMemory variant in those formats; with
 * @cuda and @video_in_cuda (the sink side of an element with
 * sink_video_cuda_memory), each is preceded by itself in CUDA memory. */
GstCaps *
aooct_filter_caps_with_memory (GstCaps * caps, gboolean cuda,
    const gchar * const *video_formats, gboolean video_in_cuda)
{
  GstCaps *res = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_caps_get_structure (caps, i);
    GstCapsFeatures *f = gst_caps_get_features (caps, i);

    if (f && !gst_caps_features_is_any (f)
        && !gst_caps_features_is_equal (f,
            GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
      continue;                 /* re-added below when wanted */
    /* CUDA memory first: an upstream that can give it gets it; one that
     * gives system memory only (a camera, filesrc) still finds that */
    if (cuda && video_in_cuda && gst_structure_has_name (s, "video/x-raw"))
      gst_caps_append_structure_full (res, gst_structure_copy (s),
          gst_caps_features_new (AOOCT_CAPS_FEATURE_CUDA_MEMORY, NULL));
#ifdef HAVE_CUDA
    if (cuda && structure_is_aooct (caps, i))
      gst_caps_append_structure_full (res, gst_structure_copy (s),
          gst_caps_features_new (AOOCT_CAPS_FEATURE_CUDA_MEMORY, NULL));
#endif
    gst_caps_append_structure_full (res, gst_structure_copy (s),
        f ? gst_caps_features_copy (f) : NULL);
#ifdef HAVE_CUDA
    /* after the grey system-memory formats: a sink that takes anything
     * (appsink, filesink) keeps getting those, while nvcodec elements,
     * which take no grey format, get the CUDA memory */
    if (cuda && video_formats && gst_structure_has_name (s, "video/x-raw"))
      append_cuda_video (res, s, video_formats);
#else
    (void) video_formats;
#endif
  }
  gst_caps_unref (caps);
  /* not simplified: the order is the preference */
  return res;
}

/* The subclass's output caps, and on every raw video structure (aooctnorm,
 * the views; their CUDA-memory variants are copies of these) square
 * pixels: pixel-aspect-ratio=1/1 unless the subclass set one.  Without
 * it videoscale fixated an image to 1/2147483647 (issue 33 item 6).
 * Square, not the physical ratio: the depth scale may be known
 * (wavenumber-span), the lateral one never is (docs/caps.md). */
GstCaps *
aooct_filter_caps_square_pixels (GstCaps * caps)
{
  guint i;

  if (caps == NULL)
    return NULL;
  caps = gst_caps_make_writable (caps);
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_caps_get_structure (caps, i);

    if (gst_structure_has_name (s, "video/x-raw")
        && !gst_structure_has_field (s, "pixel-aspect-ratio"))
      gst_structure_set (s, "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1,
          NULL);
  }
  return caps;
}

/* Non-uniform samples (k-sampling, aooct-caps.h): a step that keeps them
 * (aooctdisp) passes the positions on from its input caps; aooctkmap sets
 * its own in output_caps(). */
GstCaps *
aooct_filter_caps_forward_positions (GstCaps * result, const GstCaps * incaps,
    const AooctGeometry * out)
{
  const GstStructure *in_s;
  guint i;

  if (out->k_sampling == AOOCT_K_SAMPLING_EVEN || result == NULL
      || gst_caps_get_size (incaps) < 1)
    return result;
  in_s = gst_caps_get_structure (incaps, 0);
  if (!aooct_structure_has_positions (in_s))
    return result;
  result = gst_caps_make_writable (result);
  for (i = 0; i < gst_caps_get_size (result); i++) {
    GstStructure *s = gst_caps_get_structure (result, i);

    if (gst_structure_has_name (s, AOOCT_CAPS_NAME)
        && !aooct_structure_has_positions (s))
      gst_structure_set_value (s, "k-positions",
          gst_structure_get_value (in_s, "k-positions"));
  }
  return result;
}

/* Where @ours (what this element produces) and @theirs (what downstream
 * accepts) part: the first field of ours that downstream constrains to
 * other values, or the media types; NULL when no single field is to
 * blame.  g_free. */
gchar *
aooct_filter_caps_difference (GstCaps * ours, GstCaps * theirs)
{
  GstStructure *s;
  guint i, j;

  if (gst_caps_is_empty (ours) || gst_caps_is_empty (theirs))
    return NULL;
  s = gst_caps_get_structure (ours, 0);
  for (i = 0; i < gst_caps_get_size (theirs); i++) {
    GstStructure *t = gst_caps_get_structure (theirs, i);

    if (!gst_structure_has_name (t, gst_structure_get_name (s)))
      continue;
    for (j = 0; j < (guint) gst_structure_n_fields (s); j++) {
      const gchar *name = gst_structure_nth_field_name (s, j);
      const GValue *a = gst_structure_get_value (s, name),
          *b = gst_structure_get_value (t, name);

      /* (gst_value_can_intersect only compares the types) */
      if (b && !gst_value_intersect (NULL, a, b)) {
        gchar *va = gst_value_serialize (a), *vb = gst_value_serialize (b);
        gchar *msg = g_strdup_printf ("downstream accepts %s=%s, but this "
            "element produces %s=%s", name, vb, name, va);

        g_free (va);
        g_free (vb);
        return msg;
      }
    }
  }
  return g_strdup_printf ("downstream accepts %s, but this element produces "
      "%s", gst_structure_get_name (gst_caps_get_structure (theirs, 0)),
      gst_structure_get_name (s));
}
