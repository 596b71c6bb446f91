/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctdcsub, conversion to float32 and DC subtraction. */
#ifndef __GST_AOOCT_DCSUB_H__
#define __GST_AOOCT_DCSUB_H__

#include "gstaooctfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_AOOCT_DCSUB (gst_aooct_dcsub_get_type ())
G_DECLARE_FINAL_TYPE (GstAooctDcsub, gst_aooct_dcsub, GST, AOOCT_DCSUB,
    GstAooctFilter);

GST_ELEMENT_REGISTER_DECLARE (aooctdcsub);

G_END_DECLS

#endif /* __GST_AOOCT_DCSUB_H__ */
