/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctbin, the whole reconstruction chain as one element.
 *
 * SECTION:element-aooctbin
 * @title: aooctbin
 *
 * One box for the whole chain: aooctdcsub ! aooctpad ! aooctkmap !
 * aooctdisp ! aooctfft ! aooctnorm, built inside a bin, raw spectra in
 * (video/x-raw GRAY16_LE/GRAY8 or packed video/x-aooct-packed, as
 * aooctdcsub takes them), grey B-scans
 * out (as aooctnorm gives them).
 *
 * Every property of the six elements is a property of aooctbin with the
 * same name, type, range, default and blurb, and is passed to the element
 * that owns it (they are all distinct): mode, background-file,
 * alines-per-bscan (aooctdcsub); size, factor (aooctpad); wavelength-file,
 * wavelength-coeffs, interpolation, passthrough (aooctkmap); a2, a3,
 * phase-file (aooctdisp); window, window-parameter (aooctfft); crop-start, crop-end, log,
 * dynamic-range, auto-range, range-min, range-max (aooctnorm).  backend
 * and cuda-device-id are set on all six and read from aooctdcsub.  The
 * properties that may change while PLAYING on the element may change so on
 * the bin.  Left out: each element's qos (GstBaseTransform's, left at its
 * default).  The elements are named dcsub, pad, kmap, disp, fft and norm,
 * so they can also be reached as children (GstChildProxy), e.g.
 * `aooctbin norm::qos=true` on a gst-launch-1.0 line.
 *
 * A step that a setup does not need is switched off through its
 * properties: a k-linear source sets passthrough=true, a2=0 a3=0 leaves
 * the data uncompensated.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 aooctsrc calibration-file=/tmp/cal.txt num-buffers=100 ! \
 *     aooctbin wavelength-file=/tmp/cal.txt a2=8 a3=-2 dynamic-range=50 ! \
 *     videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstaooctbin.h"
#include "gstaooctdcsub.h"
#include "gstaooctpad.h"
#include "gstaooctkmap.h"
#include "gstaooctdisp.h"
#include "gstaooctfft.h"
#include "gstaooctnorm.h"

GST_DEBUG_CATEGORY_STATIC (gst_aooct_bin_debug);
#define GST_CAT_DEFAULT gst_aooct_bin_debug

#define N_STEPS 6
/* a proxied property that goes to every step */
#define ALL_STEPS (-1)

struct _GstAooctBin
{
  GstBin parent;

  GstElement *step[N_STEPS];
};

G_DEFINE_TYPE (GstAooctBin, gst_aooct_bin, GST_TYPE_BIN);

GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (aooctbin, "aooctbin",
    GST_RANK_NONE, GST_TYPE_AOOCT_BIN,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_bin_debug, "aooctbin", 0,
        "aooct whole chain"));

/* the chain, in order; names of the children */
static const gchar *step_names[N_STEPS] =
    { "dcsub", "pad", "kmap", "disp", "fft", "norm" };

static GType
step_type (gint i)
{
  switch (i) {
    case 0:
      return GST_TYPE_AOOCT_DCSUB;
    case 1:
      return GST_TYPE_AOOCT_PAD;
    case 2:
      return GST_TYPE_AOOCT_KMAP;
    case 3:
      return GST_TYPE_AOOCT_DISP;
    case 4:
      return GST_TYPE_AOOCT_FFT;
    default:
      return GST_TYPE_AOOCT_NORM;
  }
}

/* property id (from 1) -> step index or ALL_STEPS, filled in class_init */
static GArray *prop_step;

/* A copy of a step's property for the bin: same name, type, range,
 * default and blurb, so that gst-inspect-1.0 and the docs read the same. */
static GParamSpec *
copy_pspec (GParamSpec * p)
{
  const gchar *name = g_intern_string (g_param_spec_get_name (p));
  const gchar *nick = g_intern_string (g_param_spec_get_nick (p));
  const gchar *blurb = g_intern_string (g_param_spec_get_blurb (p));
  GParamFlags flags = (p->flags & ~(G_PARAM_CONSTRUCT |
          G_PARAM_CONSTRUCT_ONLY)) | G_PARAM_STATIC_STRINGS;
  GType t = G_PARAM_SPEC_TYPE (p);

  if (t == G_TYPE_PARAM_BOOLEAN) {
    GParamSpecBoolean *s = G_PARAM_SPEC_BOOLEAN (p);
    return g_param_spec_boolean (name, nick, blurb, s->default_value, flags);
  } else if (t == G_TYPE_PARAM_INT) {
    GParamSpecInt *s = G_PARAM_SPEC_INT (p);
    return g_param_spec_int (name, nick, blurb, s->minimum, s->maximum,
        s->default_value, flags);
  } else if (t == G_TYPE_PARAM_UINT) {
    GParamSpecUInt *s = G_PARAM_SPEC_UINT (p);
    return g_param_spec_uint (name, nick, blurb, s->minimum, s->maximum,
        s->default_value, flags);
  } else if (t == G_TYPE_PARAM_INT64) {
    GParamSpecInt64 *s = G_PARAM_SPEC_INT64 (p);
    return g_param_spec_int64 (name, nick, blurb, s->minimum, s->maximum,
        s->default_value, flags);
  } else if (t == G_TYPE_PARAM_UINT64) {
    GParamSpecUInt64 *s = G_PARAM_SPEC_UINT64 (p);
    return g_param_spec_uint64 (name, nick, blurb, s->minimum, s->maximum,
        s->default_value, flags);
  } else if (t == G_TYPE_PARAM_FLOAT) {
    GParamSpecFloat *s = G_PARAM_SPEC_FLOAT (p);
    return g_param_spec_float (name, nick, blurb, s->minimum, s->maximum,
        s->default_value, flags);
  } else if (t == G_TYPE_PARAM_DOUBLE) {
    GParamSpecDouble *s = G_PARAM_SPEC_DOUBLE (p);
    return g_param_spec_double (name, nick, blurb, s->minimum, s->maximum,
        s->default_value, flags);
  } else if (t == G_TYPE_PARAM_STRING) {
    GParamSpecString *s = G_PARAM_SPEC_STRING (p);
    return g_param_spec_string (name, nick, blurb, s->default_value, flags);
  } else if (t == G_TYPE_PARAM_ENUM) {
    GParamSpecEnum *s = G_PARAM_SPEC_ENUM (p);
    return g_param_spec_enum (name, nick, blurb, p->value_type,
        s->default_value, flags);
  }
  /* a new kind of property on a step must be added above; the bin test
   * (tests/test-bin.c) fails until it is */
  g_critical ("aooctbin: cannot proxy %s of type %s", name, g_type_name (t));
  return NULL;
}

static gboolean
is_proxied (GParamSpec * p)
{
  /* GstObject's own, and GstBaseTransform's qos (per element, not per
   * chain) */
  return p->owner_type != GST_TYPE_OBJECT &&
      p->owner_type != GST_TYPE_BASE_TRANSFORM &&
      (p->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE;
}

static void
gst_aooct_bin_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctBin *self = GST_AOOCT_BIN (object);
  gint step, i;

  if (prop_id == 0 || prop_id > prop_step->len) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    return;
  }
  step = g_array_index (prop_step, gint, prop_id - 1);
  for (i = 0; i < N_STEPS; i++)
    if (step == ALL_STEPS || step == i)
      g_object_set_property (G_OBJECT (self->step[i]), pspec->name, value);
}

static void
gst_aooct_bin_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstAooctBin *self = GST_AOOCT_BIN (object);
  gint step;

  if (prop_id == 0 || prop_id > prop_step->len) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    return;
  }
  step = g_array_index (prop_step, gint, prop_id - 1);
  g_object_get_property (G_OBJECT (self->step[step == ALL_STEPS ? 0 : step]),
      pspec->name, value);
}

static void
gst_aooct_bin_class_init (GstAooctBinClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstElementClass *first, *last;
  gint i;

  gobject_class->set_property = gst_aooct_bin_set_property;
  gobject_class->get_property = gst_aooct_bin_get_property;

  prop_step = g_array_new (FALSE, FALSE, sizeof (gint));
  for (i = 0; i < N_STEPS; i++) {
    GObjectClass *step_class = g_type_class_ref (step_type (i));
    GParamSpec **props;
    guint n, k;

    props = g_object_class_list_properties (step_class, &n);
    for (k = 0; k < n; k++) {
      GParamSpec *p = props[k], *copy;
      gint owner = i;

      if (!is_proxied (p))
        continue;
      /* properties of the base class (backend, cuda-device-id) are the
       * same on every step: one bin property sets them all */
      if (p->owner_type == GST_TYPE_AOOCT_FILTER) {
        if (i > 0)
          continue;
        owner = ALL_STEPS;
      }
      copy = copy_pspec (p);
      if (!copy)
        continue;
      g_array_append_val (prop_step, owner);
      g_object_class_install_property (gobject_class, prop_step->len, copy);
    }
    g_free (props);
    /* the step classes stay referenced: their pad templates and enum
     * types are used for the bin's lifetime */
  }

  first = g_type_class_peek (step_type (0));
  last = g_type_class_peek (step_type (N_STEPS - 1));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
          gst_pad_template_get_caps (gst_element_class_get_pad_template
              (first, "sink"))));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
          gst_pad_template_get_caps (gst_element_class_get_pad_template
              (last, "src"))));

  gst_element_class_set_static_metadata (element_class,
      "AO-OCT reconstruction chain", "Filter/Converter/Video",
      "Raw spectral-domain OCT spectra to grey B-scans in one element: "
      "aooctdcsub, aooctpad, aooctkmap, aooctdisp, aooctfft, aooctnorm, "
      "with all their properties", "aooct developers");
}

static void
gst_aooct_bin_init (GstAooctBin * self)
{
  GstPad *pad;
  gint i;

  for (i = 0; i < N_STEPS; i++) {
    self->step[i] = g_object_new (step_type (i), "name", step_names[i], NULL);
    gst_bin_add (GST_BIN (self), self->step[i]);
    if (i > 0)
      gst_element_link_pads (self->step[i - 1], "src", self->step[i], "sink");
  }

  pad = gst_element_get_static_pad (self->step[0], "sink");
  gst_element_add_pad (GST_ELEMENT (self),
      gst_ghost_pad_new_from_template ("sink", pad,
          gst_element_class_get_pad_template (GST_ELEMENT_GET_CLASS (self),
              "sink")));
  gst_object_unref (pad);
  pad = gst_element_get_static_pad (self->step[N_STEPS - 1], "src");
  gst_element_add_pad (GST_ELEMENT (self),
      gst_ghost_pad_new_from_template ("src", pad,
          gst_element_class_get_pad_template (GST_ELEMENT_GET_CLASS (self),
              "src")));
  gst_object_unref (pad);
}
