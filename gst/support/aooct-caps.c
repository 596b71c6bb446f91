/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: application/x-aooct caps <-> AooctGeometry (see aooct-caps.h). */
#include <math.h>

#include "aooct-caps.h"
#include "aooct-error.h"

#include <math.h>

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
  g->k_sampling = AOOCT_K_SAMPLING_EVEN;
  g->nufft_kernel = 0;
  g->nufft_oversampling = 0.0;
  g->nufft_width = 0;
  str = gst_structure_get_string (s, "k-sampling");
  if (str == NULL || g_strcmp0 (str, "even") == 0) {
    /* absent: the usual even (or k-linear=false raw) grid */
  } else if (g_strcmp0 (str, "nudft") == 0) {
    g->k_sampling = AOOCT_K_SAMPLING_NUDFT;
  } else if (g_strcmp0 (str, "nufft") == 0) {
    g->k_sampling = AOOCT_K_SAMPLING_NUFFT;
    str = gst_structure_get_string (s, "nufft-kernel");
    if (g_strcmp0 (str, "kaiser-bessel") == 0)
      g->nufft_kernel = 0;
    else if (g_strcmp0 (str, "gaussian") == 0)
      g->nufft_kernel = 1;
    else {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
          "caps field 'nufft-kernel' must be \"kaiser-bessel\" or "
          "\"gaussian\"");
      return FALSE;
    }
    if (!gst_structure_get_double (s, "nufft-oversampling",
            &g->nufft_oversampling)
        || !get_int (s, "nufft-width", &g->nufft_width, error)) {
      if (error && *error == NULL)
        g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
            "caps field 'nufft-oversampling' is missing or not a double");
      return FALSE;
    }
  } else {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "caps field 'k-sampling' must be \"even\", \"nudft\" or " "\"nufft\"");
    return FALSE;
  }
  if (!gst_structure_get_fraction (s, "framerate", &g->fps_n, &g->fps_d)) {
    g->fps_n = 0;
    g->fps_d = 1;
  }
  /* optional: the depth scale is unknown without a calibration upstream */
  if (!gst_structure_get_double (s, "wavenumber-span", &g->k_span)
      || !(g->k_span > 0) || !isfinite (g->k_span))
    g->k_span = 0;
  if (!gst_structure_get_int (s, "wavelength-direction",
          &g->wavelength_direction) || g->wavelength_direction < -1
      || g->wavelength_direction > 1)
    g->wavelength_direction = 0;
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
  if (g->k_span > 0)
    gst_caps_set_simple (caps, "wavenumber-span", G_TYPE_DOUBLE, g->k_span,
        NULL);
  if (g->wavelength_direction != 0)
    gst_caps_set_simple (caps, "wavelength-direction", G_TYPE_INT,
        g->wavelength_direction, NULL);
  if (g->k_sampling == AOOCT_K_SAMPLING_NUDFT
      || g->k_sampling == AOOCT_K_SAMPLING_NUFFT)
    gst_caps_set_simple (caps, "k-sampling", G_TYPE_STRING,
        aooct_k_sampling_to_string (g->k_sampling), NULL);
  if (g->k_sampling == AOOCT_K_SAMPLING_NUFFT)
    gst_caps_set_simple (caps, "nufft-kernel", G_TYPE_STRING,
        g->nufft_kernel == 1 ? "gaussian" : "kaiser-bessel",
        "nufft-oversampling", G_TYPE_DOUBLE, g->nufft_oversampling,
        "nufft-width", G_TYPE_INT, g->nufft_width, NULL);
  return caps;
}

static gint
position_count (const AooctGeometry * g)
{
  return aooct_geometry_data_end (g) - aooct_geometry_data_start (g) + 1;
}

void
aooct_caps_set_positions (GstCaps * caps, const gdouble * positions, gint n)
{
  GstBuffer *buf = gst_buffer_new_memdup (positions, sizeof (gdouble) * n);

  gst_caps_set_simple (caps, "k-positions", GST_TYPE_BUFFER, buf, NULL);
  gst_buffer_unref (buf);
}

gboolean
aooct_structure_has_positions (const GstStructure * s)
{
  return gst_structure_has_field_typed (s, "k-positions", GST_TYPE_BUFFER);
}

gdouble *
aooct_structure_get_positions (const GstStructure * s,
    const AooctGeometry * g, GError ** error)
{
  const GValue *v = gst_structure_get_value (s, "k-positions");
  const gint n = position_count (g), j0 = aooct_geometry_data_start (g);
  GstBuffer *buf;
  gdouble *pos;
  gint j;

  if (v == NULL || !GST_VALUE_HOLDS_BUFFER (v)
      || (buf = gst_value_get_buffer (v)) == NULL) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "caps with k-sampling=%s lack the sample positions (field "
        "'k-positions', a buffer of %d doubles made by aooctkmap)",
        aooct_k_sampling_to_string (g->k_sampling), n);
    return NULL;
  }
  if (gst_buffer_get_size (buf) != sizeof (gdouble) * n) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "caps field 'k-positions' holds %" G_GSIZE_FORMAT " bytes, expected "
        "%d doubles (one per sample of the data region)",
        gst_buffer_get_size (buf), n);
    return NULL;
  }
  pos = g_new (gdouble, n);
  gst_buffer_extract (buf, 0, pos, sizeof (gdouble) * n);
  for (j = 0; j < n; j++) {
    if (!isfinite (pos[j]) || pos[j] < j0 - 0.5 || pos[j] > j0 + n - 0.5
        || (j > 0 && pos[j] <= pos[j - 1])) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
          "caps field 'k-positions': position %d (%g) is not finite, "
          "outside the data region or not increasing", j, pos[j]);
      g_free (pos);
      return NULL;
    }
  }
  return pos;
}

void
aooct_set_error (GError ** error, GQuark domain, gint code,
    const gchar * format, ...)
{
  va_list args;
  gchar *message = NULL;

  if (!error)
    return;
  va_start (args, format);
  if (gst_info_vasprintf (&message, format, args) < 0)
    g_clear_pointer (&message, g_free);
  va_end (args);
  g_set_error_literal (error, domain, code, message ? message : format);
  g_free (message);
}
