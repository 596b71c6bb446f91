/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctsrc's photoreceptor properties (see aooct-src-org.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-src-org.h"

enum
{
  DEPTH,
  SEPARATION,
  RPE,
  CURVATURE,
  BULK_AMPLITUDE,
  BULK_PERIOD,
  STIMULUS,
  CONTRACTION,
  TAU_CONTRACTION,
  ELONGATION,
  TAU_ELONGATION,
  CONE_ALINES,
};

/* the field of each double property */
static gdouble *
double_field (AooctSynthOrg * o, guint id)
{
  switch (id) {
    case DEPTH:
      return &o->depth;
    case SEPARATION:
      return &o->separation;
    case RPE:
      return &o->rpe;
    case CURVATURE:
      return &o->curvature;
    case BULK_AMPLITUDE:
      return &o->bulk_amplitude;
    case BULK_PERIOD:
      return &o->bulk_period;
    case CONTRACTION:
      return &o->contraction;
    case TAU_CONTRACTION:
      return &o->tau_contraction;
    case ELONGATION:
      return &o->elongation;
    case TAU_ELONGATION:
      return &o->tau_elongation;
    default:
      return NULL;
  }
}

static void
install_double (GObjectClass * klass, guint id, const gchar * name,
    const gchar * nick, const gchar * blurb, gdouble min, gdouble max,
    gdouble def, GParamFlags flags)
{
  g_object_class_install_property (klass, AOOCT_SRC_ORG_FIRST + id,
      g_param_spec_double (name, nick, blurb, min, max, def, flags));
}

void
aooct_src_org_install (GObjectClass * klass, GParamFlags flags)
{
  /**
   * GstAooctSrc:org-depth:
   *
   * phantom=photoreceptors: IS/OS's single-pass optical path in um at the
   * B-scan's centre (before depth-offset)
   */
  install_double (klass, DEPTH, "org-depth", "ORG depth",
      "phantom=photoreceptors: IS/OS's single-pass optical path in um at "
      "the B-scan's centre (before depth-offset), default 250", -1e5, 1e5,
      AOOCT_SYNTH_ORG_DEFAULT_DEPTH, flags);
  /**
   * GstAooctSrc:org-separation:
   *
   * phantom=photoreceptors: optical path from IS/OS to COST in um (the
   * outer segment) before the stimulus
   */
  install_double (klass, SEPARATION, "org-separation", "ORG separation",
      "phantom=photoreceptors: optical path from IS/OS to COST in um (the "
      "outer segment) before the stimulus, default 30", 0, 1e4,
      AOOCT_SYNTH_ORG_DEFAULT_SEPARATION, flags);
  /**
   * GstAooctSrc:org-rpe:
   *
   * phantom=photoreceptors: optical path from COST to the RPE in um; 0 =
   * no RPE
   */
  install_double (klass, RPE, "org-rpe", "ORG RPE",
      "phantom=photoreceptors: optical path from COST to the RPE in um; "
      "0 = no RPE; default 15", 0, 1e4, AOOCT_SYNTH_ORG_DEFAULT_RPE, flags);
  /**
   * GstAooctSrc:org-curvature:
   *
   * phantom=photoreceptors: how much deeper (um) the layers lie at the
   * B-scan's edges than at its centre (a parabola)
   */
  install_double (klass, CURVATURE, "org-curvature", "ORG curvature",
      "phantom=photoreceptors: how much deeper (um) the layers lie at the "
      "B-scan's edges than at its centre (a parabola), default 0", -1e4, 1e4,
      0.0, flags);
  /**
   * GstAooctSrc:org-bulk-amplitude:
   *
   * phantom=photoreceptors: bulk axial motion of the whole retina,
   * amplitude A in um of A sin (2 pi b / org-bulk-period) at B-scan b
   */
  install_double (klass, BULK_AMPLITUDE, "org-bulk-amplitude",
      "ORG bulk amplitude", "phantom=photoreceptors: bulk axial motion of "
      "the whole retina, A in um of A sin (2 pi b / org-bulk-period) at "
      "B-scan b; default 0", -1e4, 1e4, 0.0, flags);
  /**
   * GstAooctSrc:org-bulk-period:
   *
   * phantom=photoreceptors: period of the bulk motion in B-scans
   */
  install_double (klass, BULK_PERIOD, "org-bulk-period", "ORG bulk period",
      "phantom=photoreceptors: period of the bulk motion in B-scans, "
      "default 50", 1, 1e9, AOOCT_SYNTH_ORG_DEFAULT_BULK_PERIOD, flags);
  /**
   * GstAooctSrc:org-stimulus:
   *
   * phantom=photoreceptors: the B-scan of the flash (counted from the
   * stream's first); -1 = no stimulus
   */
  g_object_class_install_property (klass, AOOCT_SRC_ORG_FIRST + STIMULUS,
      g_param_spec_int ("org-stimulus", "ORG stimulus",
          "phantom=photoreceptors: the B-scan of the flash (counted from the "
          "stream's first); -1 = none; default 20", -1, G_MAXINT,
          AOOCT_SYNTH_ORG_DEFAULT_STIMULUS, flags));
  /**
   * GstAooctSrc:org-contraction:
   *
   * phantom=photoreceptors: the outer segment's fast contraction, nm of
   * OPL at its peak (t = org-tau-contraction after the flash)
   */
  install_double (klass, CONTRACTION, "org-contraction", "ORG contraction",
      "phantom=photoreceptors: the outer segment's fast contraction, nm of "
      "OPL at its peak (org-tau-contraction after the flash), default 40",
      -1e5, 1e5, AOOCT_SYNTH_ORG_DEFAULT_CONTRACTION, flags);
  /**
   * GstAooctSrc:org-tau-contraction:
   *
   * phantom=photoreceptors: B-scans from the flash to the contraction's
   * peak
   */
  install_double (klass, TAU_CONTRACTION, "org-tau-contraction",
      "ORG contraction time", "phantom=photoreceptors: B-scans from the "
      "flash to the contraction's peak, default 3", 1e-3, 1e9,
      AOOCT_SYNTH_ORG_DEFAULT_TAU_CONTRACTION, flags);
  /**
   * GstAooctSrc:org-elongation:
   *
   * phantom=photoreceptors: the elongation the outer segment tends to, nm
   * of OPL
   */
  install_double (klass, ELONGATION, "org-elongation", "ORG elongation",
      "phantom=photoreceptors: the elongation the outer segment tends to, "
      "nm of OPL, default 150", -1e5, 1e5, AOOCT_SYNTH_ORG_DEFAULT_ELONGATION,
      flags);
  /**
   * GstAooctSrc:org-tau-elongation:
   *
   * phantom=photoreceptors: time constant of the elongation in B-scans
   */
  install_double (klass, TAU_ELONGATION, "org-tau-elongation",
      "ORG elongation time", "phantom=photoreceptors: time constant of the "
      "elongation in B-scans, default 30", 1e-3, 1e9,
      AOOCT_SYNTH_ORG_DEFAULT_TAU_ELONGATION, flags);
  /**
   * GstAooctSrc:org-cone-alines:
   *
   * phantom=photoreceptors: A-lines per cone (each cone has its own
   * brightness)
   */
  g_object_class_install_property (klass, AOOCT_SRC_ORG_FIRST + CONE_ALINES,
      g_param_spec_int ("org-cone-alines", "ORG cone A-lines",
          "phantom=photoreceptors: A-lines per cone (each cone has its own "
          "brightness), default 3", 1, 65536,
          AOOCT_SYNTH_ORG_DEFAULT_CONE_ALINES, flags));
}

gboolean
aooct_src_org_set (AooctSynthOrg * o, guint prop_id, const GValue * value)
{
  const guint id = prop_id - AOOCT_SRC_ORG_FIRST;
  gdouble *d;

  if (prop_id < AOOCT_SRC_ORG_FIRST || id >= AOOCT_SRC_ORG_PROPS)
    return FALSE;
  if (id == STIMULUS)
    o->stimulus = g_value_get_int (value);
  else if (id == CONE_ALINES)
    o->cone_alines = g_value_get_int (value);
  else if ((d = double_field (o, id)) != NULL)
    *d = g_value_get_double (value);
  return TRUE;
}

gboolean
aooct_src_org_get (const AooctSynthOrg * o, guint prop_id, GValue * value)
{
  const guint id = prop_id - AOOCT_SRC_ORG_FIRST;
  gdouble *d;

  if (prop_id < AOOCT_SRC_ORG_FIRST || id >= AOOCT_SRC_ORG_PROPS)
    return FALSE;
  if (id == STIMULUS)
    g_value_set_int (value, o->stimulus);
  else if (id == CONE_ALINES)
    g_value_set_int (value, o->cone_alines);
  else if ((d = double_field ((AooctSynthOrg *) o, id)) != NULL)
    g_value_set_double (value, *d);
  return TRUE;
}
