/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctangio (spec section 12). */
#ifndef __GST_AOOCT_ANGIO_H__
#define __GST_AOOCT_ANGIO_H__

#include "gstaooctgroup.h"

G_BEGIN_DECLS
#define GST_TYPE_AOOCT_ANGIO (gst_aooct_angio_get_type ())
G_DECLARE_FINAL_TYPE (GstAooctAngio, gst_aooct_angio, GST, AOOCT_ANGIO,
    GstAooctGroup);

GST_ELEMENT_REGISTER_DECLARE (aooctangio);

G_END_DECLS
#endif /* __GST_AOOCT_ANGIO_H__ */
