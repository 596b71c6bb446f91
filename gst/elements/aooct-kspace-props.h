/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the calibration and NUFFT properties that aooctkmap and aooctcs
 * share.
 *
 * Both elements take the spectrometer's calibration (wavelength-file or
 * wavelength-coeffs, spec section 4) and the parameters of their NUFFT
 * (nufft-kernel, nufft-oversampling, nufft-width, spec section 8) with the
 * same names, ranges, defaults and meaning.  aooct_kspace_props_install()
 * installs the five as consecutive property ids from @first_prop_id; the
 * element's set_property and get_property hand those ids to
 * aooct_kspace_props_set() and aooct_kspace_props_get() (under the object
 * lock, like the element's own properties) and read the values from the
 * struct. */
#pragma once

#include <gst/gst.h>

#include "aooct-kspace.h"

G_BEGIN_DECLS
/* nufft-kernel's enum (AooctNufftKernel) */
#define GST_TYPE_AOOCT_NUFFT_KERNEL (gst_aooct_nufft_kernel_get_type ())
    GType gst_aooct_nufft_kernel_get_type (void);

typedef struct
{
  gchar *wavelength_file;       /* NULL: none */
  gchar *wavelength_coeffs;     /* NULL: none */
  AooctNufftKernel nufft_kernel;
  gdouble nufft_oversampling;   /* R */
  gint nufft_width;             /* W */
} AooctKspaceProps;

/* property ids that aooct_kspace_props_install() takes, from
 * first_prop_id */
#define AOOCT_KSPACE_N_PROPS 5

/* @nufft_mode names what selects the NUFFT on the element, for the blurbs
 * ("interpolation=nufft", "operator=nufft"); kept for the class's life. */
void aooct_kspace_props_install (GObjectClass * klass, guint first_prop_id,
    const gchar * nufft_mode);

/* the defaults (no calibration; aooct-kspace.h's NUFFT defaults) */
void aooct_kspace_props_init (AooctKspaceProps * props);
void aooct_kspace_props_clear (AooctKspaceProps * props);

/* FALSE where @prop_id is not one of the five installed from
 * @first_prop_id */
gboolean aooct_kspace_props_set (AooctKspaceProps * props,
    guint first_prop_id, guint prop_id, const GValue * value);
gboolean aooct_kspace_props_get (const AooctKspaceProps * props,
    guint first_prop_id, guint prop_id, GValue * value);

G_END_DECLS
