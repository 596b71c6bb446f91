/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the geometry of a buffer (see aooct-geometry.h). */
#include "aooct-geometry.h"
#include "aooct-error.h"

void
aooct_geometry_init_raw (AooctGeometry * geom, gint raw_samples, gint alines,
    gint bscans, gint fps_n, gint fps_d)
{
  geom->domain = AOOCT_DOMAIN_SPECTRAL;
  geom->sample_type = AOOCT_SAMPLE_REAL;
  geom->samples = raw_samples;
  geom->alines = alines;
  geom->bscans = bscans;
  geom->raw_samples = raw_samples;
  geom->pad_offset = 0;
  geom->pad_factor = 1;
  geom->pad_size = raw_samples;
  geom->k_linear = FALSE;
  geom->full_range = FALSE;
  geom->k_sampling = AOOCT_K_SAMPLING_EVEN;
  geom->nufft_kernel = 0;
  geom->nufft_oversampling = 0.0;
  geom->nufft_width = 0;
  geom->fps_n = fps_n;
  geom->fps_d = fps_d;
  geom->k_span = 0;
}

gdouble
aooct_geometry_depth_step (const AooctGeometry * g)
{
  if (!(g->k_span > 0) || g->pad_size < 1)
    return 0;
  return G_PI * (g->raw_samples - 1) / (g->pad_size * g->k_span);
}

static gboolean
is_pow2 (gint v)
{
  return v > 0 && (v & (v - 1)) == 0;
}

gboolean
aooct_geometry_validate (const AooctGeometry * g, GError ** error)
{
  if (g->raw_samples < 2 || g->raw_samples > AOOCT_MAX_SAMPLES) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "raw-samples=%d is outside 2..%d", g->raw_samples, AOOCT_MAX_SAMPLES);
    return FALSE;
  }
  if (g->alines < 1 || g->alines > AOOCT_MAX_ALINES) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "alines=%d is outside 1..%d", g->alines, AOOCT_MAX_ALINES);
    return FALSE;
  }
  if (g->bscans < 1 || g->bscans > AOOCT_MAX_BSCANS) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "bscans=%d is outside 1..%d", g->bscans, AOOCT_MAX_BSCANS);
    return FALSE;
  }
  if (g->pad_factor < 1 || g->pad_factor > AOOCT_MAX_FACTOR
      || !is_pow2 (g->pad_factor)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "pad-factor=%d is not a power of two in 1..%d", g->pad_factor,
        AOOCT_MAX_FACTOR);
    return FALSE;
  }
  if (g->pad_size < g->raw_samples || g->pad_size > AOOCT_MAX_SAMPLES) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "pad-size=%d is smaller than raw-samples=%d or above %d",
        g->pad_size, g->raw_samples, AOOCT_MAX_SAMPLES);
    return FALSE;
  }
  if (g->pad_offset < 0 || g->pad_offset + g->raw_samples > g->pad_size) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "pad-offset=%d puts raw-samples=%d outside pad-size=%d",
        g->pad_offset, g->raw_samples, g->pad_size);
    return FALSE;
  }
  if ((gint64) g->pad_size * g->pad_factor != g->samples) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "samples=%d is not pad-factor=%d x pad-size=%d", g->samples,
        g->pad_factor, g->pad_size);
    return FALSE;
  }
  if (g->samples > AOOCT_MAX_SAMPLES) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "samples=%d is above %d", g->samples, AOOCT_MAX_SAMPLES);
    return FALSE;
  }
  if ((guint64) g->samples * aooct_geometry_sample_bytes (g) * g->alines
      * g->bscans > G_MAXINT32) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "a buffer of %d x %d x %d samples is larger than 2 GiB",
        g->samples, g->alines, g->bscans);
    return FALSE;
  }
  if (g->full_range && g->sample_type != AOOCT_SAMPLE_COMPLEX) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "full-range=true needs sample-type=complex");
    return FALSE;
  }
  if (g->fps_n < 0 || g->fps_d <= 0) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "framerate %d/%d is invalid", g->fps_n, g->fps_d);
    return FALSE;
  }
  return TRUE;
}

#define DIFF_INT(field, name) \
  if (a->field != b->field) { \
    same = FALSE; \
    if (diff) g_string_append_printf (diff, "%s%s %d vs %d", \
        diff->len ? ", " : "", name, a->field, b->field); \
  }

gboolean
aooct_geometry_equal (const AooctGeometry * a, const AooctGeometry * b,
    GString * diff)
{
  gboolean same = TRUE;

  if (a->domain != b->domain) {
    same = FALSE;
    if (diff)
      g_string_append_printf (diff, "%sdomain %s vs %s", diff->len ? ", " : "",
          aooct_domain_to_string (a->domain),
          aooct_domain_to_string (b->domain));
  }
  if (a->sample_type != b->sample_type) {
    same = FALSE;
    if (diff)
      g_string_append_printf (diff, "%ssample-type %s vs %s",
          diff->len ? ", " : "", aooct_sample_type_to_string (a->sample_type),
          aooct_sample_type_to_string (b->sample_type));
  }
  DIFF_INT (samples, "samples");
  DIFF_INT (alines, "alines");
  DIFF_INT (bscans, "bscans");
  DIFF_INT (raw_samples, "raw-samples");
  DIFF_INT (pad_offset, "pad-offset");
  DIFF_INT (pad_factor, "pad-factor");
  DIFF_INT (pad_size, "pad-size");
  if (!a->k_linear != !b->k_linear) {
    same = FALSE;
    if (diff)
      g_string_append_printf (diff, "%sk-linear %s vs %s",
          diff->len ? ", " : "", a->k_linear ? "true" : "false",
          b->k_linear ? "true" : "false");
  }
  if (!a->full_range != !b->full_range) {
    same = FALSE;
    if (diff)
      g_string_append_printf (diff, "%sfull-range %s vs %s",
          diff->len ? ", " : "", a->full_range ? "true" : "false",
          b->full_range ? "true" : "false");
  }
  if (a->k_sampling != b->k_sampling || (a->k_sampling ==
          AOOCT_K_SAMPLING_NUFFT && (a->nufft_kernel != b->nufft_kernel
              || a->nufft_oversampling != b->nufft_oversampling
              || a->nufft_width != b->nufft_width))) {
    same = FALSE;
    if (diff)
      g_string_append_printf (diff, "%sk-sampling %s vs %s",
          diff->len ? ", " : "", aooct_k_sampling_to_string (a->k_sampling),
          aooct_k_sampling_to_string (b->k_sampling));
  }
  /* framerate is informative only: it never makes a buffer unreadable */
  return same;
}

#undef DIFF_INT

gboolean
aooct_pad_sizes (gint n, gint size, gint factor, gint * p1, gint * p2,
    gint * offset, GError ** error)
{
  gint p;

  if (n < 2 || n > AOOCT_MAX_SAMPLES) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "%d samples per A-line cannot be padded (2..%d)", n, AOOCT_MAX_SAMPLES);
    return FALSE;
  }
  if (factor < 1 || factor > AOOCT_MAX_FACTOR || !is_pow2 (factor)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "factor=%d is not a power of two in 1..%d", factor, AOOCT_MAX_FACTOR);
    return FALSE;
  }
  if (size == 0) {
    for (p = 2048; p < n; p *= 2);
  } else {
    if (!is_pow2 (size) || size < n) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
          "size=%d must be a power of two >= the %d samples per A-line "
          "(or 0 for automatic)", size, n);
      return FALSE;
    }
    p = size;
  }
  if ((gint64) p * factor > AOOCT_MAX_SAMPLES) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "size %d x factor %d exceeds %d samples per A-line", p, factor,
        AOOCT_MAX_SAMPLES);
    return FALSE;
  }
  *p1 = p;
  *p2 = p * factor;
  *offset = (p - n) / 2;
  return TRUE;
}

const gchar *
aooct_domain_to_string (AooctDomain domain)
{
  return domain == AOOCT_DOMAIN_DEPTH ? "depth" : "spectral";
}

const gchar *
aooct_k_sampling_to_string (AooctKSampling s)
{
  return s == AOOCT_K_SAMPLING_NUDFT ? "nudft" :
      s == AOOCT_K_SAMPLING_NUFFT ? "nufft" : "even";
}

const gchar *
aooct_sample_type_to_string (AooctSampleType type)
{
  return type == AOOCT_SAMPLE_COMPLEX ? "complex" : "real";
}
