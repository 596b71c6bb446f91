/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctregister (spec section 13). */
#ifndef __GST_AOOCT_REGISTER_H__
#define __GST_AOOCT_REGISTER_H__

#include "gstaooctfilter.h"

G_BEGIN_DECLS
#define GST_TYPE_AOOCT_REGISTER (gst_aooct_register_get_type ())
G_DECLARE_FINAL_TYPE (GstAooctRegister, gst_aooct_register, GST,
    AOOCT_REGISTER, GstAooctFilter);

GST_ELEMENT_REGISTER_DECLARE (aooctregister);

G_END_DECLS
#endif /* __GST_AOOCT_REGISTER_H__ */
