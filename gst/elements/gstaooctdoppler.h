/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctdoppler (spec section 12). */
#ifndef __GST_AOOCT_DOPPLER_H__
#define __GST_AOOCT_DOPPLER_H__

#include "gstaooctfilter.h"

G_BEGIN_DECLS
#define GST_TYPE_AOOCT_DOPPLER (gst_aooct_doppler_get_type ())
G_DECLARE_FINAL_TYPE (GstAooctDoppler, gst_aooct_doppler, GST, AOOCT_DOPPLER,
    GstAooctFilter);

GST_ELEMENT_REGISTER_DECLARE (aooctdoppler);

G_END_DECLS
#endif /* __GST_AOOCT_DOPPLER_H__ */
