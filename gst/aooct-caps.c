/* aooct: application/x-aooct caps <-> AooctGeometry (see aooct-caps.h). */
#include "aooct-caps.h"
#include "aooct-error.h"

gboolean
aooct_caps_is_aooct (const GstCaps * caps)
{
  return caps != NULL && gst_caps_get_size (caps) > 0
      && gst_structure_has_name (gst_caps_get_structure (caps, 0),
      AOOCT_CAPS_NAME);
}

static gboolean
get_int (const GstStructure * s, const gchar * field, gint * out,
    GError ** error)
{
  if (!gst_structure_get_int (s, field, out)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "caps field '%s' is missing or not a fixed integer", field);
    return FALSE;
  }
  return TRUE;
}

gboolean
aooct_structure_to_geometry (const GstStructure * s, AooctGeometry * g,
    GError ** error)
{
  const gchar *str;

  if (!gst_structure_has_name (s, AOOCT_CAPS_NAME)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "expected %s caps, got %s", AOOCT_CAPS_NAME,
        gst_structure_get_name (s));
    return FALSE;
  }
  str = gst_structure_get_string (s, "domain");
  if (g_strcmp0 (str, "spectral") == 0)
    g->domain = AOOCT_DOMAIN_SPECTRAL;
  else if (g_strcmp0 (str, "depth") == 0)
    g->domain = AOOCT_DOMAIN_DEPTH;
  else {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "caps field 'domain' must be \"spectral\" or \"depth\"");
    return FALSE;
  }
  str = gst_structure_get_string (s, "sample-type");
  if (g_strcmp0 (str, "real") == 0)
    g->sample_type = AOOCT_SAMPLE_REAL;
  else if (g_strcmp0 (str, "complex") == 0)
    g->sample_type = AOOCT_SAMPLE_COMPLEX;
  else {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "caps field 'sample-type' must be \"real\" or \"complex\"");
    return FALSE;
  }
  if (!get_int (s, "samples", &g->samples, error)
      || !get_int (s, "alines", &g->alines, error)
      || !get_int (s, "bscans", &g->bscans, error)
      || !get_int (s, "raw-samples", &g->raw_samples, error)
      || !get_int (s, "pad-offset", &g->pad_offset, error)
      || !get_int (s, "pad-factor", &g->pad_factor, error)
      || !get_int (s, "pad-size", &g->pad_size, error))
    return FALSE;
  if (!gst_structure_get_boolean (s, "k-linear", &g->k_linear)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "caps field 'k-linear' is missing or not a fixed boolean");
    return FALSE;
  }
  /* optional (spec section 9): absent means false, so that caps written
   * before full range existed stay valid */
  if (!gst_structure_has_field (s, "full-range"))
    g->full_range = FALSE;
  else if (!gst_structure_get_boolean (s, "full-range", &g->full_range)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "caps field 'full-range' is not a fixed boolean");
    return FALSE;
  }
  if (!gst_structure_get_fraction (s, "framerate", &g->fps_n, &g->fps_d)) {
    g->fps_n = 0;
    g->fps_d = 1;
  }
  return aooct_geometry_validate (g, error);
}

gboolean
aooct_caps_to_geometry (const GstCaps * caps, AooctGeometry * geom,
    GError ** error)
{
  if (caps == NULL || gst_caps_get_size (caps) != 1) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "caps are empty or not a single structure");
    return FALSE;
  }
  return aooct_structure_to_geometry (gst_caps_get_structure (caps, 0), geom,
      error);
}

GstCaps *
aooct_geometry_to_caps (const AooctGeometry * g)
{
  GstCaps *caps = gst_caps_new_simple (AOOCT_CAPS_NAME,
      "domain", G_TYPE_STRING, aooct_domain_to_string (g->domain),
      "sample-type", G_TYPE_STRING,
      aooct_sample_type_to_string (g->sample_type), "samples", G_TYPE_INT,
      g->samples, "alines", G_TYPE_INT, g->alines, "bscans", G_TYPE_INT,
      g->bscans, "raw-samples", G_TYPE_INT, g->raw_samples, "pad-offset",
      G_TYPE_INT, g->pad_offset, "pad-factor", G_TYPE_INT, g->pad_factor,
      "pad-size", G_TYPE_INT, g->pad_size, "k-linear", G_TYPE_BOOLEAN,
      g->k_linear, "framerate", GST_TYPE_FRACTION, g->fps_n, g->fps_d, NULL);

  /* only written when true: the standard chain's caps are as they were */
  if (g->full_range)
    gst_caps_set_simple (caps, "full-range", G_TYPE_BOOLEAN, TRUE, NULL);
  return caps;
}
