/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctkmap, lambda-to-k resampling. */
#ifndef __GST_AOOCT_KMAP_H__
#define __GST_AOOCT_KMAP_H__

#include "gstaooctfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_AOOCT_KMAP (gst_aooct_kmap_get_type ())
G_DECLARE_FINAL_TYPE (GstAooctKmap, gst_aooct_kmap, GST, AOOCT_KMAP,
    GstAooctFilter);

GST_ELEMENT_REGISTER_DECLARE (aooctkmap);

G_END_DECLS

#endif /* __GST_AOOCT_KMAP_H__ */
