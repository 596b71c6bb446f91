/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctsplit, see gstaooctsplit.c. */
#ifndef __GST_AOOCT_SPLIT_H__
#define __GST_AOOCT_SPLIT_H__

#include <gst/gst.h>

G_BEGIN_DECLS
#define GST_TYPE_AOOCT_SPLIT (gst_aooct_split_get_type ())
G_DECLARE_FINAL_TYPE (GstAooctSplit, gst_aooct_split, GST, AOOCT_SPLIT,
    GstElement);

GST_ELEMENT_REGISTER_DECLARE (aooctsplit);

G_END_DECLS
#endif /* __GST_AOOCT_SPLIT_H__ */
