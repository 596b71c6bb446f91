/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: compressive sensing tables (see aooct-cs.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "aooct-cs.h"
#include "aooct-error.h"
#include "aooct-textfile.h"
#include "aooct-textwrite.h"

void
aooct_cs_settings_init (AooctCsSettings * s)
{
  memset (s, 0, sizeof (*s));
  s->mask_fraction = 0.4;
  s->mask_seed = 1;
  s->tau = AOOCT_CS_DEFAULT_TAU;
  s->iterations = AOOCT_CS_DEFAULT_ITERATIONS;
  s->op = AOOCT_CS_OPERATOR_NUFFT;
  s->nufft_kernel = AOOCT_NUFFT_DEFAULT_KERNEL;
  s->nufft_oversampling = AOOCT_NUFFT_DEFAULT_OVERSAMPLING;
  s->nufft_width = AOOCT_NUFFT_DEFAULT_WIDTH;
}

static gboolean
is_set (const gchar * s)
{
  return s != NULL && s[0] != '\0';
}

/* ---- mask ------------------------------------------------------------- */

gboolean
aooct_cs_mask_check (const gint32 * pixel, gint u, gint n, const gchar * what,
    GError ** error)
{
  gint i;

  if (u < 1) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
        "%s: the mask is empty: it needs at least one pixel index", what);
    return FALSE;
  }
  for (i = 0; i < u; i++) {
    if (pixel[i] < 0 || pixel[i] > n - 1) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
          "%s: mask index %d (entry %d) is out of range: pixel indices "
          "must lie in 0..%d (N = %d camera pixels)", what, pixel[i], i + 1,
          n - 1, n);
      return FALSE;
    }
    if (i > 0 && pixel[i] <= pixel[i - 1]) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
          "%s: mask index %d (entry %d) is not increasing: it follows %d, "
          "and the indices must be strictly increasing", what, pixel[i],
          i + 1, pixel[i - 1]);
      return FALSE;
    }
  }
  return TRUE;
}

gint32 *
aooct_cs_mask_read (const gchar * path, gint n, gint * u, GError ** error)
{
  gsize count = 0, i;
  AooctRecord *rec = aooct_text_read (path, 1, 1, 0, &count, error);
  gint32 *pixel;

  if (rec == NULL)
    return NULL;
  pixel = g_new (gint32, MAX (count, 1));
  for (i = 0; i < count; i++) {
    gdouble v = rec[i].v[0];

    if (v != floor (v) || v < 0 || v > n - 1) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
          "%s:%d: mask index %.17g is out of range: pixel indices must be "
          "whole numbers in 0..%d (N = %d camera pixels)", path, rec[i].line,
          v, n - 1, n);
      goto fail;
    }
    pixel[i] = (gint32) v;
    if (i > 0 && pixel[i] <= pixel[i - 1]) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
          "%s:%d: mask index %d is not increasing (it follows %d): the "
          "indices must be strictly increasing", path, rec[i].line, pixel[i],
          pixel[i - 1]);
      goto fail;
    }
  }
  if (count == 0) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
        "%s: the mask file holds no pixel index", path);
    goto fail;
  }
  g_free (rec);
  *u = (gint) count;
  return pixel;
fail:
  g_free (rec);
  g_free (pixel);
  return NULL;
}

typedef struct
{
  gdouble key;
  gint32 pixel;
} DrawKey;

static gint
key_cmp (gconstpointer a, gconstpointer b)
{
  const DrawKey *x = a, *y = b;

  /* descending key; ties (never in practice) by pixel, for a total order */
  if (x->key != y->key)
    return x->key < y->key ? 1 : -1;
  return x->pixel - y->pixel;
}

static gint
pixel_cmp (gconstpointer a, gconstpointer b)
{
  return *(const gint32 *) a - *(const gint32 *) b;
}

gint32 *
aooct_cs_mask_draw (gint n, gdouble fraction, guint seed, gint * u,
    GError ** error)
{
  GRand *rand;
  DrawKey *keys;
  gint32 *pixel;
  gint count, p;

  if (!(fraction > 0.0 && fraction <= 1.0)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "mask-fraction=%g is outside (0, 1]: it is the fraction of the %d "
        "camera pixels that are measured", fraction, n);
    return NULL;
  }
  count = (gint) floor (fraction * n + 0.5);
  count = CLAMP (count, MIN (2, n), n);
  keys = g_new (DrawKey, n);
  rand = g_rand_new_with_seed (seed);
  for (p = 0; p < n; p++) {
    gdouble t = n > 1 ? 2.0 * p / (n - 1) - 1.0 : 0.0;
    gdouble rho = 1.0 - 0.75 * t * t;
    /* v in (0, 1): g_rand_double gives [0, 1) */
    gdouble v = 1.0 - g_rand_double (rand);

    keys[p].key = pow (v, 1.0 / rho);
    keys[p].pixel = p;
  }
  g_rand_free (rand);
  qsort (keys, n, sizeof (DrawKey), key_cmp);
  pixel = g_new (gint32, count);
  for (p = 0; p < count; p++)
    pixel[p] = keys[p].pixel;
  g_free (keys);
  qsort (pixel, count, sizeof (gint32), pixel_cmp);
  *u = count;
  return pixel;
}

gboolean
aooct_cs_mask_write (const gchar * path, const gint32 * pixel, gint u, gint n,
    const gchar * origin, GError ** error)
{
  GString *s = g_string_new (NULL);
  gchar *header = g_strdup_printf ("aooctcs mask: %d of %d camera pixels "
      "(%s)", u, n, origin);
  GError *err = NULL;
  gboolean ok;
  gint i;

  aooct_text_append_comment (s, header);
  g_free (header);
  for (i = 0; i < u; i++)
    g_string_append_printf (s, "%d\n", pixel[i]);
  /* mask-file reads one pixel index per line */
  ok = aooct_text_write (path, s, 1, 1, u, &err);
  g_string_free (s, TRUE);
  if (!ok) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE, "mask-output-file: %s",
        err->message);
    g_error_free (err);
  }
  return ok;
}

/* ---- configuration ---------------------------------------------------- */

/* N from the settings: the wavelength file's record count, camera-pixels,
 * or the input width */
static gint
camera_pixels (const AooctCsSettings * set, gint in_width, GError ** error)
{
  if (is_set (set->wavelength_file) && !is_set (set->wavelength_coeffs)) {
    gsize count = 0;
    AooctRecord *rec = aooct_text_read (set->wavelength_file, 1, 1, 0,
        &count, error);

    if (rec == NULL)
      return 0;
    g_free (rec);
    if (set->camera_pixels > 0 && (gsize) set->camera_pixels != count) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
          "wavelength-file %s has %" G_GSIZE_FORMAT " values but "
          "camera-pixels=%d: the calibration must give one wavelength per "
          "camera pixel", set->wavelength_file, count, set->camera_pixels);
      return 0;
    }
    return (gint) count;
  }
  return set->camera_pixels > 0 ? set->camera_pixels : in_width;
}

AooctCs *
aooct_cs_new (const AooctCsSettings * set, gint in_width, GError ** error)
{
  AooctCs *cs = g_new0 (AooctCs, 1);
  AooctWavelength *cal = NULL;
  AooctGeometry raw;
  gdouble *s_all = NULL;
  gfloat *w_all = NULL;
  gint i;

  cs->tau = set->tau;
  cs->iterations = set->iterations;
  cs->op = set->op;
  cs->nufft_kernel = set->nufft_kernel;
  cs->nufft_oversampling = set->nufft_oversampling;
  cs->nufft_width = set->nufft_width;
  if (!isfinite (set->tau) || set->tau < 0.0 || set->iterations < 1
      || set->iterations > AOOCT_CS_MAX_ITERATIONS) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "tau=%g must be finite and >= 0, iterations=%d in 1..%d", set->tau,
        set->iterations, AOOCT_CS_MAX_ITERATIONS);
    goto fail;
  }

  cs->n = camera_pixels (set, in_width, error);
  if (cs->n == 0)
    goto fail;
  if (cs->n < 2) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "the calibration covers %d camera pixel: at least 2 are needed", cs->n);
    goto fail;
  }
  cal = aooct_wavelength_new (set->wavelength_file, set->wavelength_coeffs,
      cs->n, error);
  if (cal == NULL)
    goto fail;

  /* the mask */
  if (is_set (set->mask_file)) {
    cs->pixel = aooct_cs_mask_read (set->mask_file, cs->n, &cs->u, error);
    if (cs->pixel == NULL)
      goto fail;
  } else {
    cs->pixel = aooct_cs_mask_draw (cs->n, set->mask_fraction,
        set->mask_seed, &cs->u, error);
    if (cs->pixel == NULL)
      goto fail;
    if (is_set (set->mask_output_file)) {
      gchar *origin = g_strdup_printf ("drawn: mask-fraction=%g "
          "mask-seed=%u", set->mask_fraction, set->mask_seed);
      gboolean ok = aooct_cs_mask_write (set->mask_output_file, cs->pixel,
          cs->u, cs->n, origin, error);

      g_free (origin);
      if (!ok)
        goto fail;
    }
  }

  /* which form the input is in: the width tells */
  if (in_width == cs->n) {
    cs->in_width = cs->n;
  } else if (in_width == cs->u) {
    cs->in_width = cs->u;
  } else {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "the input spectra are %d samples wide, but the calibration covers "
        "N = %d camera pixels and the mask counts U = %d: the input must "
        "hold all N pixels or only the U measured ones (mask count vs "
        "U-pixel input width)", in_width, cs->n, cs->u);
    goto fail;
  }

  /* P */
  if (set->size == 0) {
    cs->p = 1;
    while (cs->p < cs->n)
      cs->p *= 2;
  } else if (set->size < cs->n || set->size > AOOCT_MAX_SAMPLES) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "size=%d must be at least the N = %d camera pixels (and at most "
        "%d)", set->size, cs->n, AOOCT_MAX_SAMPLES);
    goto fail;
  } else {
    cs->p = set->size;
  }

  /* positions and dispersion weights of all N pixels on the raw grid
   * (section 8 with j0 = 0, j1 = N - 1 is section 10's s), then the
   * measured ones */
  memset (&raw, 0, sizeof (raw));
  aooct_geometry_init_raw (&raw, cs->n, 1, 1, 0, 1);
  s_all = aooct_kspace_positions_new (cal, &raw, error);
  if (s_all == NULL)
    goto fail;
  {
    const gdouble a[AOOCT_DISP_N_COEFFS] = { set->a2, set->a3, 0.0, 0.0 };

    w_all = aooct_disp_weights_new_at (&raw, s_all, a, error);
  }
  if (w_all == NULL)
    goto fail;
  cs->s = g_new (gdouble, cs->u);
  cs->disp = g_new (gfloat, 2 * (gsize) cs->u);
  for (i = 0; i < cs->u; i++) {
    cs->s[i] = s_all[cs->pixel[i]];
    cs->disp[2 * i] = w_all[2 * cs->pixel[i]];
    cs->disp[2 * i + 1] = w_all[2 * cs->pixel[i] + 1];
  }
  cs->k_span = fabs (2000.0 * G_PI / aooct_wavelength_at (cal, cs->n - 1)
      - 2000.0 * G_PI / aooct_wavelength_at (cal, 0));
  cs->wavelength_direction = aooct_wavelength_at (cal, cs->n - 1)
      > aooct_wavelength_at (cal, 0) ? 1 : -1;

  if (cs->op == AOOCT_CS_OPERATOR_NUFFT) {
    /* the plan's own checks of R and W, with this geometry */
    AooctGeometry og;
    AooctNufftPlan *plan;

    aooct_cs_operator_geometry (cs, &og);
    plan = aooct_nufft_plan_new (&og, cs->s, cs->nufft_kernel,
        cs->nufft_oversampling, cs->nufft_width, error);
    if (plan == NULL)
      goto fail;
    aooct_nufft_plan_free (plan);
  }
  g_free (s_all);
  g_free (w_all);
  aooct_wavelength_free (cal);
  return cs;

fail:
  g_free (s_all);
  g_free (w_all);
  if (cal)
    aooct_wavelength_free (cal);
  aooct_cs_free (cs);
  return NULL;
}

void
aooct_cs_free (AooctCs * cs)
{
  if (cs == NULL)
    return;
  g_free (cs->pixel);
  g_free (cs->s);
  g_free (cs->disp);
  g_free (cs);
}

void
aooct_cs_output_geometry (const AooctCs * cs, const AooctGeometry * in,
    AooctGeometry * out)
{
  *out = *in;
  out->domain = AOOCT_DOMAIN_DEPTH;
  out->sample_type = AOOCT_SAMPLE_COMPLEX;
  out->samples = cs->p;
  out->raw_samples = cs->n;
  out->pad_offset = 0;
  out->pad_factor = 1;
  out->pad_size = cs->p;
  out->k_linear = TRUE;
  out->full_range = FALSE;
  out->k_sampling = AOOCT_K_SAMPLING_EVEN;
  out->nufft_kernel = 0;
  out->nufft_oversampling = 0.0;
  out->nufft_width = 0;
  out->k_span = cs->k_span;
  out->wavelength_direction = cs->wavelength_direction;
}

void
aooct_cs_operator_geometry (const AooctCs * cs, AooctGeometry * g)
{
  memset (g, 0, sizeof (*g));
  g->domain = AOOCT_DOMAIN_SPECTRAL;
  g->sample_type = AOOCT_SAMPLE_COMPLEX;
  g->samples = cs->p;
  g->alines = 1;
  g->bscans = 1;
  g->raw_samples = cs->u;
  g->pad_offset = 0;
  g->pad_factor = 1;
  g->pad_size = cs->p;
  g->k_sampling = cs->op == AOOCT_CS_OPERATOR_NUDFT ?
      AOOCT_K_SAMPLING_NUDFT : AOOCT_K_SAMPLING_NUFFT;
  g->nufft_kernel = cs->nufft_kernel;
  g->nufft_oversampling = cs->nufft_oversampling;
  g->nufft_width = cs->nufft_width;
}

/* ---- operator --------------------------------------------------------- */

AooctCsInterp *
aooct_cs_interp_new (const AooctNufftPlan * plan, gint u)
{
  AooctCsInterp *in = g_new0 (AooctCsInterp, 1);
  gint32 *fill;
  gint n, e, m;

  in->samples = u;
  in->grid = plan->grid;
  in->entries = plan->entries;
  in->row = g_new0 (gint32, u + 1);
  in->point = g_new (gint32, MAX (plan->entries, 1));
  in->weight = g_new (gfloat, 2 * (gsize) MAX (plan->entries, 1));
  /* transpose the compressed rows: count per sample, then fill in grid
   * order (so each sample's entries run along the grid) */
  for (e = 0; e < plan->entries; e++)
    in->row[plan->col[e] - plan->start + 1]++;
  for (n = 0; n < u; n++)
    in->row[n + 1] += in->row[n];
  fill = g_memdup2 (in->row, sizeof (gint32) * u);
  for (n = 0; n < plan->grid; n++)
    for (e = plan->row[n]; e < plan->row[n + 1]; e++) {
      gint j = plan->col[e] - plan->start, f = fill[j]++;

      in->point[f] = n;
      in->weight[2 * f] = plan->weight[2 * e];
      in->weight[2 * f + 1] = -plan->weight[2 * e + 1];
    }
  g_free (fill);
  in->bin_of_point = g_new (gint32, plan->grid);
  for (n = 0; n < plan->grid; n++)
    in->bin_of_point[n] = -1;
  for (m = 0; m < plan->samples; m++)
    in->bin_of_point[plan->bin[m]] = m;
  return in;
}

void
aooct_cs_interp_free (AooctCsInterp * in)
{
  if (in == NULL)
    return;
  g_free (in->row);
  g_free (in->point);
  g_free (in->weight);
  g_free (in->bin_of_point);
  g_free (in);
}
