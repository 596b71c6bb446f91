/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctrender (spec section 11). */
#ifndef __GST_AOOCT_RENDER_H__
#define __GST_AOOCT_RENDER_H__

#include "gstaooctview.h"

G_BEGIN_DECLS
#define GST_TYPE_AOOCT_RENDER (gst_aooct_render_get_type ())
G_DECLARE_FINAL_TYPE (GstAooctRender, gst_aooct_render, GST, AOOCT_RENDER,
    GstAooctView);

GST_ELEMENT_REGISTER_DECLARE (aooctrender);

G_END_DECLS
#endif /* __GST_AOOCT_RENDER_H__ */
