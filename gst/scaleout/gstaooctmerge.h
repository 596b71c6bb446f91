/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctmerge, see gstaooctmerge.c. */
#ifndef __GST_AOOCT_MERGE_H__
#define __GST_AOOCT_MERGE_H__

#include <gst/gst.h>

G_BEGIN_DECLS
#define GST_TYPE_AOOCT_MERGE (gst_aooct_merge_get_type ())
G_DECLARE_FINAL_TYPE (GstAooctMerge, gst_aooct_merge, GST, AOOCT_MERGE,
    GstElement);

GST_ELEMENT_REGISTER_DECLARE (aooctmerge);

G_END_DECLS
#endif /* __GST_AOOCT_MERGE_H__ */
