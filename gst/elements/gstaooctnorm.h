/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctnorm, crop, intensity, log and normalisation to grey levels. */
#ifndef __GST_AOOCT_NORM_H__
#define __GST_AOOCT_NORM_H__

#include "gstaooctfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_AOOCT_NORM (gst_aooct_norm_get_type ())
G_DECLARE_FINAL_TYPE (GstAooctNorm, gst_aooct_norm, GST, AOOCT_NORM,
    GstAooctFilter);

GST_ELEMENT_REGISTER_DECLARE (aooctnorm);

G_END_DECLS

#endif /* __GST_AOOCT_NORM_H__ */
