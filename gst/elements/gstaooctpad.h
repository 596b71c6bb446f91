/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctpad, zero-padding by FFT interpolation. */
#ifndef __GST_AOOCT_PAD_H__
#define __GST_AOOCT_PAD_H__

#include "gstaooctfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_AOOCT_PAD (gst_aooct_pad_get_type ())
G_DECLARE_FINAL_TYPE (GstAooctPad, gst_aooct_pad, GST, AOOCT_PAD,
    GstAooctFilter);

GST_ELEMENT_REGISTER_DECLARE (aooctpad);

G_END_DECLS

#endif /* __GST_AOOCT_PAD_H__ */
