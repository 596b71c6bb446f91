/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the photoreceptor phantom of the synthetic camera
 * (aooctsrc phantom=photoreceptors), for optoretinography (spec section
 * 13) and the layer en-face.
 *
 * Every A-line m of B-scan (frame) f sees three thin layers, each of
 * ORG_SCATTERERS sub-resolution point scatterers of fixed random complex
 * amplitude (the same tissue in every B-scan: seeded by the seed and the
 * A-line only), within +-0.3 um of the layer's path:
 *   IS/OS at  z1 = org-depth + depth-offset + org-curvature x^2 + bulk (f)
 *   COST  at  z2 = z1 + org-separation + response (f) / 1000
 *   RPE   at  z2 + org-rpe (org-rpe 0: none)
 * (single-pass optical path in um, x = 2 m / (M - 1) - 1 across the
 * B-scan), with power reflectivities reflectivity, 0.7 reflectivity and
 * 0.5 reflectivity relative to the reference, each scaled per cone (a cone
 * is org-cone-alines A-lines) by a random factor in 0.3 .. 1.7.  The
 * spectrum is the exact sum over the scatterers at every camera pixel
 * (|1 + sum_n r_n e^{j (2 k z_n + phi(k))}|^2, as the mirror phantom), so
 * a nanometre of path is a phase of 2 k nm / 1000 and nothing else.
 *
 * Bulk axial motion of the whole retina (eye and head):
 *   bulk (f) = org-bulk-amplitude * sin (2 pi f / org-bulk-period) um
 * moves all three layers alike: it cancels in the phase of COST against
 * IS/OS, and it moves the layers across depth bins (what layer=brightest
 * follows and a fixed crop does not).
 *
 * The stimulus response, the OPL change of the outer segment in nm at
 * B-scan f (t = f - org-stimulus B-scans after the flash, 0 before):
 *   response (f) = -org-contraction (t / tc) e^{1 - t / tc}
 *                  + org-elongation (1 - e^{-t / te})
 * tc = org-tau-contraction, te = org-tau-elongation (B-scans): a fast
 * contraction of org-contraction nm at t = tc, then an elongation towards
 * org-elongation nm (Pandiyan et al. 2020: ~ 40 nm down within ~ 10 ms,
 * then 100 - 200 nm up over ~ 100 ms).  aooctorg center-wavelength=
 * aooct_synth_flow_wavelength () with a baseline that ends before the
 * stimulus then shows response (f) as its trace, elongation positive. */
#ifndef __AOOCT_SYNTH_ORG_H__
#define __AOOCT_SYNTH_ORG_H__

#include <glib.h>

G_BEGIN_DECLS

#define AOOCT_SYNTH_ORG_DEFAULT_DEPTH        250.0      /* um */
#define AOOCT_SYNTH_ORG_DEFAULT_SEPARATION   30.0       /* um */
#define AOOCT_SYNTH_ORG_DEFAULT_RPE          15.0       /* um */
#define AOOCT_SYNTH_ORG_DEFAULT_BULK_PERIOD  50.0       /* B-scans */
#define AOOCT_SYNTH_ORG_DEFAULT_STIMULUS     20
#define AOOCT_SYNTH_ORG_DEFAULT_CONTRACTION  40.0       /* nm */
#define AOOCT_SYNTH_ORG_DEFAULT_TAU_CONTRACTION 3.0     /* B-scans */
#define AOOCT_SYNTH_ORG_DEFAULT_ELONGATION   150.0      /* nm */
#define AOOCT_SYNTH_ORG_DEFAULT_TAU_ELONGATION 30.0     /* B-scans */
#define AOOCT_SYNTH_ORG_DEFAULT_CONE_ALINES  3
#define AOOCT_SYNTH_ORG_SCATTERERS           2

typedef struct
{
  gdouble depth;                /* IS/OS, um of single-pass path */
  gdouble separation;           /* IS/OS to COST, um */
  gdouble rpe;                  /* COST to RPE, um; 0 = no RPE */
  gdouble curvature;            /* um deeper at the B-scan's edges */
  gdouble bulk_amplitude;       /* um */
  gdouble bulk_period;          /* B-scans */
  gint stimulus;                /* the flash's B-scan; -1 = none */
  gdouble contraction, tau_contraction; /* nm, B-scans */
  gdouble elongation, tau_elongation;   /* nm, B-scans */
  gint cone_alines;             /* A-lines per cone */
} AooctSynthOrg;

void aooct_synth_org_init (AooctSynthOrg * o);
/* the error names the aooctsrc property */
gboolean aooct_synth_org_validate (const AooctSynthOrg * o, GError ** error);

/* the set OPL change of COST against IS/OS at B-scan @frame, nm */
gdouble aooct_synth_org_response (const AooctSynthOrg * o, guint64 frame);
/* the bulk axial position of the retina at B-scan @frame, um */
gdouble aooct_synth_org_bulk (const AooctSynthOrg * o, guint64 frame);
/* IS/OS's path (um, without depth-offset) in A-line @m of @alines at
 * @frame */
gdouble aooct_synth_org_isos (const AooctSynthOrg * o, gint alines, gint m,
    guint64 frame);

/* The sample field of A-line @m at @frame relative to the reference,
 * g (k_i) = sum_n r_n e^{j (two_k[i] z_n + phi[i])} at the @samples
 * pixels, into @g (re im); @reflectivity, @depth_offset, @seed as the
 * camera's. */
void aooct_synth_org_field (const AooctSynthOrg * o, gint samples,
    gint alines, const gdouble * two_k, const gdouble * phi,
    gdouble reflectivity, gdouble depth_offset, guint32 seed, guint64 frame,
    gint m, gfloat * g);

G_END_DECLS
#endif /* __AOOCT_SYNTH_ORG_H__ */
