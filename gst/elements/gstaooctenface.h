/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctenface (spec section 11). */
#ifndef __GST_AOOCT_ENFACE_H__
#define __GST_AOOCT_ENFACE_H__

#include "gstaooctview.h"

G_BEGIN_DECLS
#define GST_TYPE_AOOCT_ENFACE (gst_aooct_enface_get_type ())
G_DECLARE_FINAL_TYPE (GstAooctEnface, gst_aooct_enface, GST, AOOCT_ENFACE,
    GstAooctView);

GST_ELEMENT_REGISTER_DECLARE (aooctenface);

G_END_DECLS
#endif /* __GST_AOOCT_ENFACE_H__ */
