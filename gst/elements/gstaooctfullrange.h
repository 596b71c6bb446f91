/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctfullrange, the lateral analytic signal of complex full-range
 * OCT. */
#ifndef __GST_AOOCT_FULLRANGE_H__
#define __GST_AOOCT_FULLRANGE_H__

#include "gstaooctfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_AOOCT_FULLRANGE (gst_aooct_fullrange_get_type ())
G_DECLARE_FINAL_TYPE (GstAooctFullrange, gst_aooct_fullrange, GST,
    AOOCT_FULLRANGE, GstAooctFilter);

GST_ELEMENT_REGISTER_DECLARE (aooctfullrange);

G_END_DECLS

#endif /* __GST_AOOCT_FULLRANGE_H__ */
