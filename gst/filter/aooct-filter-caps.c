/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: GstAooctFilter's caps: pad templates with their memory features
 * (application/x-aooct in CUDA memory where the element runs on CUDA,
 * video in libgstcuda memory for nvcodec), caps transformation from the
 * subclass's derive_output(), the buffer sizes the caps promise
 * (transform_size), accept_caps for video the element will
 * refuse with a reason, the checks of set_caps, and the message that says
 * which field downstream refused (see aooct-filter-private.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-filter-private.h"
#include "aooct-caps.h"
#include "aooct-error.h"
#include "aooct-raw-caps.h"

#ifdef HAVE_CUDA
#include "aooct-cuda-memory.h"
#else
/* only to name it in caps: see sink_video_cuda_memory */
#define AOOCT_CAPS_FEATURE_CUDA_MEMORY "memory:CUDAMemory"
#endif

#define GST_CAT_DEFAULT gst_aooct_filter_debug
#define parent_class aooct_filter_parent_class

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
static GstCaps *
with_memory_features (GstCaps * caps, gboolean cuda,
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

void
gst_aooct_filter_class_add_pad_templates (GstAooctFilterClass * klass,
    const gchar * sink_caps, const gchar * src_caps)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  /* A CUDA build advertises application/x-aooct in CUDA memory too.  Video
   * input in CUDA memory is in the template of every build, so that an
   * upstream that insists on it reaches set_caps(), which says why it
   * cannot be taken, instead of a bare not-negotiated; the caps queries
   * offer it only on the CUDA backend. */
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
          with_memory_features (gst_caps_from_string (sink_caps), TRUE, NULL,
              klass->sink_video_cuda_memory)));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
          with_memory_features (gst_caps_from_string (src_caps), TRUE,
              klass->cuda_video_formats, FALSE)));
}

/* What transform_caps offers: before the element has started (linking in
 * NULL or READY, e.g. gst_parse_launch linking to a memory:CUDAMemory
 * capsfilter), whatever the backend property may give; once started, what
 * the chosen backend gives. */
static gboolean
cuda_offered (GstAooctFilter * self)
{
#ifdef HAVE_CUDA
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  gboolean may;

  if (self->priv->started)
    return aooct_filter_cuda_active (self);
  GST_OBJECT_LOCK (self);
  may = self->priv->backend != GST_AOOCT_BACKEND_CPU && klass->cuda_ops;
  GST_OBJECT_UNLOCK (self);
  return may;
#else
  return FALSE;
#endif
}

static gboolean
parse_sink_caps_default (GstAooctFilter * self, const GstCaps * caps,
    AooctGeometry * in, GError ** error)
{
  return aooct_caps_to_geometry (caps, in, error);
}

static GstCaps *
output_caps_default (GstAooctFilter * self, const AooctGeometry * out)
{
  return aooct_geometry_to_caps (out);
}

/* The subclass's output caps, and on every raw video structure (aooctnorm,
 * the views; their CUDA-memory variants are copies of these) square
 * pixels: pixel-aspect-ratio=1/1 unless the subclass set one.  Without
 * it videoscale fixated an image to 1/2147483647 (issue 33 item 6).
 * Square, not the physical ratio: the depth scale may be known
 * (wavenumber-span), the lateral one never is (docs/caps.md). */
static GstCaps *
square_pixels (GstCaps * caps)
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

static GstCaps *
output_caps (GstAooctFilter * self, const AooctGeometry * out)
{
  return square_pixels (GST_AOOCT_FILTER_GET_CLASS (self)->output_caps (self,
          out));
}

/* Non-uniform samples (k-sampling, aooct-caps.h): a step that keeps them
 * (aooctdisp) passes the positions on from its input caps; aooctkmap sets
 * its own in output_caps(). */
static GstCaps *
forward_positions (GstCaps * result, const GstCaps * incaps,
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

/* Caps of the other pad for fixed caps on this one; the pad template when
 * the caps are not fixed or cannot be processed (set_caps() then reports
 * why, with an element error, instead of a bare not-negotiated). */
static GstCaps *
transform_caps (GstBaseTransform * bt,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstAooctFilter *self = GST_AOOCT_FILTER_CAST (bt);
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  GstCaps *result = NULL, *tmp;

  if (direction == GST_PAD_SINK && gst_caps_is_fixed (caps)) {
    AooctGeometry in, out;

    if (klass->parse_sink_caps (self, caps, &in, NULL)
        && klass->derive_output (self, &in, &out, NULL))
      result = forward_positions (output_caps (self, &out), caps, &out);
  }
  if (result == NULL) {
    GstPad *other = direction == GST_PAD_SINK ? bt->srcpad : bt->sinkpad;
    result = gst_pad_get_pad_template_caps (other);
  }
  /* CUDA memory first when running on CUDA, so that negotiation prefers
   * it; system memory only on the CPU backend.  @result is the src side
   * when @direction is the sink. */
  result = with_memory_features (result, cuda_offered (self),
      direction == GST_PAD_SINK ? klass->cuda_video_formats : NULL,
      direction == GST_PAD_SRC && klass->sink_video_cuda_memory);
  /* the src side also when it is the pad template or its CUDA-memory
   * variants (caps not fixed yet): square pixels there too */
  if (direction == GST_PAD_SINK)
    result = square_pixels (result);
  if (filter) {
    tmp = gst_caps_intersect_full (filter, result, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (result);
    result = tmp;
  }
  GST_DEBUG_OBJECT (self, "transformed %" GST_PTR_FORMAT " to %"
      GST_PTR_FORMAT, caps, result);
  return result;
}

gboolean
aooct_filter_caps_negotiated (GstAooctFilter * self, GstCaps * incaps,
    GstCaps * outcaps, AooctGeometry * in, AooctGeometry * out, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  const gchar *cpu_reason = self->priv->cpu_reason;

  if (klass->sink_is_video && !aooct_raw_caps_video_info (incaps,
          &self->in_vinfo, &self->in_raw_format)) {
    /* packed or float rows the layout does not allow (docs/caps.md): the
     * subclass says what is wrong */
    if (aooct_raw_structure_is_own (gst_caps_get_structure (incaps, 0))
        && !klass->parse_sink_caps (self, incaps, in, error))
      return FALSE;
    aooct_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "cannot parse input caps %" GST_PTR_FORMAT, incaps);
    return FALSE;
  }
  if (klass->sink_is_video && aooct_filter_caps_are_cuda (incaps)
      && !aooct_filter_cuda_active (self)) {
    /* the template lists it in every build; only the CUDA path reads it */
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "upstream gives video in CUDA memory (memory:CUDAMemory), which %s "
        "reads only when it runs on CUDA, but it runs on the CPU (%s); give "
        "it frames in system memory (e.g. through cudadownload) or run it "
        "on a CUDA device", GST_ELEMENT_NAME (self),
        cpu_reason ? cpu_reason : "the CUDA backend is off");
    return FALSE;
  }
  if (!klass->parse_sink_caps (self, incaps, in, error))
    return FALSE;
  g_clear_pointer (&self->in_positions, g_free);
  if (!klass->sink_is_video && in->k_sampling != AOOCT_K_SAMPLING_EVEN
      && !(self->in_positions = aooct_structure_get_positions
          (gst_caps_get_structure (incaps, 0), in, error)))
    return FALSE;
  if (!klass->derive_output (self, in, out, error))
    return FALSE;

  if (klass->src_is_video) {
    GstCaps *expected = with_memory_features (output_caps (self, out),
        aooct_filter_cuda_active (self), klass->cuda_video_formats, FALSE);
    gboolean ok = gst_caps_can_intersect (expected, outcaps);

    if (!ok) {
      gchar *e = gst_caps_to_string (expected), *o =
          gst_caps_to_string (outcaps);
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
          "downstream wants %s but this element produces %s", o, e);
      g_free (e);
      g_free (o);
    }
    gst_caps_unref (expected);
    if (!ok)
      return FALSE;
    if (!gst_video_info_from_caps (&self->out_vinfo, outcaps)) {
      aooct_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
          "cannot parse output caps %" GST_PTR_FORMAT, outcaps);
      return FALSE;
    }
  } else {
    AooctGeometry neg;
    GString *diff = g_string_new (NULL);

    if (!aooct_caps_to_geometry (outcaps, &neg, error)) {
      g_string_free (diff, TRUE);
      return FALSE;
    }
    if (!aooct_geometry_equal (out, &neg, diff)) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
          "geometry mismatch between this element's output and downstream "
          "(produced vs expected): %s", diff->str);
      g_string_free (diff, TRUE);
      return FALSE;
    }
    g_string_free (diff, TRUE);
  }
  return TRUE;
}

/* Fixed video input that the template does not list (GRAY16_BE, a
 * rawvideoparse without format=, which gives I420, a width of 1, a packed
 * format of another bit depth) is
 * accepted here so that set_caps() -- parse_sink_caps() -- says what is
 * wrong and what to do, instead of the pad refusing it silently and the
 * user seeing only "not-negotiated".  Caps queries still offer only what
 * the element takes, so an upstream that negotiates (videoconvert) picks
 * that. */
static gboolean
accept_caps (GstBaseTransform * bt, GstPadDirection direction, GstCaps * caps)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (bt);
  GstCapsFeatures *f;

  if (GST_BASE_TRANSFORM_CLASS (parent_class)->accept_caps (bt, direction,
          caps))
    return TRUE;
  if (direction != GST_PAD_SINK || !klass->sink_is_video
      || !gst_caps_is_fixed (caps)
      || !(gst_structure_has_name (gst_caps_get_structure (caps, 0),
              "video/x-raw")
          || aooct_raw_structure_is_own (gst_caps_get_structure (caps, 0))))
    return FALSE;
  f = gst_caps_get_features (caps, 0);
  if (f && !gst_caps_features_is_equal (f,
          GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
    return FALSE;
  GST_DEBUG_OBJECT (bt, "accepting %" GST_PTR_FORMAT " to say at set_caps "
      "why it cannot be processed", caps);
  return TRUE;
}

/* Where @ours (what this element produces) and @theirs (what downstream
 * accepts) part: the first field of ours that downstream constrains to
 * other values, or the media types; NULL when no single field is to
 * blame.  g_free. */
static gchar *
caps_difference (GstCaps * ours, GstCaps * theirs)
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

/* New input caps were refused without a message of ours (set_caps posts
 * one for whatever it finds wrong): basetransform found no output caps
 * that downstream accepts.  Say which field, instead of leaving the user
 * with "not-negotiated". */
void
aooct_filter_caps_explain_refused (GstAooctFilter * self, GstCaps * incaps)
{
  GstBaseTransform *bt = GST_BASE_TRANSFORM (self);
  GstCaps *ours = transform_caps (bt, GST_PAD_SINK, incaps,
      NULL);
  GstCaps *theirs = gst_pad_peer_query_caps (bt->srcpad, NULL);
  GstPad *peer = gst_pad_get_peer (bt->srcpad);
  gchar *diff = caps_difference (ours, theirs);
  gchar *o = gst_caps_to_string (ours), *t = gst_caps_to_string (theirs);
  GError *error = NULL;

  g_set_error (&error, AOOCT_ERROR, AOOCT_ERROR_CAPS, "cannot negotiate the "
      "output with %s: %s (this element produces %s; %s accepts %s)",
      peer && GST_OBJECT_PARENT (peer) ?
      GST_OBJECT_NAME (GST_OBJECT_PARENT (peer)) : "downstream",
      diff ? diff : "no format in common", o,
      peer ? "downstream" : "an unlinked pad", t);
  gst_aooct_filter_post_error (self, error);
  g_clear_error (&error);
  g_free (diff);
  g_free (o);
  g_free (t);
  gst_clear_object (&peer);
  gst_caps_unref (ours);
  gst_caps_unref (theirs);
}

/* The sizes the negotiated caps promise (aooct-filter-buffers.h). */
static gboolean
transform_size (GstBaseTransform * bt,
    GstPadDirection direction, GstCaps * caps, gsize size, GstCaps * othercaps,
    gsize * othersize)
{
  GstAooctFilter *self = GST_AOOCT_FILTER_CAST (bt);
  AooctInputDesc in;
  AooctOutputDesc out;

  if (!self->configured)
    return FALSE;
  aooct_filter_input_desc (self, &in);
  aooct_filter_output_desc (self, &out);
  *othersize = direction == GST_PAD_SINK ? aooct_filter_output_size (&out) :
      aooct_filter_expected_input_size (&in, NULL);
  return TRUE;
}

void
aooct_filter_caps_class_init (GstAooctFilterClass * klass)
{
  GstBaseTransformClass *bt_class = GST_BASE_TRANSFORM_CLASS (klass);

  bt_class->transform_caps = GST_DEBUG_FUNCPTR (transform_caps);
  bt_class->accept_caps = GST_DEBUG_FUNCPTR (accept_caps);
  bt_class->transform_size = GST_DEBUG_FUNCPTR (transform_size);
  klass->parse_sink_caps = parse_sink_caps_default;
  klass->output_caps = output_caps_default;
}
