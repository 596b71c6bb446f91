/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the display properties of section 7 (see aooct-norm-props.h). */
#include "aooct-norm-props.h"

#define DEFAULT_LOG AOOCT_NORM_DEFAULT_LOG
#define DEFAULT_DYNAMIC_RANGE AOOCT_NORM_DEFAULT_DYNAMIC_RANGE
#define DEFAULT_AUTO_RANGE AOOCT_NORM_DEFAULT_AUTO_RANGE
#define DEFAULT_RANGE_MIN AOOCT_NORM_DEFAULT_RANGE_MIN
#define DEFAULT_RANGE_MAX AOOCT_NORM_DEFAULT_RANGE_MAX

void
aooct_norm_props_init (AooctNormSettings * s)
{
  s->log = DEFAULT_LOG;
  s->dynamic_range = DEFAULT_DYNAMIC_RANGE;
  s->auto_range = DEFAULT_AUTO_RANGE;
  s->range_min = DEFAULT_RANGE_MIN;
  s->range_max = DEFAULT_RANGE_MAX;
  s->bits = 8;
}

void
aooct_norm_props_install (GObjectClass * klass, guint first_prop_id,
    const gchar * unit)
{
  /* the blurbs name @unit: not static strings */
  const GParamFlags playing = G_PARAM_READWRITE | G_PARAM_STATIC_NAME |
      G_PARAM_STATIC_NICK | GST_PARAM_MUTABLE_PLAYING;
  /* numbers an application may move along a curve (GstControlSource) */
  const GParamFlags controllable = playing | GST_PARAM_CONTROLLABLE;
  gchar *b;

  /* Non-finite doubles and values outside these ranges are refused by
   * GObject when set (with a warning naming the property); the finite
   * bounds make it refuse infinities too. */
  /**
   * GstAooctNorm:log:
   *
   * Show the intensity in dB (10 log10 I) instead of linearly (default
   * true)
   */
  g_object_class_install_property (klass, first_prop_id,
      g_param_spec_boolean ("log", "Log scale",
          "Show the intensity in dB (10 log10 I) instead of linearly "
          "(default true)", DEFAULT_LOG, playing));
  /**
   * GstAooctNorm:dynamic-range:
   *
   * With log and auto-range: the dB shown below each B-scan's maximum (a
   * volume's, on the volume views); 0 means down to its minimum.
   */
  b = g_strdup_printf ("With log and auto-range: dB shown below each %s's "
      "maximum; 0 = down to the %s's minimum; >= 0, default 60", unit, unit);
  g_object_class_install_property (klass, first_prop_id + 1,
      g_param_spec_double ("dynamic-range", "Dynamic range", b, 0.0,
          G_MAXDOUBLE, DEFAULT_DYNAMIC_RANGE, controllable));
  g_free (b);
  /**
   * GstAooctNorm:auto-range:
   *
   * Take the grey-level range from each B-scan (a volume, on the volume
   * views): in log, its maximum and dynamic-range; linear, its minimum and
   * maximum; else range-min and range-max.
   */
  b = g_strdup_printf ("Take the grey-level range from each %s (log: "
      "maximum and dynamic-range; linear: minimum and maximum) instead of "
      "range-min / range-max (default true)", unit);
  g_object_class_install_property (klass, first_prop_id + 2,
      g_param_spec_boolean ("auto-range", "Automatic range", b,
          DEFAULT_AUTO_RANGE, playing));
  g_free (b);
  /**
   * GstAooctNorm:range-min:
   *
   * With auto-range=false: the value shown black (dB in log mode,
   * intensity otherwise); must be below range-max; default 0
   */
  g_object_class_install_property (klass, first_prop_id + 3,
      g_param_spec_double ("range-min", "Range minimum",
          "With auto-range=false: the value shown black (dB in log mode, "
          "intensity otherwise); must be below range-max; default 0",
          -G_MAXDOUBLE, G_MAXDOUBLE, DEFAULT_RANGE_MIN, controllable));
  /**
   * GstAooctNorm:range-max:
   *
   * With auto-range=false: the value shown white (dB in log mode,
   * intensity otherwise); must be above range-min; default 100
   */
  g_object_class_install_property (klass, first_prop_id + 4,
      g_param_spec_double ("range-max", "Range maximum",
          "With auto-range=false: the value shown white (dB in log mode, "
          "intensity otherwise); must be above range-min; default 100",
          -G_MAXDOUBLE, G_MAXDOUBLE, DEFAULT_RANGE_MAX, controllable));
}

gboolean
aooct_norm_props_set (AooctNormSettings * s, guint first_prop_id, guint prop_id,
    const GValue * value)
{
  if (prop_id < first_prop_id || prop_id >= first_prop_id + AOOCT_NORM_N_PROPS)
    return FALSE;
  switch (prop_id - first_prop_id) {
    case 0:
      s->log = g_value_get_boolean (value);
      break;
    case 1:
      s->dynamic_range = g_value_get_double (value);
      break;
    case 2:
      s->auto_range = g_value_get_boolean (value);
      break;
    case 3:
      s->range_min = g_value_get_double (value);
      break;
    default:
      s->range_max = g_value_get_double (value);
      break;
  }
  return TRUE;
}

gboolean
aooct_norm_props_get (const AooctNormSettings * s, guint first_prop_id,
    guint prop_id, GValue * value)
{
  if (prop_id < first_prop_id || prop_id >= first_prop_id + AOOCT_NORM_N_PROPS)
    return FALSE;
  switch (prop_id - first_prop_id) {
    case 0:
      g_value_set_boolean (value, s->log);
      break;
    case 1:
      g_value_set_double (value, s->dynamic_range);
      break;
    case 2:
      g_value_set_boolean (value, s->auto_range);
      break;
    case 3:
      g_value_set_double (value, s->range_min);
      break;
    default:
      g_value_set_double (value, s->range_max);
      break;
  }
  return TRUE;
}
