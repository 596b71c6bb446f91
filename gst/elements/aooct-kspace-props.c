/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the calibration and NUFFT properties of aooctkmap and aooctcs
 * (aooct-kspace-props.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "aooct-kspace-props.h"

enum
{
  WAVELENGTH_FILE,
  WAVELENGTH_COEFFS,
  NUFFT_KERNEL,
  NUFFT_OVERSAMPLING,
  NUFFT_WIDTH
};

G_STATIC_ASSERT (NUFFT_WIDTH + 1 == AOOCT_KSPACE_N_PROPS);

/* read when the element prepares its tables, so changes take effect on
 * the next start */
#define FLAGS (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_MUTABLE_READY)

GType
gst_aooct_nufft_kernel_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {AOOCT_NUFFT_KAISER_BESSEL, "Kaiser-Bessel I0(beta sqrt(1 - (2x/W)^2))",
        "kaiser-bessel"},
    {AOOCT_NUFFT_GAUSSIAN, "Gaussian exp(-2 pi x^2 (R - 1/2) / (R W))",
        "gaussian"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstAooctNufftKernel", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/* a blurb naming the element's NUFFT switch between @head and @tail,
 * interned: param specs with G_PARAM_STATIC_STRINGS keep the pointer */
static const gchar *
blurb (const gchar * head, const gchar * nufft_mode, const gchar * tail)
{
  gchar *s = g_strconcat (head, nufft_mode, tail, NULL);
  const gchar *interned = g_intern_string (s);

  g_free (s);
  return interned;
}

void
aooct_kspace_props_install (GObjectClass * klass, guint first_prop_id,
    const gchar * nufft_mode)
{
  g_object_class_install_property (klass, first_prop_id + WAVELENGTH_FILE,
      g_param_spec_string ("wavelength-file", "Wavelength file",
          "Text file of N wavelengths in nm, one per camera pixel (finite, "
          "positive, strictly increasing or decreasing); exclusive with "
          "wavelength-coeffs. Default: none", NULL, FLAGS));
  g_object_class_install_property (klass, first_prop_id + WAVELENGTH_COEFFS,
      g_param_spec_string ("wavelength-coeffs", "Wavelength coefficients",
          "\"c0,c1[,c2[,c3]]\": lambda(p) = c0 + c1 p + c2 p^2 + c3 p^3 in "
          "nm for camera pixel p; must be positive and strictly monotonic "
          "on [0, N-1]; exclusive with wavelength-file. Default: none", NULL,
          FLAGS));
  g_object_class_install_property (klass, first_prop_id + NUFFT_KERNEL,
      g_param_spec_enum ("nufft-kernel", "NUFFT kernel",
          blurb ("Gridding kernel of ", nufft_mode,
              ". Default: kaiser-bessel"),
          GST_TYPE_AOOCT_NUFFT_KERNEL, AOOCT_NUFFT_DEFAULT_KERNEL, FLAGS));
  g_object_class_install_property (klass, first_prop_id + NUFFT_OVERSAMPLING,
      g_param_spec_double ("nufft-oversampling", "NUFFT oversampling",
          blurb ("Oversampling R of ", nufft_mode, "'s grid (R x samples "
              "points, which must be a whole number). Default: 2"),
          AOOCT_NUFFT_MIN_OVERSAMPLING, AOOCT_NUFFT_MAX_OVERSAMPLING,
          AOOCT_NUFFT_DEFAULT_OVERSAMPLING, FLAGS));
  g_object_class_install_property (klass, first_prop_id + NUFFT_WIDTH,
      g_param_spec_int ("nufft-width", "NUFFT width",
          blurb ("Kernel width W of ", nufft_mode, ", in oversampled-grid "
              "samples. Default: 6"), AOOCT_NUFFT_MIN_WIDTH,
          AOOCT_NUFFT_MAX_WIDTH, AOOCT_NUFFT_DEFAULT_WIDTH, FLAGS));
  gst_type_mark_as_plugin_api (GST_TYPE_AOOCT_NUFFT_KERNEL, 0);
}

void
aooct_kspace_props_init (AooctKspaceProps * props)
{
  props->wavelength_file = NULL;
  props->wavelength_coeffs = NULL;
  props->nufft_kernel = AOOCT_NUFFT_DEFAULT_KERNEL;
  props->nufft_oversampling = AOOCT_NUFFT_DEFAULT_OVERSAMPLING;
  props->nufft_width = AOOCT_NUFFT_DEFAULT_WIDTH;
}

void
aooct_kspace_props_clear (AooctKspaceProps * props)
{
  g_clear_pointer (&props->wavelength_file, g_free);
  g_clear_pointer (&props->wavelength_coeffs, g_free);
}

gboolean
aooct_kspace_props_set (AooctKspaceProps * props, guint first_prop_id,
    guint prop_id, const GValue * value)
{
  if (prop_id < first_prop_id
      || prop_id >= first_prop_id + AOOCT_KSPACE_N_PROPS)
    return FALSE;
  switch (prop_id - first_prop_id) {
    case WAVELENGTH_FILE:
      g_free (props->wavelength_file);
      props->wavelength_file = g_value_dup_string (value);
      break;
    case WAVELENGTH_COEFFS:
      g_free (props->wavelength_coeffs);
      props->wavelength_coeffs = g_value_dup_string (value);
      break;
    case NUFFT_KERNEL:
      props->nufft_kernel = g_value_get_enum (value);
      break;
    case NUFFT_OVERSAMPLING:
      props->nufft_oversampling = g_value_get_double (value);
      break;
    default:
      props->nufft_width = g_value_get_int (value);
      break;
  }
  return TRUE;
}

gboolean
aooct_kspace_props_get (const AooctKspaceProps * props, guint first_prop_id,
    guint prop_id, GValue * value)
{
  if (prop_id < first_prop_id
      || prop_id >= first_prop_id + AOOCT_KSPACE_N_PROPS)
    return FALSE;
  switch (prop_id - first_prop_id) {
    case WAVELENGTH_FILE:
      g_value_set_string (value, props->wavelength_file);
      break;
    case WAVELENGTH_COEFFS:
      g_value_set_string (value, props->wavelength_coeffs);
      break;
    case NUFFT_KERNEL:
      g_value_set_enum (value, props->nufft_kernel);
      break;
    case NUFFT_OVERSAMPLING:
      g_value_set_double (value, props->nufft_oversampling);
      break;
    default:
      g_value_set_int (value, props->nufft_width);
      break;
  }
  return TRUE;
}
