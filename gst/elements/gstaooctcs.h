/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctcs, compressive sensing (spec section 10). */
#ifndef __GST_AOOCT_CS_H__
#define __GST_AOOCT_CS_H__

#include "gstaooctfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_AOOCT_CS (gst_aooct_cs_get_type ())
G_DECLARE_FINAL_TYPE (GstAooctCs, gst_aooct_cs, GST, AOOCT_CS, GstAooctFilter);

GST_ELEMENT_REGISTER_DECLARE (aooctcs);

G_END_DECLS

#endif /* __GST_AOOCT_CS_H__ */
